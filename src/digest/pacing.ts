import type { RateLimit } from '../gitlab/rate-limit.js';

// Pacing digests at scale: 10,000 digests due at 09:00 must not stampede the server or Slack. Three pieces:
// a limit on runs under way at once, a budget per token fed by the server's RateLimit-* and Retry-After
// answers, and a queue per Slack channel that keeps to Slack's one message per second per channel.

export interface PacingClock {
  /** Epoch milliseconds. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: PacingClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** At most `n` tasks at once; the others wait their turn in order. */
export function createLimiter(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
      running += 1;
      try {
        return await task();
      } finally {
        running -= 1;
        waiting.shift()?.();
      }
    },
    get active() {
      return running;
    },
  };
}

export type Limiter = ReturnType<typeof createLimiter>;

/** A token's budget ran out for longer than a digest may wait: the run is retried at its next time. */
export class BudgetExhaustedError extends Error {
  constructor(readonly waitMs: number) {
    super(`the server's rate limit for this token resets in ${Math.ceil(waitMs / 1000)} s`);
    this.name = 'BudgetExhaustedError';
  }
}

interface TokenState {
  remaining: number | null;
  limit: number | null;
  /** Epoch ms at which the server's window resets. */
  resetAt: number | null;
  /** Epoch ms before which nothing is sent (a 429's Retry-After). */
  blockedUntil: number;
}

export interface TokenBudgetOptions {
  clock?: PacingClock;
  /** Share of the server's limit left to the person's own commands (default 0.1). */
  reserveShare?: number;
  /** Longest a digest waits for a window to reset (default 5 minutes). */
  maxWaitMs?: number;
}

/**
 * A budget per token (keyed by something that is not the token): calls wait while the server says the window is
 * nearly used up, until it resets, and after a 429 until its Retry-After. Each call is counted before it is sent,
 * so digests running side by side do not all spend the last request.
 */
export function createTokenBudget(o: TokenBudgetOptions = {}) {
  const clock = o.clock ?? realClock;
  const reserveShare = o.reserveShare ?? 0.1;
  const maxWaitMs = o.maxWaitMs ?? 5 * 60_000;
  const states = new Map<string, TokenState>();

  const stateOf = (key: string): TokenState => {
    let s = states.get(key);
    if (!s) {
      s = { remaining: null, limit: null, resetAt: null, blockedUntil: 0 };
      states.set(key, s);
      if (states.size > 50_000) states.delete(states.keys().next().value as string);
    }
    return s;
  };

  const reserve = (s: TokenState) => (s.limit === null ? 1 : Math.max(1, Math.ceil(s.limit * reserveShare)));

  /** How long a call must wait now (0: go). */
  const waitFor = (s: TokenState, now: number): number => {
    if (s.blockedUntil > now) return s.blockedUntil - now;
    if (s.remaining !== null && s.remaining <= reserve(s) && s.resetAt !== null && s.resetAt > now) {
      return s.resetAt - now;
    }
    if (s.resetAt !== null && s.resetAt <= now) {
      // The window the server told of is over: its count no longer holds.
      s.remaining = null;
      s.resetAt = null;
    }
    return 0;
  };

  return {
    /** Waits until the token may make one more call, and counts it. */
    async acquire(key: string): Promise<void> {
      const s = stateOf(key);
      for (;;) {
        const wait = waitFor(s, clock.now());
        if (wait <= 0) break;
        if (wait > maxWaitMs) throw new BudgetExhaustedError(wait);
        await clock.sleep(wait);
      }
      if (s.remaining !== null) s.remaining -= 1;
    },
    /** What a response's RateLimit-* headers said. */
    observe(key: string, rateLimit: RateLimit | null): void {
      if (!rateLimit) return;
      const s = stateOf(key);
      if (rateLimit.limit !== null) s.limit = rateLimit.limit;
      if (rateLimit.remaining !== null) s.remaining = rateLimit.remaining;
      if (rateLimit.reset !== null) s.resetAt = rateLimit.reset * 1000;
    },
    /** A 429: nothing more for this token before `ms` from now. */
    backoff(key: string, ms: number): void {
      const s = stateOf(key);
      s.blockedUntil = Math.max(s.blockedUntil, clock.now() + ms);
    },
    /** For tests and the bench: what the budget knows of a token. */
    peek(key: string): Readonly<TokenState> | undefined {
      return states.get(key);
    },
  };
}

export type TokenBudget = ReturnType<typeof createTokenBudget>;

/**
 * Posts into one channel one after another, at least `intervalMs` apart (Slack allows about one message per
 * second per channel). Different channels do not wait for each other.
 */
export function createChannelQueue(o: { intervalMs?: number; clock?: PacingClock } = {}) {
  const intervalMs = o.intervalMs ?? 1000;
  const clock = o.clock ?? realClock;
  const lanes = new Map<string, { tail: Promise<unknown>; lastAt: number; pending: number }>();
  return {
    run<T>(channel: string, task: () => Promise<T>): Promise<T> {
      let lane = lanes.get(channel);
      if (!lane) {
        lane = { tail: Promise.resolve(), lastAt: Number.NEGATIVE_INFINITY, pending: 0 };
        lanes.set(channel, lane);
      }
      const l = lane;
      l.pending += 1;
      const result = l.tail.then(async () => {
        const wait = l.lastAt + intervalMs - clock.now();
        if (wait > 0) await clock.sleep(wait);
        try {
          return await task();
        } finally {
          l.lastAt = clock.now();
        }
      });
      l.tail = result.then(
        () => undefined,
        () => undefined,
      );
      void l.tail.then(() => {
        l.pending -= 1;
        // A lane nobody waits on is forgotten once its interval is over, so idle channels cost nothing.
        if (l.pending === 0 && lanes.get(channel) === l) {
          setTimeout(() => {
            if (l.pending === 0 && lanes.get(channel) === l) lanes.delete(channel);
          }, intervalMs).unref();
        }
      });
      return result;
    },
    get lanes() {
      return lanes.size;
    },
  };
}

export type ChannelQueue = ReturnType<typeof createChannelQueue>;
