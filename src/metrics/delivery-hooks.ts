import type { Metrics } from './metrics.js';

// The delivery kernel's observer (src/delivery/hooks.ts) as metrics: each run by kind and outcome with its lag
// from due to posted, and what this replica holds (leases) and keeps waiting (the limiter's queue) per kind, kept
// as the kernel reports it and read when Prometheus scrapes.

export interface DeliveryObserver {
  delivered(e: { kind: string; outcome: string; lagMs: number | null }): void;
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
