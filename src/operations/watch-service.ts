import type { Watch, WatchStatusFilter } from '../store/watch-store.js';

// The pipeline watch service as the commands and buttons drive it. Declared here, by its users, and implemented in
// watch/ (which stands above operations/ and views/). Types only.

/** Where a test may stop the process (the seam main.ts wires to an environment variable in tests only). */
export type WatchPoint = 'before-post' | 'after-post' | 'after-update' | 'after-reply';

export interface NewWatchInput {
  teamId: string;
  channelId: string;
  creatorId: string;
  project: { id: number; path: string };
  ref: string | null;
  statusFilter: WatchStatusFilter;
  /** The project's newest pipelines as the creator read them: what is there now is never posted. */
  baseline: readonly { id: number; status: string }[];
}

export interface WatchService {
  /** Makes a watch, or answers the same one (same channel, project, ref and filter) when it exists. */
  create(input: NewWatchInput): Promise<{ watch: Watch; created: boolean }>;
  get(id: number): Promise<Watch | null>;
  listForChannel(teamId: string, channelId: string): Promise<Watch[]>;
  listForCreator(teamId: string, creatorId: string): Promise<Watch[]>;
  pause(id: number, by: string): Promise<Watch | null>;
  resume(id: number): Promise<Watch | null>;
  remove(id: number): Promise<boolean>;
  /**
   * Their watches paused for a refused token are polled again, and the creator is told once: after they connect again
   * (`connected`, the default) or when a re-check found the token accepted (`accepted`).
   */
  resumeCreator(teamId: string, creatorId: string, how?: 'connected' | 'accepted'): Promise<Watch[]>;
  /** Whether a person is a Slack workspace admin (who may change anyone's watch). */
  isAdmin(userId: string): Promise<boolean>;
  /**
   * Polls the watches that are due (with `all`, every active one, once) under their leases, and delivers what
   * they found; resolves when that is done. What the minute timer runs; tests and the demo call it themselves.
   */
  poll(o?: { all?: boolean }): Promise<{ polled: number; posted: number }>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
