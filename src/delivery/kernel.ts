import crypto from 'node:crypto';
import type { Logger } from '../log.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import type { LeaseStore } from '../store/delivery-lease-store.js';
import type { SlackMessage } from '../views/blocks.js';
import { nextRunAfter } from './cron.js';
import { type DeliveryHooks, tell } from './hooks.js';
import type {
  Found,
  OpenIntent,
  PauseReason,
  RunOutcome,
  RunPoint,
  RunReason,
  RunRecord,
  ScheduledItem,
  ScheduledKind,
} from './kind.js';
import type { ChannelQueue, Limiter, PacingClock } from './pacing.js';
import { CHANNEL_ERRORS, type DeliverySlack, SlackRefusedError } from './slack.js';
import { asError, createRunSteps, errorName, readFailureOf } from './steps.js';

// One run of one item of a kind, exactly once. The protocol, the same for every kind:
//   1. claim the item's lease (store/delivery-lease-store.ts): whoever holds it is the only one to read, post,
//      settle or commit for it until the lease is released or runs out;
//   2. settle an open intent of an earlier run: its post found by its mark (the one search) → commit it; not → drop it;
//   3. the kind reads with its owner's token what is new; nothing new → nothing is posted;
//   4. write an intent (run key, the state it will keep) → fence (renew the lease, the same claim, not run out) →
//      post with the run's mark as metadata → mark the intent posted → commit the state and delete the intent.
// A kill before the post leaves an intent whose post is nowhere: it is dropped and the run done again. A kill after
// the post leaves one whose post is in the history: it is committed, not posted again. A replica stalled past its
// lease between the fence and the post finds, going on, that the lease's time is over by its own clock and posts
// nothing (the holder that took the item over settles the intent and posts once).

export interface KernelDeps<Item extends ScheduledItem, State> {
  kind: ScheduledKind<Item, State>;
  leases: LeaseStore;
  slack: DeliverySlack;
  /** The owner's session for one run, as a command's: the token row read once, the token opened once. */
  sessionOf: (actor: Actor) => Session;
  /** This replica, as it holds leases. */
  replica: string;
  /** How long a lease holds before another replica may take the item over (renewed while the run goes on). */
  leaseMs: number;
  /** The clock a person's run waits on while another replica runs the same item. */
  clock: PacingClock;
  serverUrl: string;
  logger: Logger;
  now: () => Date;
  channels: ChannelQueue;
  limiter: Limiter;
  hooks: DeliveryHooks;
  /** Called when a run passes a named point (the test seam for kills and stops). */
  at?: (point: RunPoint) => void;
  /** Told what a run paused (so that timers of it stop). */
  onPaused?: (items: readonly Item[]) => void;
}

