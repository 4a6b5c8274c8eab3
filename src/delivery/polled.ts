import crypto from 'node:crypto';
import type { Transport } from '../gitlab/http.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import { createCronFireStore } from '../store/cron-fire-store.js';
import { createLeaseStore, createPollBackOffStore, type PolledTable } from '../store/delivery-lease-store.js';
import type { SqlEngine } from '../store/engine.js';
import { createPacingStore } from '../store/pacing-store.js';
import { type DeliveryHooks, tell } from './hooks.js';
import { createMeteredTransport } from './metered-transport.js';
import {
  createLimiter,
  createSharedChannelQueue,
  createSharedTokenBudget,
  type PacingClock,
  realClock,
} from './pacing.js';
import type { DeliverySlack } from './slack.js';
import { asError, createRunSteps, type RunSteps } from './steps.js';
import { createTokenRechecks, type TokenPausedOwner } from './token-rechecks.js';

// The polled loop of the delivery kernel, beside the cron loop of scheduled.ts: for kinds whose items are each due
// every little while (a person's todo alerts, a pipeline watch, a followed card) rather than on a schedule of their
// own. Every replica looks for due items every few seconds; which replica polls an item is decided in the database
// (its lease, taken for a batch of due items with one conditional update; a look that finds nothing due only reads).
// Polls go a few at a time; what idle polls write is written a batch at a time, releasing their leases in the same
// statement; the leases of a replica are renewed while it polls. When polls fall behind (a slow server), the pass
// goes on in the same order, so that every item is polled in turn, less often, and one line a minute (one replica
// for all, through cron_fires) says how far behind.
//
// When the server is in trouble (5xx, 429, the token's API budget spent), a kind says its poll was `busy` and the
// loop backs the item off: each busy poll in a row doubles the wait before its next (its usual interval, then 2×,
// 4×… up to BUSY_CAP_MS, never sooner than the server's Retry-After, never past the item's latest poll), and the
// first poll the server answers brings it back to its usual pace. The count is kept in the item's row
// (store/delivery-lease-store.ts), so that every replica, and one started again, waits as long: an outage meets
// everyone's items less and less often instead of at full rate.

/** How one poll ended, as the loop needs it. */
export interface Polled<Done, Outcome extends { kind: string } = { kind: string }> {
  /** Its outcome, as the kind tells it (its `kind` goes to the hooks and the log line). */
  outcome: Outcome;
  /** What the poll leaves to be written with others' in one statement, which also lets its lease go. */
  record?: Done;
  /** The poll wrote what it had to and let its lease go (or lost it) itself. */
  released?: boolean;
  /** Said in a log line when present (what a person or an operator may look for; idle polls say nothing). */
  log?: Record<string, unknown>;
  /**
   * The server was too busy to answer its read (5xx, 429, the token's budget spent): the loop polls the item later,
   * after its own write (`record`, or what the poll wrote itself).
   */
  busy?: Busy;
}

/** A read the server was too busy to answer, as a kind tells the loop. */
export interface Busy {
  /** The server's Retry-After (or when the token's budget frees up), in ms: the next poll waits at least that. */
  retryAfterMs: number | null;
}

export interface PolledKind<Claim, Batch, Done, Outcome extends { kind: string } = { kind: string }> {
  /** The line's words when polls fall behind. */
  readonly behindLine: string;
  /** Takes up to `limit` items due by `dueBy` that nobody holds at `now`, oldest first, leased to `owner` until `until`. */
  claimDue(o: { owner: string; now: Date; dueBy: Date; until: Date; limit: number }): Promise<Claim[]>;
  /** The item's key in its table. */
  keyOf(c: Claim): string | number;
  /** When it was due (how late its poll is). */
  dueAt(c: Claim): Date;
  /** Which claim of the item this is, and how many polls in a row before it found the server busy. */
  claimOf(c: Claim): { gen: number; busyPolls: number };
  /** The item's usual time between polls: the wait after a busy poll is this, doubled per busy poll before it. */
  readonly intervalMs: number;
  /** The latest an item is polled next however busy the server is (a follow's deadline); none by default. */
  latestPollAt?(c: Claim): Date;
  /** What the polls of one claimed batch share (their owners' token rows, read at once). */
  prepare?(claimed: readonly Claim[]): Promise<Batch>;
  /** Polls one claimed item under its lease (`held` is the lease's owner, with the claim's generation in `c`). */
  poll(c: Claim, batch: Batch | undefined, owner: string): Promise<Polled<Done, Outcome>>;
  /** Writes what polls left (`record`s) and lets their leases go, in one statement for many. */
  recordMany?(owner: string, done: readonly Done[]): Promise<void>;
  /** How many wait past their time now (told in the line). */
  backlog?(now: Date): Promise<Record<string, number>>;
  /** Housekeeping done at most once an hour by each replica (e.g. forgetting finished items). */
  tidy?(now: Date): Promise<unknown>;
}

