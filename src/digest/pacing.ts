import type { RateLimit } from '../gitlab/rate-limit.js';
import type { BudgetState, PacingStore } from '../store/pacing-store.js';

// Pacing digests at scale: 10,000 digests due at 09:00 must not stampede the server or Slack. Three pieces:
// a limit on runs under way at once, a budget per token fed by the server's RateLimit-* and Retry-After
// answers, and a queue per Slack channel that keeps to Slack's one message per second per channel. The budget
// and the queue come in two kinds: in one process's memory, and shared by replicas through the database.

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

type TokenState = BudgetState;

export interface TokenBudgetOptions {
  clock?: PacingClock;
  /** Share of the server's limit left to the person's own commands (default 0.1). */
  reserveShare?: number;
  /** Longest a digest waits for a window to reset (default 5 minutes). */
  maxWaitMs?: number;
}

/** What a digest's calls need of a budget: wait for room and count a call, learn from answers. */
export interface TokenBudget {
  /** Waits until the token may make one more call, and counts it. */
  acquire(key: string): Promise<void>;
  /** What a response's RateLimit-* headers said. */
  observe(key: string, rateLimit: RateLimit | null): void | Promise<void>;
  /** A 429: nothing more for this token before `ms` from now. */
  backoff(key: string, ms: number): void | Promise<void>;
}

const emptyState = (): TokenState => ({ remaining: null, limit: null, resetAt: null, blockedUntil: 0 });

const reserveOf = (s: TokenState, share: number) => (s.limit === null ? 1 : Math.max(1, Math.ceil(s.limit * share)));

/**
 * How long a call must wait now (0: go), and the state after asking: a window the server told of that is over
 * no longer counts, and a call that may go is counted.
 */
function takeCall(s: TokenState, now: number, reserveShare: number): { wait: number; state: TokenState } {
  if (s.blockedUntil > now) return { wait: s.blockedUntil - now, state: s };
  if (s.remaining !== null && s.remaining <= reserveOf(s, reserveShare) && s.resetAt !== null && s.resetAt > now) {
    return { wait: s.resetAt - now, state: s };
  }
  const next = s.resetAt !== null && s.resetAt <= now ? { ...s, remaining: null, resetAt: null } : { ...s };
  if (next.remaining !== null) next.remaining -= 1;
  return { wait: 0, state: next };
}

function observed(s: TokenState, rateLimit: RateLimit): TokenState {
  return {
    ...s,
    ...(rateLimit.limit !== null ? { limit: rateLimit.limit } : {}),
    ...(rateLimit.remaining !== null ? { remaining: rateLimit.remaining } : {}),
    ...(rateLimit.reset !== null ? { resetAt: rateLimit.reset * 1000 } : {}),
  };
}

/** Waits on `take` until it says go; a wait longer than a digest may wait gives up. */
async function waitForRoom(clock: PacingClock, maxWaitMs: number, take: () => Promise<number> | number) {
  for (;;) {
    const wait = await take();
    if (wait <= 0) return;
    if (wait > maxWaitMs) throw new BudgetExhaustedError(wait);
    await clock.sleep(wait);
  }
}

/**
 * A budget per token (keyed by something that is not the token): calls wait while the server says the window is
 * nearly used up, until it resets, and after a 429 until its Retry-After. Each call is counted before it is sent,
 * so digests running side by side do not all spend the last request. This one lives in one process's memory.
 */
export function createTokenBudget(o: TokenBudgetOptions = {}) {
  const clock = o.clock ?? realClock;
  const reserveShare = o.reserveShare ?? 0.1;
  const maxWaitMs = o.maxWaitMs ?? 5 * 60_000;
  const states = new Map<string, TokenState>();

  const stateOf = (key: string): TokenState => {
    let s = states.get(key);
    if (!s) {
      s = emptyState();
      states.set(key, s);
      if (states.size > 50_000) states.delete(states.keys().next().value as string);
    }
    return s;
  };

  return {
    async acquire(key: string): Promise<void> {
      await waitForRoom(clock, maxWaitMs, () => {
        const { wait, state } = takeCall(stateOf(key), clock.now(), reserveShare);
        if (wait <= 0) states.set(key, state);
        return wait;
      });
    },
    observe(key: string, rateLimit: RateLimit | null): void {
      if (rateLimit) states.set(key, observed(stateOf(key), rateLimit));
    },
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

/**
 * The same budget kept in the database, so that every replica spends one token's budget together: a token the
 * server told nothing of costs one read per call; one it did is counted in a transaction per call.
 */
export function createSharedTokenBudget(o: TokenBudgetOptions & { store: PacingStore }): TokenBudget {
  const clock = o.clock ?? realClock;
  const reserveShare = o.reserveShare ?? 0.1;
  const maxWaitMs = o.maxWaitMs ?? 5 * 60_000;
  const { store } = o;
  return {
    async acquire(key) {
      await waitForRoom(clock, maxWaitMs, async () => {
        // Nothing known of the token: nothing to count (as in memory), and no lock taken.
        if ((await store.budget(key)) === null) return 0;
        const now = clock.now();
        return store.updateBudget(key, now, (s) => {
          const { wait, state } = takeCall(s ?? emptyState(), now, reserveShare);
          return { state: wait <= 0 ? state : null, result: wait };
        });
      });
    },
    async observe(key, rateLimit) {
      if (!rateLimit || (rateLimit.limit === null && rateLimit.remaining === null && rateLimit.reset === null)) return;
      await store.updateBudget(key, clock.now(), (s) => ({ state: observed(s ?? emptyState(), rateLimit), result: 0 }));
    },
    async backoff(key, ms) {
      const now = clock.now();
      await store.updateBudget(key, now, (s) => {
        const state = s ?? emptyState();
        return { state: { ...state, blockedUntil: Math.max(state.blockedUntil, now + ms) }, result: 0 };
      });
    },
  };
}

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

export interface ChannelQueue {
  run<T>(channel: string, task: () => Promise<T>): Promise<T>;
}

/**
 * The lanes of channels kept in the database, so that replicas posting into one channel keep to its pace
 * together: each post takes the channel's next free moment (one statement), waits for it, and after the post
 * pushes the lane past its end. Posts of this process into one channel also go one after another, in order.
 */
export function createSharedChannelQueue(o: { store: PacingStore; intervalMs?: number; clock?: PacingClock }) {
  const intervalMs = o.intervalMs ?? 1000;
  const clock = o.clock ?? realClock;
  const local = createChannelQueue({ intervalMs: 0, clock });
  return {
    run<T>(channel: string, task: () => Promise<T>): Promise<T> {
      return local.run(channel, async () => {
        const at = await o.store.reservePost(channel, clock.now(), intervalMs);
        const wait = at - clock.now();
        if (wait > 0) await clock.sleep(wait);
        try {
          return await task();
        } finally {
          await o.store.posted(channel, clock.now(), intervalMs).catch(() => undefined);
        }
      });
    },
  } satisfies ChannelQueue;
}
