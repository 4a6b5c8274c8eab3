import type { SqlEngine } from './engine.js';

// "This is mine until T", decided by the database, so that what must happen once happens once whichever
// replica (or a restarted process) sees it: a signed request's signature, an event Slack delivers again, a
// click that lands on two replicas. The first to insert a key holds it until its time; a key whose time has
// passed may be claimed again. Written only against the SqlEngine port: the same SQL on SQLite and PostgreSQL.

export interface ClaimStore {
  /** True when this call took `key` (nobody held it, or their time had passed); false when it is held. */
  claim(key: string, until: Date): Promise<boolean>;
  /** Gives a key back before its time (the work it guarded is over). */
  release(key: string): Promise<void>;
  /** Forgets keys whose time has passed; how many. */
  prune(): Promise<number>;
}

/** How often claiming also prunes: old keys are forgotten at most this long after their time. */
const PRUNE_EVERY_MS = 60_000;

export function createClaimStore(engine: SqlEngine, now: () => Date = () => new Date()): ClaimStore {
  let lastPrune = 0;
  const prune = async () => engine.run('DELETE FROM claims WHERE held_until <= $1', [now().toISOString()]);
  return {
    async claim(key, until) {
      const at = now();
      if (at.getTime() - lastPrune >= PRUNE_EVERY_MS) {
        lastPrune = at.getTime();
        await prune();
      }
      // One statement: inserted, or taken over from a holder whose time has passed; a live holder changes nothing.
      const changed = await engine.run(
        `INSERT INTO claims (claim_key, held_until) VALUES ($1, $2)
         ON CONFLICT (claim_key) DO UPDATE SET held_until = excluded.held_until
         WHERE claims.held_until <= $3`,
        [key, until.toISOString(), at.toISOString()],
      );
      return changed > 0;
    },
    async release(key) {
      await engine.run('DELETE FROM claims WHERE claim_key = $1', [key]);
    },
    prune,
  };
}