export function createKernel<Item extends ScheduledItem, State>(deps: KernelDeps<Item, State>) {
  const { kind, logger } = deps;
  const store = kind.store;
  const steps = createRunSteps({
    slack: deps.slack,
    channels: deps.channels,
    leases: deps.leases,
    leaseMs: deps.leaseMs,
    name: kind.name,
    logger,
    now: deps.now,
  });
  const inFlight = new Map<number, Promise<RunOutcome>>();
  /** Items whose run is going on right now (their lease is released by the run, not by a flush). */
  const running = new Set<number>();

  const nextOf = (i: Item, at: Date) => nextRunAfter(i.cron, i.tz, at);

  // Runs that found nothing new are written a few at a time: at 09:00 thousands of them end within a second, and
  // one transaction for many is far cheaper than one each. Losing the last few to a crash costs a catch-up read.
  // Their leases are released once the record is written, so that no replica runs them again meanwhile.
  const unwritten = new Map<number, RunRecord>();
  let flushTimer: NodeJS.Timeout | null = null;
  async function flush(): Promise<void> {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    if (unwritten.size === 0) return;
    const batch = [...unwritten];
    unwritten.clear();
    try {
      await store.recordMany(batch);
    } finally {
      await deps.leases.releaseMany(
        batch.map(([id]) => id).filter((id) => !running.has(id)),
        deps.replica,
      );
      tell(deps.hooks.leasesHeld, { kind: kind.name, held: running.size + unwritten.size });
    }
  }
  function recordLater(id: number, run: RunRecord): void {
    unwritten.set(id, run);
    if (unwritten.size >= 256) void flush();
    else flushTimer ??= setTimeout(() => void flush(), 25);
  }
  const record = (i: Item, result: string, items: number, nextRunAt?: Date | null): RunRecord => {
    const at = deps.now();
    return { at, result, items, nextRunAt: nextRunAt === undefined ? nextOf(i, at) : nextRunAt };
  };

  const ownerCtx = (i: Item): RequestContext => {
    const actor = kind.ownerOf(i);
    return { actor, channelId: i.channelId, now: deps.now(), session: deps.sessionOf(actor) };
  };

  /**
   * The owner's token was refused (or is gone): every item of theirs pauses, and they get one DM. A refusal may be
   * the server's trouble rather than a revocation, so the DM says the items wait for the server to accept the token
   * again, and the pause lifts itself when a re-check finds it accepted (scheduled.ts); only an owner with no token
   * at all is asked to connect.
   */
  async function pauseForToken(i: Item, confirmed: boolean): Promise<RunOutcome> {
    const paused = await store.pauseOwner(i.teamId, i.ownerId, 'token');
    if (paused.length > 0) {
      deps.onPaused?.(paused);
      await steps.dm(i.ownerId, kind.notices.tokenPaused(paused, { serverUrl: deps.serverUrl, confirmed }), 'token');
    }
    return { kind: 'paused', reason: 'token' };
  }

  async function pauseForRead(i: Item, status: 403 | 404): Promise<RunOutcome> {
    const reason: PauseReason = status === 404 ? 'not_found' : 'forbidden';
    const paused = await store.pause(i.id, reason, null);
    if (paused) {
      deps.onPaused?.([paused]);
      await steps.notice(paused.channelId, kind.notices.readRefused(paused, status), 'read refused');
    }
    return { kind: 'paused', reason };
  }

  async function pauseForChannel(i: Item, error: string): Promise<RunOutcome> {
    const paused = await store.pause(i.id, 'channel', null);
    if (paused) {
      deps.onPaused?.([paused]);
      await steps.dm(paused.ownerId, kind.notices.channelRefused(paused, error), 'channel refused');
    }
    return { kind: 'paused', reason: 'channel' };
  }

  const markOf = (i: Item, runKey: string) => ({ event: kind.event, payload: { ...kind.markOf(i), run: runKey } });

  /** Settles an earlier run's intent: committed when its post exists, dropped when it does not. */
  async function settle(i: Item, run: OpenIntent): Promise<'committed' | 'dropped' | 'unknown'> {
    let ts = run.messageTs;
    if (run.state === 'pending') {
      const found = await steps.lookFor(run.channelId, markOf(i, run.runKey), { afterTs: i.lastPostTs });
      if (found.found === 'later') return 'unknown';
      if (!found.found) {
        await store.drop(run.runKey);
        return 'dropped';
      }
      ts = found.ts;
      await store.markPosted(run.runKey, ts);
    }
    await store.commit(run.runKey, record(i, 'posted', run.items));
    logger.info(`${kind.name} run settled`, { id: i.id, run: run.runKey, items: run.items, ts });
    return 'committed';
  }

  type Claimed = { item: Item; openIntent: boolean; gen: number };

  /**
   * Takes the item's lease. Held by another replica: a scheduled run leaves it to that one; a person's run waits
   * for it (a little longer than a lease) and then goes on from what that run left.
   */
  async function claim(id: number, reason: RunReason): Promise<Claimed | 'gone' | 'held'> {
    const waitUntil = deps.clock.now() + deps.leaseMs + 5000;
    for (;;) {
      const now = deps.now();
      const claimed = await deps.leases.claim(id, {
        owner: deps.replica,
        now,
        until: new Date(now.getTime() + deps.leaseMs),
        extra: store.claimExtra,
      });
      if (claimed) return { ...store.fromClaim(claimed.row), gen: claimed.gen };
      if (!(await store.get(id))) return 'gone';
      if (reason !== 'manual' || deps.clock.now() >= waitUntil) return 'held';
      await deps.clock.sleep(250);
    }
  }

  /** What a failed read means: a pause, or a failure the next slot (or the back-off) tries again. */
  async function readFailed(i: Item, err: unknown): Promise<RunOutcome> {
    const failure = readFailureOf(err);
    if (failure.kind === 'token') return pauseForToken(i, failure.confirmed);
    if (failure.kind === 'refused') return pauseForRead(i, failure.status);
    if (failure.kind === 'failed' && failure.unexpected) {
      logger.error(`unexpected error while reading for a ${kind.name}`, { id: i.id, error: asError(err) });
    }
    // The server is in trouble (5xx, 429, its budget spent): the item is tried again a little later, not a slot later.
    const retryAt = failure.kind === 'busy' ? backOff(i, failure.retryAfterMs) : undefined;
    await store.record(i.id, record(i, `failed: ${failure.error}`, 0, retryAt));
    return { kind: 'failed', error: failure.error };
  }

  /**
   * The next try after a failed read: doubling from a minute (by the failures in a row), not before the server's
   * Retry-After (or the token's budget) says, never past its next slot.
   */
  function backOff(i: Item, retryAfterMs: number | null = null): Date | null {
    const next = nextOf(i, deps.now());
    const failures = i.lastResult?.startsWith('failed') ? 2 : 1;
    const retry = new Date(deps.now().getTime() + Math.max(60_000 * failures, retryAfterMs ?? 0));
    return next && next.getTime() < retry.getTime() ? next : retry;
  }

  async function runOnce(id: number, o: { scheduledFor: Date; reason: RunReason }): Promise<RunOutcome> {
    // A record of this item's previous run still to be written would land after this run's own.
    if (unwritten.has(id)) await flush();
    const claimed = await claim(id, o.reason);
    if (claimed === 'gone') return { kind: 'gone' };
    if (claimed === 'held') {
      return o.reason === 'manual' ? { kind: 'failed', error: 'another run of it is under way' } : { kind: 'skipped' };
    }
    tell(deps.hooks.leasesHeld, { kind: kind.name, held: running.size + unwritten.size });
    let i = claimed.item;

    // An earlier run's intent is settled first, whatever state the item is in now.
    const open = claimed.openIntent ? await store.openIntentOf(i.id) : null;
    if (open) {
      const settled = await settle(i, open);
      if (settled === 'unknown') {
        const error = 'the previous post could not be looked for in the channel';
        await store.record(i.id, record(i, `failed: ${error}`, 0));
        return { kind: 'failed', error };
      }
      if (settled === 'committed') {
        const after = await store.get(id);
        if (!after) return { kind: 'gone' };
        // Only a person asking for a run now gets what came since; a recovered run is done.
        if (o.reason !== 'manual') return { kind: 'settled', items: open.items, ts: after.lastPostTs ?? '' };
        i = after;
      }
    }
    if (!i.active && o.reason !== 'manual') return { kind: 'inactive' };
    // A fire for a time the item already ran for (a person ran it a moment before, a catch-up just before its
    // slot) would post it twice.
    const done = i.lastResult === 'posted' || i.lastResult === 'empty';
    if (o.reason !== 'manual' && done && i.lastRunAt && i.lastRunAt.getTime() >= o.scheduledFor.getTime()) {
      return { kind: 'skipped' };
    }

    let found: Found<State>;
    try {
      found = await kind.read(i, ownerCtx(i));
    } catch (err) {
      return readFailed(i, err);
    }
    if (found.items === 0) {
      recordLater(i.id, record(i, 'empty', 0));
      return { kind: 'empty', since: found.since ?? i.lastRunAt ?? o.scheduledFor };
    }

    const now = deps.now();
    const runKey = crypto.randomUUID();
    await store.openIntent(
      i.id,
      { runKey, scheduledFor: o.scheduledFor, reason: o.reason, channelId: i.channelId, items: found.items },
      found.state,
      now,
    );
    deps.at?.('before-post');
    const held = { owner: deps.replica, gen: claimed.gen };
    let posted: { ts: string } | null;
    // Stalled since the fence for longer than the lease (a paused process, a long GC): another replica may hold the
    // item now and post it; this one does not.
    const postOnce = (view: SlackMessage) =>
      steps.postOnce(i.channelId, view, {
        key: i.id,
        held,
        mark: markOf(i, runKey),
        afterFence: () => deps.at?.('after-fence'),
      });
    try {
      posted = await postOnce(found.view(now)).catch((err: unknown) => {
        if (!(err instanceof SlackRefusedError && err.error === 'invalid_blocks' && found.plainView)) throw err;
        logger.warn(`Slack refused a ${kind.name} post's blocks; posting its plain view instead`, { id: i.id });
        return postOnce(found.plainView(now));
      });
    } catch (err) {
      if (err instanceof SlackRefusedError) {
        // Slack said no: nothing was posted, so the intent goes and the state stays.
        await store.drop(runKey);
        if (CHANNEL_ERRORS.has(err.error)) return pauseForChannel(i, err.error);
        await store.record(i.id, record(i, `failed: slack ${err.error}`, 0));
        return { kind: 'failed', error: `slack ${err.error}` };
      }
      // No answer: the post may have gone out. The intent stays, and the next run looks for it first.
      await store.record(i.id, record(i, 'failed: slack unreachable', 0, backOff(i)));
      return { kind: 'failed', error: 'slack unreachable' };
    }
    if (posted === null) {
      // The lease ran out or was taken over: the intent stays, for the new holder to settle and post once.
      logger.warn(`a ${kind.name} run lost its lease before posting; left to the replica holding it`, { id: i.id });
      return o.reason === 'manual' ? { kind: 'failed', error: 'another run of it is under way' } : { kind: 'skipped' };
    }
    const { ts } = posted;
    deps.at?.('after-post');
    await store.markPosted(runKey, ts);
    await store.commit(runKey, record(i, 'posted', found.items), () => deps.at?.('while-saving'));
    return { kind: 'posted', items: found.items, ts };
  }

  /** Runs an item now; runs of one item never overlap (a second waits for the first, then finds less). */
  function run(id: number, o: { scheduledFor: Date; reason: RunReason }): Promise<RunOutcome> {
    const previous = inFlight.get(id) ?? Promise.resolve(null);
    const next = previous.then(() => {
      const queued = deps.limiter.run(async () => {
        tell(deps.hooks.queueDepth, { kind: kind.name, depth: deps.limiter.waiting });
        const started = performance.now();
        let outcome: RunOutcome;
        running.add(id);
        try {
          outcome = await runOnce(id, o);
        } catch (err) {
          logger.error(`unexpected error in a ${kind.name} run`, { id, error: asError(err) });
          outcome = { kind: 'failed', error: 'unexpected' };
        } finally {
          running.delete(id);
        }
        // A run that found nothing keeps its lease until its record is written (see flush).
        if (!unwritten.has(id)) {
          await deps.leases.release(id, deps.replica).catch((err: unknown) => {
            logger.warn(`could not release the lease of a ${kind.name} run`, { id, error: errorName(err) });
          });
          tell(deps.hooks.leasesHeld, { kind: kind.name, held: running.size + unwritten.size });
        }
        const lagMs = outcome.kind === 'posted' ? deps.now().getTime() - o.scheduledFor.getTime() : null;
        tell(deps.hooks.delivered, { kind: kind.name, outcome: outcome.kind, lagMs });
        logger.info(`${kind.name} run`, {
          [kind.name]: id,
          reason: o.reason,
          scheduledFor: o.scheduledFor.toISOString(),
          outcome: outcome.kind,
          items: 'items' in outcome ? outcome.items : 0,
          ms: Math.round((performance.now() - started) * 10) / 10,
          ...(outcome.kind === 'failed' ? { error: outcome.error } : {}),
          ...(outcome.kind === 'paused' ? { why: outcome.reason } : {}),
        });
        return outcome;
      });
      tell(deps.hooks.queueDepth, { kind: kind.name, depth: deps.limiter.waiting });
      return queued;
    });
    inFlight.set(id, next);
    void next.finally(() => {
      if (inFlight.get(id) === next) inFlight.delete(id);
    });
    return next;
  }

  return {
    run,
    /** Whether this kernel has runs under way (whose leases it keeps renewing). */
    get busy(): boolean {
      return inFlight.size > 0 || unwritten.size > 0;
    },
    /** Writes what runs left to be written. */
    flush,
    /** Resolves once every run under way has finished and been written (for a clean stop). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight.values()]);
      await flush();
    },
  };
}

export type Kernel = ReturnType<typeof createKernel>;
