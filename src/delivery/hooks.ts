// What the kernel tells whoever watches it (metrics, logs, tests): a small observer, called synchronously and
// never awaited, so that a slow or failing observer cannot hold a delivery up. Every method is optional.

/** How one run of a kind's item ended (RunOutcome's kind: posted, settled, empty, paused, skipped, failed…). */
export interface DeliveredEvent {
  kind: string;
  outcome: string;
  /** From when the item was due to when its post was made (posted runs only), in milliseconds. */
  lagMs: number | null;
}

export interface DeliveryHooks {
  /** A run ended. */
  delivered?(e: DeliveredEvent): void;
  /** How many items of a kind this replica holds a lease on, after it took or let one go. */
  leasesHeld?(e: { kind: string; held: number }): void;
  /** How many runs of a kind wait for their turn on this replica (the limiter's queue), when it changes. */
  queueDepth?(e: { kind: string; depth: number }): void;
}

/** Calls a hook, and keeps an observer's exception out of the delivery. */
export function tell<E>(hook: ((e: E) => void) | undefined, e: E): void {
  if (!hook) return;
  try {
    hook(e);
  } catch {
    // An observer's failure is its own; the delivery goes on.
  }
}
