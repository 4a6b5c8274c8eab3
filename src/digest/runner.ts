import crypto from 'node:crypto';
import { NotConnectedError, TokenRevokedError } from '../errors.js';
import { ForbiddenError, GitlabError, NotFoundError } from '../gitlab/errors.js';
import type { Event, Todo } from '../gitlab/schemas.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import type { ClaimedDigest, DigestLeaseStore } from '../store/digest-lease-store.js';
import type { Digest, DigestRun, DigestStore, PauseReason, RunRecord } from '../store/digest-store.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildChannelRefusedDm, buildReadRefusedNotice, buildTokenPauseDm } from '../views/digest-notices.js';
import { buildEventsDigest, buildTodosDigest } from '../views/digest-posts.js';
import { untitledTargets } from '../views/events.js';
import { nextRunAfter } from './cron.js';
import { collectNew } from './cursor.js';
import { BudgetExhaustedError, type ChannelQueue, type Limiter, type PacingClock } from './pacing.js';
import { CHANNEL_ERRORS, type DigestSlack, SlackRefusedError } from './slack.js';
import { type Read, readEvents, readTodos } from './sources.js';
import type { RunOutcome, RunPoint, RunReason } from './types.js';

// One run of a digest, exactly once. The protocol:
//   1. settle an open intent of an earlier run (its post is in the channel's history → commit it; not → drop it);
//   2. read with the owner's token what the cursor has not covered; nothing new → nothing is posted;
//   3. write an intent (run key, the cursor it will move to) → post with the run key as message metadata →
//      mark the intent posted with the message's ts → move the cursor and delete the intent in one transaction.
// A kill before the post leaves an intent whose post is nowhere: it is dropped and the run done again. A kill
// after the post leaves one whose post is in the history (or whose ts is stored): it is committed, not posted
// again. The transaction that moves the cursor either happened or did not.
// Across replicas, a run first takes the digest's lease (store/digest-lease-store.ts): whoever holds it is the
// only one to read, post, settle or commit for that digest until the lease is released or runs out. The post is
// fenced by it (store/lease-fence.ts): renewed right before, and a run stalled past its lease (or whose lease was
// taken over) leaves its intent to the new holder instead of posting.

export interface RunnerDeps {
  store: DigestStore;
  slack: DigestSlack;
  /** Reads as the owner, through the paced transport (the app's access: one judgement of 401s for the bot). */
  access: GitlabAccess;
  /** The owner's session for one run, as a command's: the token row read once, the token opened once. */
  sessionOf: (actor: Actor) => Session;
  /** The path of a project by its id, read as the owner (operations' project resolution and its cache). */
  projectPath: (ctx: RequestContext, id: number) => Promise<string>;
  leases: DigestLeaseStore;
  /** This replica, as it holds leases. */
  replica: string;
  /** How long a lease holds before another replica may take the run over (renewed while the run goes on). */
  leaseMs: number;
  /** The clock a person's run waits on while another replica runs the same digest. */
  clock: PacingClock;
  serverUrl: string;
  slashCommand: string;
  logger: Logger;
  now: () => Date;
  channels: ChannelQueue;
  limiter: Limiter;
  /** Called when a run passes a named point (the test seam for kills). */
  at?: (point: RunPoint) => void;
  /** The runner tells the scheduler what it paused (so that its timers stop). */
  onPaused?: (digests: readonly Digest[]) => void;
}

type Content =
  | {
      kind: 'events';
      read: Read<Event>;
      fresh: Event[];
      next: Digest['cursor'];
      paths: Map<number, string>;
      titles: Map<string, string>;
    }
  | { kind: 'todos'; read: Read<Todo>; ownerName: string | null };

