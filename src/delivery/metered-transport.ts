import crypto from 'node:crypto';
import { RateLimitedError } from '../gitlab/errors.js';
import type { Transport } from '../gitlab/http.js';
import { createTtlCache } from '../ttl-cache.js';
import type { TokenBudget } from './pacing.js';

/** The budget's key for a token: a digest of it, so the token itself is kept nowhere new. */
export function budgetKey(token: string): string {
  return crypto.createHash('sha256').update(token).digest('base64url').slice(0, 16);
}

/**
 * The transport digests read through: every call waits for its token's budget, and every answer's RateLimit-*
 * headers (and a 429's Retry-After) feed it. The client code above it is the same as for commands.
 */
export function createMeteredTransport(inner: Transport, budget: TokenBudget): Transport {
  // A digest per call would cost more than the call's own work on an idle poll; the tokens are in memory anyway.
  const keys = createTtlCache<string>({ ttlMs: 10 * 60_000, maxEntries: 20_000 });
  const keyOf = (token: string) => {
    const now = Date.now();
    let key = keys.get(token, now);
    if (key === undefined) {
      key = budgetKey(token);
      keys.set(token, key, now);
    }
    return key;
  };
  return {
    async request(options) {
      const key = keyOf(options.token);
      await budget.acquire(key);
      try {
        const response = await inner.request(options);
        await budget.observe(key, response.rateLimit);
        return response;
      } catch (err) {
        if (err instanceof RateLimitedError) await budget.backoff(key, (err.retryAfterSeconds ?? 60) * 1000);
        throw err;
      }
    },
    get lastRateLimit() {
      return inner.lastRateLimit;
    },
    close() {
      inner.close();
    },
  };
}
