import { describe, expect, it } from 'vitest';
import { BudgetExhaustedError } from '../../../src/delivery/pacing.js';
import { busyWaitMs } from '../../../src/delivery/polled.js';
import { readFailureOf } from '../../../src/delivery/steps.js';
import { RateLimitedError, UnavailableError } from '../../../src/gitlab/errors.js';

// How long the polled loop waits after a busy poll (delivery/polled.ts): the kind's own next poll after the first
// busy poll in a row, then its interval doubled per busy poll before, up to the cap; never less than the server's
// Retry-After or the token's budget asks.

const MINUTE = 60_000;
const wait = (busyPolls: number, retryAfterMs: number | null = null) =>
  busyWaitMs({ busyPolls, intervalMs: MINUTE, capMs: 30 * MINUTE, retryAfterMs });

describe('the wait after a busy poll', () => {
  it('doubles the interval per busy poll before it, up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 60].map((n) => wait(n) / MINUTE)).toEqual([0, 2, 4, 8, 16, 30, 30, 30]);
  });

  it('is never shorter than the server asked', () => {
    expect(wait(0, 10 * MINUTE)).toBe(10 * MINUTE);
    expect(wait(2, 10 * MINUTE)).toBe(10 * MINUTE);
    expect(wait(4, 10 * MINUTE)).toBe(16 * MINUTE);
    expect(wait(6, 45 * MINUTE)).toBe(45 * MINUTE);
  });

  it('takes what the server or the budget said from the failed read', () => {
    const where = { method: 'GET', path: '/todos', status: 429 };
    expect(readFailureOf(new RateLimitedError({ ...where, retryAfterSeconds: 90 }))).toEqual({
      kind: 'busy',
      error: 'gitlab_rate_limited',
      retryAfterMs: 90_000,
    });
    expect(readFailureOf(new BudgetExhaustedError(42_000))).toMatchObject({ kind: 'busy', retryAfterMs: 42_000 });
    expect(readFailureOf(new UnavailableError({ ...where, status: 503 }))).toMatchObject({
      kind: 'busy',
      retryAfterMs: null,
    });
  });
});