/** What the kernel gives a kind to build its polls from. */
export interface PolledKit {
  /** The app's access to the server through the shared token budget (one judgement of 401s for the bot). */
  access: GitlabAccess;
  /** The steps of a run: fenced posts, the one search, notices, what a failed read means. */
  steps: RunSteps;
  /** This replica, as it holds leases. */
  replica: string;
  /** How long a lease holds without being renewed. */
  leaseMs: number;
}

/** A polled kind's one registration: its name, its rows, and the kind made from what the kernel gives it. */
export interface PolledDeliveryOptions<Claim, Batch, Done, Outcome extends { kind: string }> {
  /** Its name in logs, hooks and the once-a-minute line (`alert`, `watch`, `follow`). */
  name: string;
  /** The leased table whose rows are its items (store/delivery-lease-store.ts). */
  table: PolledTable;
  kind: (kit: PolledKit) => PolledKind<Claim, Batch, Done, Outcome>;
  /** The store port the leases, the pacing and the line's once-for-all-replicas key are written against. */
  engine: SqlEngine;
  /** The app's access to the server: one judgement of 401s for the whole bot. */
  access: GitlabAccess;
  /** The transport commands use; polls read through a paced wrapper of it. */
  transport: Transport;
  slack: DeliverySlack;
  /** Slack's pace per channel (default 1000 ms between posts). */
  channelIntervalMs?: number;
  /** How long a read may wait for its token's budget (default the budget's own). */
  budgetWaitMs?: number;
  pacingClock?: PacingClock;
  logger: Logger;
  now: () => Date;
  hooks?: DeliveryHooks;
  /** `manual` in tests and the demo: nothing polls by itself, `pass()` does. Default `interval`. */
  timer?: 'interval' | 'manual';
  /** How often a replica looks for due items (default 2 s). */
  tickMs?: number;
  /** How long a replica's lease on an item holds without being renewed (default 60 s). */
  leaseMs?: number;
  /** Polls under way at once (default 16). */
  concurrency?: number;
  /** Items claimed in one statement (default 200). */
  batch?: number;
  /** A poll later than this after its time counts as behind (default 15 s). */
  behindMs?: number;
  /** The longest wait between two busy polls of an item, the server's Retry-After aside (default 30 min). */
  busyCapMs?: number;
  /**
   * What a refused token paused of the kind: the owners' tokens are re-checked by the loop (at most every 30 s,
   * each with back-off from `recheckMs`), and `resume` runs once the server accepts one again.
   */
  tokenPaused?: {
    owners(): Promise<TokenPausedOwner[]>;
    resume(owner: TokenPausedOwner): Promise<unknown>;
  };
  /** The first wait before a paused owner's token is asked about again; it doubles up to an hour (default 60 s). */
  recheckMs?: number;
}

/**
 * What the app wires into every polled kind's service (the store port, the access, the transport, Slack, the
 * clocks, the hooks, the timer and the lease): a service's options are these plus what its kind adds, and it hands
 * them on to its loop with `wiringOf`, not field by field.
 */
export type PolledWiring = Pick<
  PolledDeliveryOptions<unknown, unknown, unknown, { kind: string }>,
  | 'engine'
  | 'access'
  | 'transport'
  | 'slack'
  | 'channelIntervalMs'
  | 'pacingClock'
  | 'now'
  | 'hooks'
  | 'timer'
  | 'leaseMs'
  | 'recheckMs'
>;

