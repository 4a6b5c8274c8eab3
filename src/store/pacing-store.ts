import type { SqlEngine } from './engine.js';

// Pacing that replicas share: the lane of each Slack channel (the next moment a message may go into it) and the
// rate-limit budget of each token (what the server said, and what has been spent since). Each is changed by one
// statement or one transaction, so two replicas never take the same moment of a channel or the same call of a
// budget. Times are epoch milliseconds of the pacing clock.

export interface BudgetState {
  remaining: number | null;
  limit: number | null;
  /** Epoch ms at which the server's window resets. */
  resetAt: number | null;
  /** Epoch ms before which nothing is sent (a 429's Retry-After). */
  blockedUntil: number;
}

export interface PacingStore {
  /** Takes the next free moment of a channel at or after `now`; the lane moves on by `intervalMs` past it. */
  reservePost(channel: string, now: number, intervalMs: number): Promise<number>;
  /** A post ended at `at`: nothing more goes into the channel before `at + intervalMs`. */
  posted(channel: string, at: number, intervalMs: number): Promise<void>;
  /** What is known of a token's budget (no lock: most tokens have none). */
  budget(key: string): Promise<BudgetState | null>;
  /**
   * Reads a token's budget and writes what `change` makes of it in one transaction (the row is locked while
   * `change` decides). `change` returns the new state (null: leave it) and what to resolve with.
   */
  updateBudget<T>(
    key: string,
    at: number,
    change: (state: BudgetState | null) => { state: BudgetState | null; result: T },
  ): Promise<T>;
  /** Forgets lanes and budgets not touched since `before`. */
  prune(before: number): Promise<number>;
}

interface BudgetRow {
  remaining: number | string | null;
  rate_limit: number | string | null;
  reset_at: number | string | null;
  blocked_until: number | string;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

export function createPacingStore(engine: SqlEngine): PacingStore {
  const greatest = engine.kind === 'postgres' ? 'GREATEST' : 'max';
  const forUpdate = engine.kind === 'postgres' ? ' FOR UPDATE' : '';
  const toState = (r: BudgetRow): BudgetState => ({
    remaining: num(r.remaining),
    limit: num(r.rate_limit),
    resetAt: num(r.reset_at),
    blockedUntil: Number(r.blocked_until),
  });
  return {
    async reservePost(channel, now, intervalMs) {
      const row = await engine.get<{ at: number | string }>(
        `INSERT INTO channel_lanes (channel_id, next_post_at) VALUES ($1, CAST($2 AS BIGINT) + CAST($3 AS BIGINT))
         ON CONFLICT (channel_id) DO UPDATE
           SET next_post_at = ${greatest}(channel_lanes.next_post_at, CAST($2 AS BIGINT)) + CAST($3 AS BIGINT)
         RETURNING next_post_at - CAST($3 AS BIGINT) AS at`,
        [channel, Math.round(now), Math.round(intervalMs)],
      );
      return row ? Number(row.at) : now;
    },
    async posted(channel, at, intervalMs) {
      await engine.run(
        `UPDATE channel_lanes SET next_post_at = ${greatest}(next_post_at, CAST($2 AS BIGINT) + CAST($3 AS BIGINT))
         WHERE channel_id = $1`,
        [channel, Math.round(at), Math.round(intervalMs)],
      );
    },
    async budget(key) {
      const row = await engine.get<BudgetRow>('SELECT * FROM token_budgets WHERE budget_key = $1', [key]);
      return row ? toState(row) : null;
    },
    updateBudget(key, at, change) {
      return engine.transaction(async (tx) => {
        const row = await tx.get<BudgetRow>(`SELECT * FROM token_budgets WHERE budget_key = $1${forUpdate}`, [key]);
        const { state, result } = change(row ? toState(row) : null);
        if (state) {
          await tx.run(
            `INSERT INTO token_budgets (budget_key, remaining, rate_limit, reset_at, blocked_until, touched_at)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (budget_key) DO UPDATE SET remaining = excluded.remaining, rate_limit = excluded.rate_limit,
               reset_at = excluded.reset_at, blocked_until = excluded.blocked_until, touched_at = excluded.touched_at`,
            [key, state.remaining, state.limit, state.resetAt, Math.round(state.blockedUntil), Math.round(at)],
          );
        }
        return result;
      });
    },
    async prune(before) {
      const lanes = await engine.run('DELETE FROM channel_lanes WHERE next_post_at < $1', [Math.round(before)]);
      const budgets = await engine.run('DELETE FROM token_budgets WHERE touched_at < $1 AND blocked_until < $1', [
        Math.round(before),
      ]);
      return lanes + budgets;
    },
  };
}
