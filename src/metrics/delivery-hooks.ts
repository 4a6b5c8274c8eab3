import type { DeliveredEvent, DeliveryHooks } from '../delivery/hooks.js';
import type { Metrics } from './metrics.js';

// The delivery kernel's observer (src/delivery/hooks.ts) as metrics: each run by kind and outcome with its lag
// from due to posted, and what this replica holds (leases) and keeps waiting (the limiter's queue) per kind, kept
// as the kernel reports it and read when Prometheus scrapes.

export interface DeliveryObserver {
  delivered(e: DeliveredEvent): void;
  leasesHeld(e: { kind: string; held: number }): void;
  queueDepth(e: { kind: string; depth: number }): void;
}

export function deliveryMetrics(metrics: Metrics): DeliveryObserver {
  const leases: Record<string, number> = {};
  const waiting: Record<string, number> = {};
  metrics.watch({
    leases: () => leases,
    delivery: () => waiting,
  });
  return {
    delivered: (e) => metrics.delivery(e.kind, e.outcome, e.lagMs === null ? undefined : e.lagMs / 1000),
    leasesHeld: (e) => {
      leases[e.kind] = e.held;
    },
    queueDepth: (e) => {
      waiting[e.kind] = e.depth;
    },
  };
}

/** The metrics' observer and another one (a test's) both told of every event; only the other when metrics are off. */
export function deliveryHooksOf(metrics: Metrics, also: DeliveryHooks | undefined): DeliveryHooks | undefined {
  if (!metrics.registry) return also;
  const mine = deliveryMetrics(metrics);
  if (!also) return mine;
  return {
    delivered: (e) => {
      mine.delivered(e);
      also.delivered?.(e);
    },
    leasesHeld: (e) => {
      mine.leasesHeld(e);
      also.leasesHeld?.(e);
    },
    queueDepth: (e) => {
      mine.queueDepth(e);
      also.queueDepth?.(e);
    },
  };
}