/** The loop's share of a service's options, as given (the loop has the defaults). */
export function wiringOf(o: PolledWiring): PolledWiring {
  return {
    engine: o.engine,
    access: o.access,
    transport: o.transport,
    slack: o.slack,
    now: o.now,
    ...(o.channelIntervalMs !== undefined ? { channelIntervalMs: o.channelIntervalMs } : {}),
    ...(o.pacingClock ? { pacingClock: o.pacingClock } : {}),
    ...(o.hooks ? { hooks: o.hooks } : {}),
    ...(o.timer ? { timer: o.timer } : {}),
    ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}),
    ...(o.recheckMs !== undefined ? { recheckMs: o.recheckMs } : {}),
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Paused owners' tokens are looked at this often at most (each then waits its own back-off). */
const RECHECK_EVERY_MS = 30_000;
/** Records of finished polls written at once, at most. */
const WRITE_EVERY = 256;
/** The longest wait between two busy polls of an item by default (the server's Retry-After aside). */
const BUSY_CAP_MS = 30 * MINUTE;

/**
 * How long after a busy poll its item waits at least: nothing more than its usual interval for the first busy poll
 * in a row (`busyPolls` before it: 0), then its interval doubled per busy poll before it, up to `capMs`; and never
 * less than the server asked for.
 */
export function busyWaitMs(o: {
  busyPolls: number;
  intervalMs: number;
  capMs: number;
  retryAfterMs: number | null;
}): number {
  const doubled = o.busyPolls === 0 ? 0 : Math.min(o.capMs, o.intervalMs * 2 ** Math.min(o.busyPolls, 30));
  return Math.max(doubled, o.retryAfterMs ?? 0);
}

/** What is written after a poll's own write: a busy poll's back-off, or an answered poll's count started again. */
type AfterPoll = { key: string | number; gen: number; busy: { count: number; notBefore: Date } | null };

