import type { RateLimit } from '../gitlab/rate-limit.js';
import type { BudgetState, PacingStore } from '../store/pacing-store.js';
import { createTtlCache } from '../ttl-cache.js';

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
    /** Tasks waiting for their turn. */
    get waiting() {
      return waiting.length;
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

/** Most calls a replica takes from a token's shared budget in one transaction, to spend in its own memory. */
const SLICE_MAX = 8;
/** Longest a replica spends a slice without looking at the store (and so at another replica's 429). */
const SLICE_MS = 10_000;
/** How long a replica remembers what the store held of a token, or that it held nothing. */
const SEEN_MS = 60_000;
const SEEN_MAX = 20_000;

/**
 * The same budget kept in the database, so that every replica spends one token's budget together. A replica takes
 * a slice of the calls left (a few, never the reserve) in one transaction and spends it in memory, so a busy token
 * costs one transaction per slice rather than per call; answers are written back only when they tell the store
 * something it does not know (a new window, fewer calls left than it believes). A token the server tells nothing
 * of costs one read per minute, and one the store holds no count for, one read per call.
 */
export function createSharedTokenBudget(o: TokenBudgetOptions & { store: PacingStore }): TokenBudget {
  const clock = o.clock ?? realClock;
  const reserveShare = o.reserveShare ?? 0.1;
  const maxWaitMs = o.maxWaitMs ?? 5 * 60_000;
  const { store } = o;
  const slices = createTtlCache<{ left: number; until: number }>({ ttlMs: SLICE_MS, maxEntries: SEEN_MAX });
  // What the store held when this replica last read or wrote it; null: no row.
  const seen = createTtlCache<BudgetState | null>({ ttlMs: SEEN_MS, maxEntries: SEEN_MAX });
  const unspent = (key: string, now: number) => {
    const slice = slices.get(key, now);
    return slice && now < slice.until ? slice.left : 0;
  };

  const take = async (key: string): Promise<number> => {
    const now = clock.now();
    const known = await store.budget(key);
    seen.set(key, known, now);
    // Nothing known of the token, or its window is over: nothing to count (as in memory), and no lock taken.
    if (known === null) return 0;
    const quick = takeCall(known, now, reserveShare);
    if (quick.wait > 0) return quick.wait;
    if (quick.state.remaining === null) return 0;
    const taken = await store.updateBudget(key, now, (s) => {
      const before = s ?? emptyState();
      const { wait, state } = takeCall(before, now, reserveShare);
      if (wait > 0 || state.remaining === null)
        return { state: wait > 0 ? null : state, result: { wait, state, extra: 0 } };
      const spare = state.remaining - reserveOf(before, reserveShare);
      const extra = Math.max(0, Math.min(SLICE_MAX - 1, Math.floor(spare / 4)));
      const next = { ...state, remaining: state.remaining - extra };
      return { state: next, result: { wait, state: next, extra } };
    });
    if (taken.wait <= 0) {
      seen.set(key, taken.state, now);
      slices.set(key, { left: taken.extra, until: Math.min(taken.state.resetAt ?? Infinity, now + SLICE_MS) }, now);
    }
    return taken.wait;
  };

  return {
    async acquire(key) {
      const now = clock.now();
      const slice = slices.get(key, now);
      if (slice && slice.left > 0 && now < slice.until) {
        slice.left -= 1;
        return;
      }
      // The server sends no limits for this token (no row): no read per call for it.
      if (seen.get(key, now) === null && !slices.get(key, now)) return;
      await waitForRoom(clock, maxWaitMs, () => take(key));
    },
    async observe(key, rateLimit) {
      if (!rateLimit || (rateLimit.limit === null && rateLimit.remaining === null && rateLimit.reset === null)) return;
      const now = clock.now();
      const resetAt = rateLimit.reset !== null ? rateLimit.reset * 1000 : null;
      const known = seen.get(key, now);
      if (
        known &&
        (resetAt === null || resetAt === known.resetAt) &&
        (rateLimit.limit === null || rateLimit.limit === known.limit) &&
        (rateLimit.remaining === null || (known.remaining !== null && rateLimit.remaining >= known.remaining))
      ) {
        return; // nothing the store does not know already
      }
      const held = unspent(key, now);
      const written = await store.updateBudget(key, now, (s) => {
        const before = s ?? emptyState();
        const sameWindow = resetAt === null || resetAt === before.resetAt;
        let remaining = before.remaining;
        if (rateLimit.remaining !== null) {
          // In the same window, calls this replica holds are already counted in the store, but not by the server.
          remaining =
            sameWindow && before.remaining !== null
              ? Math.min(before.remaining, Math.max(0, rateLimit.remaining - held))
              : rateLimit.remaining;
        }
        const next: BudgetState = {
          ...before,
          limit: rateLimit.limit ?? before.limit,
          remaining,
          resetAt: resetAt ?? before.resetAt,
        };
        const same =
          s !== null && next.limit === s.limit && next.remaining === s.remaining && next.resetAt === s.resetAt;
        return { state: same ? null : next, result: { next, sameWindow } };
      });
      seen.set(key, written.next, now);
      if (!written.sameWindow) slices.set(key, { left: 0, until: 0 }, now);
    },
    async backoff(key, ms) {
      const now = clock.now();
      slices.set(key, { left: 0, until: 0 }, now);
      const written = await store.updateBudget(key, now, (s) => {
        const state = s ?? emptyState();
        const next = { ...state, blockedUntil: Math.max(state.blockedUntil, now + ms) };
        return { state: next, result: next };
      });
      seen.set(key, written, now);
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
