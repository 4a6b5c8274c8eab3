import type { SqlEngine } from './engine.js';

// The fires of node-cron tasks that some replica took (node-cron's `distributed` mode asks before each fire):
// the first replica to insert a fire's key runs it, every other is told no. Keys are never deleted while a
// replica could still ask for them; a day later they are pruned.

export interface CronFireStore {
  /** True for the first replica to take this fire's key, false for every other. */
  take(key: string, by: string, at: Date): Promise<boolean>;
  /** Deletes the keys of fires taken before `before`; resolves with how many. */
  prune(before: Date): Promise<number>;
}

export function createCronFireStore(engine: SqlEngine): CronFireStore {
  return {
    async take(key, by, at) {
      const inserted = await engine.run(
        `INSERT INTO cron_fires (fire_key, fired_by, fired_at) VALUES ($1, $2, $3) ON CONFLICT (fire_key) DO NOTHING`,
        [key, by, at.toISOString()],
      );
      return inserted === 1;
    },
    prune: (before) => engine.run('DELETE FROM cron_fires WHERE fired_at < $1', [before.toISOString()]),
  };
}