export function createPolledDelivery<Claim, Batch, Done, Outcome extends { kind: string }>(
  o: PolledDeliveryOptions<Claim, Batch, Done, Outcome>,
) {
  const log = o.logger;
  const replica = crypto.randomUUID();
  const leaseMs = o.leaseMs ?? 60_000;
  const clock = o.pacingClock ?? realClock;
  const pacing = createPacingStore(o.engine);
  const budget = createSharedTokenBudget({
    store: pacing,
    clock,
    ...(o.budgetWaitMs !== undefined ? { maxWaitMs: o.budgetWaitMs } : {}),
  });
  const leases = createLeaseStore(o.engine, o.table);
  const backOffs = createPollBackOffStore(o.engine, o.table);
  const steps = createRunSteps({
    slack: o.slack,
    channels: createSharedChannelQueue({ store: pacing, intervalMs: o.channelIntervalMs ?? 1000, clock }),
    leases,
    leaseMs,
    name: o.name,
    logger: log,
    now: o.now,
  });
  const access = o.access.through(createMeteredTransport(o.transport, budget));
  const kind = o.kind({ access, steps, replica, leaseMs });
  const name = o.name;
  const batchSize = o.batch ?? 200;
  const behindMs = o.behindMs ?? 15_000;
  const limiter = createLimiter(o.concurrency ?? 16);
  const fires = createCronFireStore(o.engine);

  let unwritten: Done[] = [];
  let afterPolls: AfterPoll[] = [];
  /** Writes what polls left, then their back-offs (each after its poll's own write, which it amends). */
  async function flush(): Promise<void> {
    const batch = unwritten;
    const after = afterPolls;
    unwritten = [];
    afterPolls = [];
    if (batch.length > 0 && kind.recordMany) await kind.recordMany(replica, batch);
    for (const a of after) {
      const written = a.busy
        ? backOffs.backOff(a.key, { gen: a.gen, owner: replica, ...a.busy })
        : backOffs.calm(a.key, { gen: a.gen, owner: replica });
      await written.catch((err: unknown) =>
        log.warn(`could not write the back-off of a ${name} poll`, { key: String(a.key), error: String(err) }),
      );
    }
  }

  const busyCapMs = o.busyCapMs ?? BUSY_CAP_MS;
  /** After a poll: a busy one backs its item off; the first one answered after busy ones starts the count again. */
  function noteBusy(c: Claim, busy: Busy | undefined): void {
    const { gen, busyPolls } = kind.claimOf(c);
    if (!busy) {
      if (busyPolls > 0) afterPolls.push({ key: kind.keyOf(c), gen, busy: null });
      return;
    }
    const now = o.now().getTime();
    const waitMs = busyWaitMs({ busyPolls, intervalMs: kind.intervalMs, capMs: busyCapMs, ...busy });
    const latest = kind.latestPollAt?.(c).getTime() ?? Number.POSITIVE_INFINITY;
    const notBefore = new Date(Math.max(now, Math.min(now + waitMs, latest)));
    afterPolls.push({ key: kind.keyOf(c), gen, busy: { count: busyPolls + 1, notBefore } });
    log.debug(`${name} poll found the server busy; its next poll waits`, {
      key: String(kind.keyOf(c)),
      busyPolls: busyPolls + 1,
      waitSeconds: Math.round((notBefore.getTime() - now) / 1000),
    });
  }

  // How far behind polling is, said at most once a minute of the clock (by one replica for all, through cron_fires):
  // the polls this replica made since it last said so (or since another replica did), how many were late, and how
  // many wait past their time now.
  let window = { polls: 0, behind: 0, worstMs: 0 };
  function noteLateness(lateMs: number): void {
    window.polls += 1;
    if (lateMs > behindMs) {
      window.behind += 1;
      window.worstMs = Math.max(window.worstMs, lateMs);
    }
  }
  async function reportLateness(): Promise<void> {
    if (window.behind === 0) return;
    const now = o.now();
    const seen = window;
    window = { polls: 0, behind: 0, worstMs: 0 };
    const minute = new Date(Math.floor(now.getTime() / MINUTE) * MINUTE).toISOString();
    // Said already in this minute (here or by another replica): these late polls count as said.
    if (!(await fires.take(`${name} behind ${minute}`, replica, now))) return;
    const waiting = await kind.backlog?.(now).catch(() => null);
    log.warn(kind.behindLine, {
      polls: seen.polls,
      behind: seen.behind,
      worstSeconds: Math.round(seen.worstMs / 1000),
      ...waiting,
    });
  }
  const reportSafely = () =>
    reportLateness().catch((err: unknown) => log.warn(`could not count late ${name} polls`, { error: String(err) }));

  let stopping = false;
  let lastTidy = 0;
  const rechecks =
    o.tokenPaused &&
    createTokenRechecks({
      access: o.access,
      pausedOwners: o.tokenPaused.owners,
      resume: o.tokenPaused.resume,
      now: () => o.now().getTime(),
      firstWaitMs: o.recheckMs ?? MINUTE,
      logger: log,
    });
  let lastRecheck = Number.NEGATIVE_INFINITY;
  /** Re-checks the tokens of owners a refused token paused, before the pass claims (what resumes is polled in it). */
  async function recheckPaused(): Promise<void> {
    const at = o.now().getTime();
    // A clock set back looks again at once.
    if (!rechecks || (at >= lastRecheck && at - lastRecheck < RECHECK_EVERY_MS)) return;
    lastRecheck = at;
    await rechecks
      .run()
      .catch((err: unknown) => log.warn(`could not re-check paused ${name}s`, { error: String(err) }));
  }

  /** One claimed item's poll, its outcome told and its record kept (or its lease let go). */
  async function pollOne(c: Claim, batch: Batch | undefined): Promise<Polled<Done, Outcome> | null> {
    noteLateness(o.now().getTime() - kind.dueAt(c).getTime());
    let polled: Polled<Done, Outcome>;
    try {
      polled = await kind.poll(c, batch, replica);
    } catch (err) {
      // The item is polled again at its next look (a kind that must not be polled again at once records a failure).
      log.error(`unexpected error in a ${name} poll`, { key: String(kind.keyOf(c)), error: asError(err) });
      await leases.release(kind.keyOf(c), replica).catch(() => undefined);
      tell(o.hooks?.delivered, { kind: name, outcome: 'failed', lagMs: null });
      return null;
    }
    if (polled.record !== undefined) unwritten.push(polled.record);
    else if (!polled.released) await leases.release(kind.keyOf(c), replica).catch(() => undefined);
    noteBusy(c, polled.busy);
    if (unwritten.length >= WRITE_EVERY) await flush();
    if (polled.log) log.info(`${name} poll`, { outcome: polled.outcome.kind, ...polled.log });
    tell(o.hooks?.delivered, { kind: name, outcome: polled.outcome.kind, lagMs: null });
    return polled;
  }

  /**
   * Polls what is due, batch after batch, until a batch takes all that is (with `all`, every item nobody holds,
   * once). A pass that runs on past the minute says so as each minute turns, between its batches.
   */
  async function pass(opts: { all?: boolean } = {}): Promise<{ claim: Claim; outcome: Outcome }[]> {
    const out: { claim: Claim; outcome: Outcome }[] = [];
    await recheckPaused();
    while (!stopping) {
      await reportSafely();
      const now = o.now();
      const claimed = await kind.claimDue({
        owner: replica,
        now,
        dueBy: opts.all ? new Date(now.getTime() + 366 * 24 * HOUR) : now,
        until: new Date(now.getTime() + leaseMs),
        limit: opts.all ? 100_000 : batchSize,
      });
      if (claimed.length === 0) break;
      tell(o.hooks?.leasesHeld, { kind: name, held: claimed.length });
      const batch = await kind.prepare?.(claimed);
      await Promise.all(
        claimed.map((c) =>
          limiter.run(async () => {
            tell(o.hooks?.queueDepth, { kind: name, depth: limiter.waiting });
            const polled = await pollOne(c, batch);
            if (polled) out.push({ claim: c, outcome: polled.outcome });
          }),
        ),
      );
      tell(o.hooks?.queueDepth, { kind: name, depth: limiter.waiting });
      await flush();
      // Every lease of the batch is let go by now: by the records' write, by its poll, or by the loop.
      tell(o.hooks?.leasesHeld, { kind: name, held: 0 });
      // With `all`, each item is polled once: what was just polled is due again only after its interval. A batch
      // short of the limit took everything due: what falls due meanwhile is the next look's (so a poll that lost
      // its lease does not take its item again in the same pass).
      if (opts.all || claimed.length < batchSize) break;
    }
    await reportSafely();
    const at = o.now().getTime();
    if (kind.tidy && at - lastTidy > HOUR) {
      lastTidy = at;
      await kind
        .tidy(new Date(at))
        .catch((err: unknown) => log.warn(`could not tidy ${name}s`, { error: String(err) }));
    }
    return out;
  }

  // Passes never overlap on a replica: one asked for while another goes on runs after it.
  let passing: Promise<unknown> | null = null;
  function queuedPass(opts: { all?: boolean } = {}) {
    const run = (passing ?? Promise.resolve()).then(() => pass(opts));
    // The queue only orders the passes; each caller hears how its own went (a busy database included).
    const settled: Promise<void> = run
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (passing === settled) passing = null;
      });
    passing = settled;
    return run;
  }

  let tickTimer: NodeJS.Timeout | null = null;
  let renewTimer: NodeJS.Timeout | null = null;

  return {
    /** This replica, as it holds leases. */
    replica,
    /** The steps the kind's polls are made of (its service tells its people through them too). */
    steps,
    pass: queuedPass,
    /** Whether a pass is going on on this replica. */
    get busy(): boolean {
      return passing !== null;
    },
    start(): void {
      if ((o.timer ?? 'interval') !== 'interval' || stopping) return;
      tickTimer = setInterval(() => {
        // A pass still going on carries on in the same order: what falls due meanwhile joins its queue.
        if (stopping || passing) return;
        queuedPass().catch((err: unknown) =>
          log.warn(`a ${name} poll pass failed; the next look tries again`, { error: String(err) }),
        );
      }, o.tickMs ?? 2000);
      tickTimer.unref();
      // A replica's leases hold as long as it lives: renewed while it polls or delivers.
      renewTimer = setInterval(
        () => {
          if (!passing) return;
          void leases
            .renew(replica, new Date(o.now().getTime() + leaseMs))
            .catch((err: unknown) => log.warn(`could not renew ${name} leases`, { error: String(err) }));
        },
        Math.max(100, Math.floor(leaseMs / 3)),
      );
      renewTimer.unref();
    },
    async stop(): Promise<void> {
      if (stopping) return;
      stopping = true;
      if (tickTimer) clearInterval(tickTimer);
      if (renewTimer) clearInterval(renewTimer);
      await passing;
      await flush().catch(() => undefined);
      await leases.releaseAll(replica).catch(() => undefined);
    },
  };
}

export type PolledDelivery<Claim, Batch, Done, Outcome extends { kind: string }> = ReturnType<
  typeof createPolledDelivery<Claim, Batch, Done, Outcome>
>;
