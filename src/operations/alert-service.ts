import type { AlertAction } from '../alert-actions.js';
import type { AlertSetting, QuietHours } from '../store/alert-store.js';

// The todo alert service as `/gl notify`, Home and whoami drive it, and the outcome of one poll. Declared here, by
// its users, and implemented in alerts/ (which stands above operations/ and views/). Types only.

/** Where a test may stop the process during a delivery (main.ts wires it to an environment variable in tests). */
export type AlertPoint = 'before-post' | 'after-post' | 'while-saving';

export type PollOutcome =
  /** Nothing new: one call. */
  | { kind: 'idle' }
  | { kind: 'delivered'; items: number; ts: string }
  /** Quiet hours: new todos wait. */
  | { kind: 'held'; items: number }
  /** An earlier delivery's post was found and committed. */
  | { kind: 'settled'; items: number }
  | { kind: 'paused' }
  /** The lease ran out or was taken over right before the post: the replica holding it now delivers. */
  | { kind: 'lost' }
  /** `busy`: the server was in trouble (5xx, 429, the budget spent), so the person's polls back off. */
  | { kind: 'failed'; error: string; busy?: { retryAfterMs: number | null } };

export interface AlertInput {
  teamId: string;
  userId: string;
  actions: AlertAction[];
  quiet: QuietHours | null;
  tz: string;
}

export interface AlertService {
  get(teamId: string, userId: string): Promise<AlertSetting | null>;
  /** Turns a person's alerts on from the mark `seenTodoId` (kept when they were on already). */
  enable(input: AlertInput, seenTodoId: number): Promise<{ setting: AlertSetting; wasOn: boolean }>;
  disable(teamId: string, userId: string): Promise<boolean>;
  /**
   * Alerts a refused token paused poll again, and the person is told once: after they connect again (`connected`,
   * the default) or when a re-check found the token accepted (`accepted`).
   */
  resumeOwner(teamId: string, userId: string, how?: 'connected' | 'accepted'): Promise<boolean>;
  /** One pass over everyone whose poll is due (what each minute does; tests drive it with their clock). */
  pollDue(): Promise<{ teamId: string; userId: string; outcome: PollOutcome }[]>;
  /** Everyone with alerts on is due now, then one pass (the demo's `tick`). */
  pollNow(): Promise<{ teamId: string; userId: string; outcome: PollOutcome }[]>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
