import type { ScheduledTask } from 'node-cron';
import type { SlackMessage } from '../slack-message.js';
import type { Digest, NewDigest } from '../store/digest-store.js';
import type { RunOutcome, RunReason } from './run-outcome.js';

// The digest service as the commands drive it, and the outcome of a run. Declared here, by its users, and
// implemented in digest/ (which stands above operations/ and views/), so nothing below digest/ imports it. Types
// only.

export type { RunOutcome, RunPoint, RunReason } from './run-outcome.js';

export interface DigestChanges {
  cron?: string;
  tz?: string;
  action?: string | null;
  targetType?: string | null;
}

export interface DigestService {
  /** Creates a digest, or changes the schedule of the same one (same owner, place and subject). */
  create(input: Omit<NewDigest, 'nextRunAt' | 'cursor'>): Promise<{ digest: Digest; created: boolean }>;
  get(id: number): Promise<Digest | null>;
  /** The digests posting in a channel, and the person's digests posting in their DM. */
  list(teamId: string, channelId: string | null, userId: string): Promise<{ here: Digest[]; dms: Digest[] }>;
  /** Every digest a person owns, wherever it posts. */
  listOwned(teamId: string, userId: string): Promise<Digest[]>;
  /** When an active digest runs next (null when paused). */
  nextRun(d: Digest): Date | null;
  /**
   * Changes a digest's schedule, zone or event filters (only what is given; a filter of null posts all events);
   * an active one is armed on its new schedule at once. Null when there is no such digest.
   */
  edit(id: number, changes: DigestChanges): Promise<Digest | null>;
  pause(id: number, by: string): Promise<Digest | null>;
  resume(id: number): Promise<Digest | null>;
  remove(id: number): Promise<boolean>;
  run(id: number, reason?: RunReason): Promise<RunOutcome>;
  /** Runs every active digest whose time has come by `now` (once each, whatever it missed). */
  runDue(reason?: RunReason): Promise<{ id: number; outcome: RunOutcome }[]>;
  /**
   * What every replica does every little while: arms what the database says is scheduled, takes over runs whose
   * replica died (their lease ran out) and slots nobody ran, prunes old coordination rows.
   */
  sweep(): Promise<void>;
  /**
   * After a person connects (`connected`), or the server accepts their token again (`accepted`): their digests paused
   * for a refused token run again, and they are told once.
   */
  resumeOwner(teamId: string, userId: string, how?: 'connected' | 'accepted'): Promise<Digest[]>;
  /** Arms every active digest, then settles interrupted runs and catches up missed ones (in the background). */
  start(): Promise<void>;
  /** Resolves when the start's settling and catching up is over. */
  readonly recovered: Promise<void>;
  stop(): Promise<void>;
  /** Whether a person is a Slack workspace admin (who may manage anyone's digests). */
  isAdmin(userId: string): Promise<boolean>;
  /** The DM channel between the bot and a person (where their DM digests post). */
  openDm(userId: string): Promise<string>;
  /**
   * One DM to a digest's owner (someone else changed their digest). What was done stands whether or not it goes: a
   * DM Slack refuses is logged, not thrown.
   */
  tellOwner(userId: string, message: SlackMessage): Promise<void>;
  /**
   * Runs a digest in the background (a command's answer cannot wait for it), then tells the person who asked
   * what `describe` makes of the outcome, in the channel it names.
   */
  runAndTell(
    id: number,
    userId: string,
    describe: (outcome: RunOutcome) => Promise<{ channelId: string; message: SlackMessage | null } | null>,
  ): void;
  /** node-cron's task of a digest (tests look at it through node-cron's API). */
  taskOf(id: number): ScheduledTask | undefined;
  isArmed(id: number): boolean;
}
