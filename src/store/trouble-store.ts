import type { SqlEngine } from './engine.js';

// What the server refused lately, shared by replicas: a 401 for someone, or an outage. When one person's 401 is
// being confirmed, a refusal of someone else's token (on any replica) or an outage meanwhile means the server is in
// trouble, not that this token is revoked: several people refused at once on different replicas are never all
// marked revoked. Rows are kept a few minutes, then pruned.

export interface TroubleStore {
  /** Notes a refusal of `who`'s token (`team:user`), or an outage (`(server)`), at `at`. */
  note(who: string, at: Date): Promise<void>;
  /** Whether anyone but `who` (or the server as a whole) had trouble after `since`. */
  othersSince(since: Date, who: string): Promise<boolean>;
  /** Forgets trouble before `before`; how many rows. */
  prune(before: Date): Promise<number>;
}

/** Trouble is evidence for a few minutes (a second check comes 2 s after the first); older rows are pruned. */
const KEEP_MS = 10 * 60 * 1000;

export function createTroubleStore(engine: SqlEngine): TroubleStore {
  let lastPrune = 0;
  const prune = (before: Date) => engine.run('DELETE FROM server_trouble WHERE at < $1', [before.getTime()]);
  return {
    async note(who, at) {
      if (at.getTime() - lastPrune >= 60_000) {
        lastPrune = at.getTime();
        await prune(new Date(at.getTime() - KEEP_MS));
      }
      await engine.run('INSERT INTO server_trouble (who, at) VALUES ($1, $2)', [who, at.getTime()]);
    },
    async othersSince(since, who) {
      const row = await engine.get('SELECT 1 AS hit FROM server_trouble WHERE at > $1 AND who <> $2 LIMIT 1', [
        since.getTime(),
        who,
      ]);
      return row !== undefined;
    },
    prune,
  };
}
