import type { Actor, RequestContext } from '../operations/context.js';
import type { PauseReason, RunReason } from '../operations/run-outcome.js';
import type { LeasedTable } from '../store/delivery-lease-store.js';
import type { SlackMessage } from '../views/blocks.js';

// A kind of scheduled delivery (a digest, the weekly insights, …) declares what it reads and with whose token, what
// it posts and where, and what state it keeps; the kernel (kernel.ts, scheduled.ts) does the rest, the same way for
// every kind: due work found in the database and claimed with a fenced lease, intent → marked post → commit, the
// search for a post made but not committed, pacing, pauses with one DM, back-off, hooks. A kind computes messages
// as data and never posts: the kernel posts them under its fence. Adding a kind: docs/delivery-kernel.md.

export type { PauseReason, RunOutcome, RunPoint, RunReason } from '../operations/run-outcome.js';

/** What the kernel reads of every item of a scheduled kind. */
export interface ScheduledItem {
  id: number;
  teamId: string;
  /** Whose token reads for it, and who is told when it pauses. */
  ownerId: string;
  /** Where it posts. */
  channelId: string;
  active: boolean;
  cron: string;
  tz: string;
  lastRunAt: Date | null;
  lastResult: string | null;
  /** Slack ts of its latest post: history older than it cannot hold a later run's post. */
  lastPostTs: string | null;
}

/** A run between its intent and its commit. */
export interface OpenIntent {
  runKey: string;
  scheduledFor: Date;
  state: 'pending' | 'posted';
  channelId: string;
  messageTs: string | null;
  items: number;
}

/** What a finished run writes of its item. */
export interface RunRecord {
  at: Date;
  result: string;
  items: number;
  nextRunAt: Date | null;
}

/** What a read found: how many things are new, the message that shows them, the state the commit keeps. */
export interface Found<State> {
  items: number;
  view(now: Date): SlackMessage;
  /**
   * What is posted instead when Slack refuses `view`'s blocks (`invalid_blocks`): the same message without what Slack
   * may not accept yet (an uploaded image it is still processing). Nothing was posted, so it goes under the same
   * intent and mark.
   */
  plainView?(now: Date): SlackMessage;
  /** Written with the intent, kept by the commit (a cursor, a mark); opaque to the kernel. */
  state: State;
  /** With nothing new: since when nothing came (what a person asking is told). */
  since?: Date;
}

/** The rows of a kind, as the kernel needs them (one implementation over the store port, both engines). */
export interface ScheduledStore<Item extends ScheduledItem, State> {
  get(id: number): Promise<Item | null>;
  /** What a claim selects besides the row (SQL), and the item and whether an intent is open, from what it returned. */
  readonly claimExtra: string;
  fromClaim(row: unknown): { item: Item; openIntent: boolean };
  /** The ids of active items on the schedule `cron` in `tz`, as the database says now (what a fire of it runs). */
  dueIn(schedule: { cron: string; tz: string }): Promise<number[]>;
  /** Every active item's schedule (what every replica arms). */
  scheduled(): Promise<{ id: number; cron: string; tz: string }[]>;
  /** Active items due by `dueBefore` that nobody holds at `now`. */
  overdue(dueBefore: Date, now: Date, limit: number): Promise<{ id: number; nextRunAt: Date }[]>;
  /** Items with an open intent whose lease ran out at `now` (and with `released`, those nobody holds). */
  orphaned(now: Date, o: { released: boolean }): Promise<{ id: number; scheduledFor: Date }[]>;
  openIntentOf(id: number): Promise<OpenIntent | null>;
  openIntent(
    id: number,
    intent: Omit<OpenIntent, 'state' | 'messageTs'> & { reason: RunReason },
    state: State,
    at: Date,
  ): Promise<void>;
  markPosted(runKey: string, ts: string): Promise<void>;
  /** Keeps the intent's state, notes the run and deletes the intent in one transaction (`midway` between the two). */
  commit(runKey: string, run: RunRecord, midway?: () => void): Promise<boolean>;
  drop(runKey: string): Promise<void>;
  /** A run that posted nothing (or failed): the state stays. */
  record(id: number, run: RunRecord): Promise<void>;
  recordMany(runs: readonly (readonly [number, RunRecord])[]): Promise<void>;
  /** Pauses an active item; null when it was not active (so whoever pauses it says so once). */
  pause(id: number, reason: PauseReason, by: string | null): Promise<Item | null>;
  /** Pauses every active item of an owner; the ones this paused. */
  pauseOwner(teamId: string, ownerId: string, reason: PauseReason): Promise<Item[]>;
  /** Owners with items paused for `reason` (a refused token: re-checked by the kernel with back-off). */
  pausedOwners(reason: PauseReason): Promise<{ teamId: string; ownerId: string }[]>;
  /** Resumes the owner's items paused for `reason`, each at its next run; the ones this resumed. */
  resumeOwner(
    teamId: string,
    ownerId: string,
    reason: PauseReason,
    nextRunAt: (i: Item) => Date | null,
  ): Promise<Item[]>;
}

/** What a kind may say when the kernel pauses it. */
export interface KindNotices<Item> {
  /**
   * The DM to an owner whose token the server refused: the items are paused until the server accepts the token again
   * (`confirmed`: the owner has no token at all, and must connect one).
   */
  tokenPaused(paused: readonly Item[], o: { serverUrl: string; confirmed: boolean }): SlackMessage;
  /** Said once where the item posts when the server refuses what it reads (403, 404). */
  readRefused(item: Item, status: 403 | 404): SlackMessage;
  /** DM'd to the owner when Slack refuses to post where the item posts. */
  channelRefused(item: Item, error: string): SlackMessage;
  /**
   * DM'd to the owner when their items run again after a pause for their token: `connected` when they connected
   * again, `accepted` when the server took the token again.
   */
  resumed(items: readonly Item[], how: 'connected' | 'accepted'): SlackMessage;
}

export interface ScheduledKind<Item extends ScheduledItem, State> {
  /** Its name in logs and hooks, and in node-cron's task names (`digest`, `insights`). */
  readonly name: string;
  /** The metadata event type its posts carry (found again by it after a crash). */
  readonly event: string;
  /** The table whose rows are its items (the lease protocol works on it: store/delivery-lease-store.ts). */
  readonly table: LeasedTable;
  readonly store: ScheduledStore<Item, State>;
  readonly notices: KindNotices<Item>;
  /** The payload of a run's mark (besides the run key): what names the item. */
  markOf(item: Item): Record<string, string | number>;
  /**
   * Reads what is new for the item, as its owner through `ctx`. Throws the access's errors as they are: the kernel
   * pauses on a refused token (401) and on a refused read (403, 404), and backs off on 429 and 5xx.
   */
  read(item: Item, ctx: RequestContext): Promise<Found<State>>;
  /** The owner's actor (whose token reads). */
  ownerOf(item: Item): Actor;
}
