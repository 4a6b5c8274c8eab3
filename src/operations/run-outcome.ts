// What a run of a scheduled kind can end as, and why it ran: plain types that views, operations and the delivery
// kernel (delivery/) all name, so they stand with the operations that drive the runs. A leaf: it imports nothing.

/** Why a run started: its slot fired, a missed slot caught up, a person asked, an interrupted run settled. */
export type RunReason = 'scheduled' | 'catch-up' | 'manual' | 'recover';

/** Why the bot (or a person) paused an item. */
export type PauseReason = 'person' | 'token' | 'forbidden' | 'not_found' | 'channel';

/** Where a test may stop the process (the seam main.ts wires to an environment variable in tests only). */
export type RunPoint = 'before-post' | 'after-fence' | 'after-post' | 'while-saving';

export type RunOutcome =
  | { kind: 'posted'; items: number; ts: string }
  /** An earlier run's post was found and committed; nothing new was posted. */
  | { kind: 'settled'; items: number; ts: string }
  | { kind: 'empty'; since: Date }
  | { kind: 'paused'; reason: PauseReason }
  | { kind: 'inactive' }
  /** It already ran for this time, or another replica is running it right now. */
  | { kind: 'skipped' }
  | { kind: 'gone' }
  | { kind: 'failed'; error: string };