export function createRunner(deps: RunnerDeps) {
  const { store, slack, logger } = deps;
  const inFlight = new Map<number, Promise<RunOutcome>>();
  /** Digests whose run is going on right now (their lease is released by the run, not by a flush). */
  const running = new Set<number>();

  const nextOf = (d: Digest, at: Date) => nextRunAfter(d.cron, d.tz, at);

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
      await store.recordRuns(batch);
    } finally {
      await deps.leases.releaseMany(
        batch.map(([id]) => id).filter((id) => !running.has(id)),
        deps.replica,
      );
    }
  }
  function recordLater(id: number, run: RunRecord): void {
    unwritten.set(id, run);
    if (unwritten.size >= 256) void flush();
    else flushTimer ??= setTimeout(() => void flush(), 25);
  }
  const record = (d: Digest, result: string, items: number): RunRecord => {
    const at = deps.now();
    return { at, result, items, nextRunAt: nextOf(d, at) };
  };

  /** The owner's request context for one run: one session, so their token is read and opened once. */
  const ownerCtx = (d: Digest): RequestContext => {
    const actor = { teamId: d.teamId, userId: d.ownerId, userName: '' };
    return { actor, channelId: d.channelId, now: deps.now(), session: deps.sessionOf(actor) };
  };

  async function postDm(userId: string, message: SlackMessage): Promise<void> {
    try {
      const dm = await slack.openDm(userId);
      await deps.channels.run(dm, () => slack.post(dm, message));
    } catch (err) {
      logger.warn('could not send a digest notice by DM', { user: userId, error: errorName(err) });
    }
  }

  async function postNotice(channel: string, message: SlackMessage): Promise<void> {
    try {
      await deps.channels.run(channel, () => slack.post(channel, message));
    } catch (err) {
      logger.warn('could not post a digest notice', { channel, error: errorName(err) });
    }
  }

  /** The owner's token was refused (or is gone): every digest of theirs pauses, and they get one DM. */
  async function pauseForToken(d: Digest): Promise<RunOutcome> {
    const paused = await store.pauseOwner(d.teamId, d.ownerId, 'token');
    if (paused.length > 0) {
      deps.onPaused?.(paused);
      await postDm(d.ownerId, buildTokenPauseDm(paused, deps.serverUrl));
    }
    return { kind: 'paused', reason: 'token' };
  }

  /** The server refused what this digest reads: it pauses, and its channel is told once. */
  async function pauseForRead(d: Digest, status: 403 | 404): Promise<RunOutcome> {
    const reason: PauseReason = status === 404 ? 'not_found' : 'forbidden';
    const paused = await store.pause(d.id, reason, null);
    if (paused) {
      deps.onPaused?.([paused]);
      await postNotice(d.channelId, buildReadRefusedNotice(paused, status, deps.slashCommand));
    }
    return { kind: 'paused', reason };
  }

  async function pauseForChannel(d: Digest, error: string): Promise<RunOutcome> {
    const paused = await store.pause(d.id, 'channel', null);
    if (paused) {
      deps.onPaused?.([paused]);
      await postDm(d.ownerId, buildChannelRefusedDm(paused, error, deps.slashCommand));
    }
    return { kind: 'paused', reason: 'channel' };
  }

  /** Project paths of events read from a person's feed (as the owner, through operations' project lookup). */
  async function projectPaths(ctx: RequestContext, d: Digest, events: readonly Event[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (d.project) out.set(d.project.id, d.project.path);
    for (const e of events) {
      if (e.project_id === null || out.has(e.project_id)) continue;
      try {
        out.set(e.project_id, await deps.projectPath(ctx, e.project_id));
      } catch (err) {
        if (err instanceof TokenRevokedError) throw err;
        // A project the owner can no longer see is shown by its id.
      }
    }
    return out;
  }

  /** Titles of what was only commented on (a 9.5 comment event carries none): one read each, as the owner. */
  async function targetTitles(ctx: RequestContext, events: readonly Event[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const t of untitledTargets(events)) {
      try {
        const title = await deps.access.withClient(ctx, async (c) =>
          t.kind === 'Issue'
            ? (await c.issues.get(t.projectId, t.iid)).title
            : (await c.mergeRequests.get(t.projectId, t.iid)).title,
        );
        out.set(t.key, title);
      } catch (err) {
        if (err instanceof TokenRevokedError) throw err;
        // Without its title the line still names what was commented on.
      }
    }
    return out;
  }

  async function read(d: Digest): Promise<Content> {
    const ctx = ownerCtx(d);
    if (d.kind === 'todos') {
      const todos = await deps.access.withClient(ctx, (c) => readTodos(c));
      return { kind: 'todos', read: todos, ownerName: (await ctx.session.connection())?.username ?? null };
    }
    const events = await deps.access.withClient(ctx, (c) => readEvents(c, d, d.cursor));
    const { fresh, next } = collectNew(events.items, d.cursor);
    return {
      kind: 'events',
      read: events,
      fresh,
      next,
      paths: fresh.length ? await projectPaths(ctx, d, fresh) : new Map(),
      titles: fresh.length ? await targetTitles(ctx, fresh) : new Map(),
    };
  }

  function render(d: Digest, content: Content, now: Date): SlackMessage {
    if (content.kind === 'todos') {
      return buildTodosDigest({
        digest: d,
        todos: content.read.items,
        truncated: content.read.truncated,
        serverUrl: deps.serverUrl,
        now,
        ownerName: content.ownerName,
      });
    }
    return buildEventsDigest({
      digest: d,
      events: content.fresh,
      projectPaths: content.paths,
      titles: content.titles,
      serverUrl: deps.serverUrl,
      since: new Date(d.cursor.at),
      until: now,
      truncated: content.read.truncated,
    });
  }

  /** Settles an earlier run's intent: committed when its post exists, dropped when it does not. */
  async function settle(d: Digest, run: DigestRun): Promise<'committed' | 'dropped' | 'unknown'> {
    let ts = run.messageTs;
    if (run.state === 'pending') {
      const found = await slack.findRun(run.channelId, { digest: d.id, run: run.runKey }, d.lastPostTs);
      if (found.found === 'unknown') {
        // History that cannot be read for good (no scope, not in the channel) must not stop the digest for ever.
        if (!CHANNEL_ERRORS.has(found.error) && found.error !== 'missing_scope') return 'unknown';
        logger.warn('could not look for an interrupted digest post; posting again', {
          digest: d.id,
          run: run.runKey,
          error: found.error,
        });
        await store.dropRun(run.runKey);
        return 'dropped';
      }
      if (!found.found) {
        await store.dropRun(run.runKey);
        return 'dropped';
      }
      ts = found.ts;
      await store.markPosted(run.runKey, ts);
    }
    await store.commitRun(run.runKey, record(d, 'posted', run.items));
    logger.info('digest run settled', { digest: d.id, run: run.runKey, items: run.items, ts });
    return 'committed';
  }

  /**
   * Takes the digest's lease. Held by another replica: a scheduled run leaves it to that one; a person's run waits
   * for it (a little longer than a lease) and then goes on from what that run left.
   */
  async function claim(id: number, reason: RunReason): Promise<ClaimedDigest | 'gone' | 'held'> {
    const waitUntil = deps.clock.now() + deps.leaseMs + 5000;
    for (;;) {
      const now = deps.now();
      const claimed = await deps.leases.claim(id, {
        owner: deps.replica,
        now,
        until: new Date(now.getTime() + deps.leaseMs),
      });
      if (claimed) return claimed;
      if (!(await store.get(id))) return 'gone';
      if (reason !== 'manual' || deps.clock.now() >= waitUntil) return 'held';
      await deps.clock.sleep(250);
    }
  }

  async function runOnce(id: number, o: { scheduledFor: Date; reason: RunReason }): Promise<RunOutcome> {
    // A record of this digest's previous run still to be written would land after this run's own.
    if (unwritten.has(id)) await flush();
    const claimed = await claim(id, o.reason);
    if (claimed === 'gone') return { kind: 'gone' };
    if (claimed === 'held') {
      return o.reason === 'manual' ? { kind: 'failed', error: 'another run of it is under way' } : { kind: 'skipped' };
    }
    let d = claimed.digest;

    // An earlier run's intent is settled first, whatever state the digest is in now.
    const open = claimed.openRun ? await store.openRunOf(d.id) : null;
    if (open) {
      const settled = await settle(d, open);
      if (settled === 'unknown') {
        const error = 'the previous post could not be looked for in the channel';
        await store.recordRun(d.id, record(d, `failed: ${error}`, 0));
        return { kind: 'failed', error };
      }
      if (settled === 'committed') {
        const after = await store.get(id);
        if (!after) return { kind: 'gone' };
        // Only a person asking for a digest now gets what came since; a recovered run is done.
        if (o.reason !== 'manual') return { kind: 'settled', items: open.items, ts: after.lastPostTs ?? '' };
        d = after;
      }
    }
    if (!d.active && o.reason !== 'manual') return { kind: 'inactive' };
    // A timer that fires for a time the digest already ran for (a person ran it a moment before, or the start
    // caught it up just before its timer fired) would post a todos digest twice.
    const done = d.lastResult === 'posted' || d.lastResult === 'empty';
    if (o.reason !== 'manual' && done && d.lastRunAt && d.lastRunAt.getTime() >= o.scheduledFor.getTime()) {
      return { kind: 'skipped' };
    }

    let content: Content;
    try {
      content = await read(d);
    } catch (err) {
      if (err instanceof TokenRevokedError || err instanceof NotConnectedError) return pauseForToken(d);
      if (err instanceof NotFoundError) return pauseForRead(d, 404);
      if (err instanceof ForbiddenError) return pauseForRead(d, 403);
      const error =
        err instanceof BudgetExhaustedError ? 'rate limited' : err instanceof GitlabError ? err.code : 'unexpected';
      if (!(err instanceof GitlabError) && !(err instanceof BudgetExhaustedError)) {
        logger.error('unexpected error while reading for a digest', { digest: d.id, error: asError(err) });
      }
      await store.recordRun(d.id, record(d, `failed: ${error}`, 0));
      return { kind: 'failed', error };
    }

    const items = content.kind === 'todos' ? content.read.items.length : content.fresh.length;
    if (items === 0) {
      recordLater(d.id, record(d, 'empty', 0));
      return { kind: 'empty', since: new Date(d.cursor.at) };
    }

    const now = deps.now();
    const runKey = crypto.randomUUID();
    await store.openRun({
      runKey,
      digestId: d.id,
      scheduledFor: o.scheduledFor,
      reason: o.reason,
      channelId: d.channelId,
      cursor: content.kind === 'events' ? content.next : d.cursor,
      items,
      createdAt: now,
    });
    deps.at?.('before-post');
    const lease = { owner: deps.replica, gen: claimed.leaseGen };
    let posted: { ts: string } | null;
    try {
      posted = await deps.channels.run(d.channelId, async () => {
        const at = deps.now();
        const holds = await deps.leases.fence(d.id, lease, { now: at, until: new Date(at.getTime() + deps.leaseMs) });
        return holds ? slack.post(d.channelId, render(d, content, now), { digest: d.id, run: runKey }) : null;
      });
    } catch (err) {
      if (err instanceof SlackRefusedError) {
        // Slack said no: nothing was posted, so the intent goes and the cursor stays.
        await store.dropRun(runKey);
        if (CHANNEL_ERRORS.has(err.error)) return pauseForChannel(d, err.error);
        await store.recordRun(d.id, record(d, `failed: slack ${err.error}`, 0));
        return { kind: 'failed', error: `slack ${err.error}` };
      }
      // No answer: the post may have gone out. The intent stays, and the next run looks for it first.
      await store.recordRun(d.id, record(d, 'failed: slack unreachable', 0));
      return { kind: 'failed', error: 'slack unreachable' };
    }
    if (posted === null) {
      // The lease ran out or was taken over: the intent stays, for the new holder to settle and post once.
      logger.warn('a digest run lost its lease before posting; left to the replica holding it', { digest: d.id });
      return o.reason === 'manual' ? { kind: 'failed', error: 'another run of it is under way' } : { kind: 'skipped' };
    }
    const { ts } = posted;
    deps.at?.('after-post');
    await store.markPosted(runKey, ts);
    await store.commitRun(runKey, record(d, 'posted', items), () => deps.at?.('while-saving'));
    return { kind: 'posted', items, ts };
  }

  /** Runs a digest now; runs of one digest never overlap (a second waits for the first, then finds less). */
  function run(id: number, o: { scheduledFor: Date; reason: RunReason }): Promise<RunOutcome> {
    const previous = inFlight.get(id) ?? Promise.resolve(null);
    const next = previous.then(() =>
      deps.limiter.run(async () => {
        const started = performance.now();
        let outcome: RunOutcome;
        running.add(id);
        try {
          outcome = await runOnce(id, o);
        } catch (err) {
          logger.error('unexpected error in a digest run', { digest: id, error: asError(err) });
          outcome = { kind: 'failed', error: 'unexpected' };
        } finally {
          running.delete(id);
        }
        // A run that found nothing keeps its lease until its record is written (see flush).
        if (!unwritten.has(id)) {
          await deps.leases.release(id, deps.replica).catch((err: unknown) => {
            logger.warn('could not release the lease of a digest run', { digest: id, error: errorName(err) });
          });
        }
        logger.info('digest run', {
          digest: id,
          reason: o.reason,
          scheduledFor: o.scheduledFor.toISOString(),
          outcome: outcome.kind,
          items: 'items' in outcome ? outcome.items : 0,
          ms: Math.round((performance.now() - started) * 10) / 10,
          ...(outcome.kind === 'failed' ? { error: outcome.error } : {}),
          ...(outcome.kind === 'paused' ? { why: outcome.reason } : {}),
        });
        return outcome;
      }),
    );
    inFlight.set(id, next);
    void next.finally(() => {
      if (inFlight.get(id) === next) inFlight.delete(id);
    });
    return next;
  }

  return {
    run,
    /** Whether this runner has runs under way (whose leases it keeps renewing). */
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

export type Runner = ReturnType<typeof createRunner>;

const errorName = (err: unknown) =>
  err instanceof SlackRefusedError ? err.error : err instanceof Error ? err.name : 'unknown';

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
