import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';

// The re-check of refused tokens, for every kind: the owners whose items a refused token paused are asked about
// again, with back-off (a first wait, doubling up to an hour), and their items resume once the server accepts the
// token again — a burst of 401s must not leave anything paused until its owner happens to use the bot. Each loop
// (the cron loop's sweep, the polled loop's looks) re-checks the owners of its own kind.

export interface TokenPausedOwner {
  teamId: string;
  ownerId: string;
}

export interface TokenRechecksOptions {
  /** The app's access: its re-check asks the server and, when it accepts a token marked revoked, resumes all kinds. */
  access: Pick<GitlabAccess, 'recheck'>;
  /** Owners whose items a refused token paused, as the database says now. */
  pausedOwners: () => Promise<TokenPausedOwner[]>;
  /** Resumes the owner's items once the server accepts their token (and tells them once). */
  resume: (owner: TokenPausedOwner) => Promise<unknown>;
  /** The clock the waits are taken by, in milliseconds. */
  now: () => number;
  /** The first wait before an owner's token is asked about again; it doubles up to an hour. */
  firstWaitMs: number;
  logger: Logger;
}

const HOUR = 60 * 60 * 1000;

export function createTokenRechecks(o: TokenRechecksOptions) {
  /** When each paused owner's token is asked about next, and how long the wait after that one is. */
  const due = new Map<string, { at: number; waitMs: number }>();

  return {
    /** Asks about the tokens whose time has come; resumes what the server accepts. */
    async run(): Promise<void> {
      const now = o.now();
      const seen = new Set<string>();
      for (const owner of await o.pausedOwners()) {
        const key = `${owner.teamId}:${owner.ownerId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const next = due.get(key) ?? { at: now + o.firstWaitMs, waitMs: o.firstWaitMs };
        due.set(key, next);
        if (next.at > now) continue;
        const accepted = await o.access.recheck({ teamId: owner.teamId, userId: owner.ownerId }).catch(() => false);
        if (accepted) {
          due.delete(key);
          await o.resume(owner).catch((err: unknown) => {
            o.logger.warn('could not resume what a refused token paused', { error: String(err) });
          });
        } else {
          due.set(key, { at: now + next.waitMs, waitMs: Math.min(next.waitMs * 2, HOUR) });
        }
      }
      for (const key of [...due.keys()]) if (!seen.has(key)) due.delete(key);
    },
  };
}
