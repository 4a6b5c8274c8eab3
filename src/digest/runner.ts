import crypto from 'node:crypto';
import { NotConnectedError, TokenRevokedError } from '../errors.js';
import { ForbiddenError, GitlabError, NotFoundError } from '../gitlab/errors.js';
import type { Event, Todo } from '../gitlab/schemas.js';
import type { Logger } from '../logger.js';
import type { GitlabAccess } from '../operations/access.js';
import { createSession } from '../operations/session.js';
import type { Digest, DigestRun, DigestStore, PauseReason, RunRecord } from '../store/digest-store.js';
import type { TokenStore } from '../store/token-store.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildChannelRefusedDm, buildReadRefusedNotice, buildTokenPauseDm } from '../views/digest-notices.js';
import { buildEventsDigest, buildTodosDigest } from '../views/digest-posts.js';
import { untitledTargets } from '../views/events.js';
import { nextRunAfter } from './cron.js';
import { collectNew } from './cursor.js';
import { BudgetExhaustedError, type ChannelQueue, type Limiter } from './pacing.js';
import { CHANNEL_ERRORS, type DigestSlack, SlackRefusedError } from './slack.js';
import { type Read, readEvents, readTodos } from './sources.js';

// One run of a digest, exactly once. The protocol:
//   1. settle an open intent of an earlier run (its post is in the channel's history → commit it; not → drop it);
//   2. read with the owner's token what the cursor has not covered; nothing new → nothing is posted;
//   3. write an intent (run key, the cursor it will move to) → post with the run key as message metadata →
//      mark the intent posted with the message's ts → move the cursor and delete the intent in one transaction.
// A kill before the post leaves an intent whose post is nowhere: it is dropped and the run done again. A kill
// after the post leaves one whose post is in the history (or whose ts is stored): it is committed, not posted
// again. The transaction that moves the cursor either happened or did not.

/** Where a test may stop the process (the seam main.ts wires to an environment variable in tests only). */
export type RunPoint = 'before-post' | 'after-post' | 'while-saving';

export type RunReason = 'scheduled' | 'catch-up' | 'manual' | 'recover';

export type RunOutcome =
  | { kind: 'posted'; items: number; ts: string }
  /** An earlier run's post was found and committed; nothing new was posted. */
  | { kind: 'settled'; items: number; ts: string }
  | { kind: 'empty'; since: Date }
  | { kind: 'paused'; reason: PauseReason }
  | { kind: 'inactive' }
  /** It already ran for this time. */
  | { kind: 'skipped' }
  | { kind: 'gone' }
  | { kind: 'failed'; error: string };

export interface RunnerDeps {
  store: DigestStore;
  slack: DigestSlack;
  /** Reads as the owner, through the paced transport. */
  access: GitlabAccess;
  tokens: TokenStore;
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

interface ProjectPathCache {
  get(key: string): string | undefined;
  set(key: string, path: string): void;
}

const PATH_TTL_MS = 60 * 60 * 1000;

function createPathCache(now: () => Date): ProjectPathCache {
  const paths = new Map<string, { path: string; at: number }>();
  return {
    get(key) {
      const hit = paths.get(key);
      return hit && now().getTime() - hit.at < PATH_TTL_MS ? hit.path : undefined;
    },
    set(key, path) {
      paths.delete(key);
      paths.set(key, { path, at: now().getTime() });
      if (paths.size > 10_000) paths.delete(paths.keys().next().value as string);
    },
  };
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
  const paths = createPathCache(deps.now);

  const nextOf = (d: Digest, at: Date) => nextRunAfter(d.cron, d.tz, at);

  // Which digests have an intent open: read once, then kept as this runner opens and closes them, so that the
  // thousands of runs without one do not each ask the database.
  let withIntent: Set<number> | null = null;
  const intents = async () => {
    withIntent ??= new Set((await store.openRuns()).map((r) => r.digestId));
    return withIntent;
  };

  // Runs that found nothing new are written a few at a time: at 09:00 thousands of them end within a second, and
  // one transaction for many is far cheaper than one each. Losing the last few to a crash costs a catch-up read.
  const unwritten = new Map<number, RunRecord>();
  let flushTimer: NodeJS.Timeout | null = null;
  async function flush(): Promise<void> {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    if (unwritten.size === 0) return;
    const batch = [...unwritten];
    unwritten.clear();
    await store.recordRuns(batch);
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

  const ownerCtx = (d: Digest) => {
    const actor = { teamId: d.teamId, userId: d.ownerId, userName: '' };
    return { actor, session: createSession(deps.tokens, deps.serverUrl, actor) };
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

  /** Project paths of events read from a person's feed (one read each, as the owner, remembered an hour). */
  async function projectPaths(d: Digest, events: readonly Event[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (d.project) out.set(d.project.id, d.project.path);
    const missing = new Set<number>();
    for (const e of events) {
      if (e.project_id === null || out.has(e.project_id)) continue;
      const cached = paths.get(`${d.teamId}:${d.ownerId}:${e.project_id}`);
      if (cached) out.set(e.project_id, cached);
      else missing.add(e.project_id);
    }
    for (const id of missing) {
      try {
        const p = await deps.access.withClient(ownerCtx(d), (c) => c.projects.get(id));
        out.set(id, p.path_with_namespace);
        paths.set(`${d.teamId}:${d.ownerId}:${id}`, p.path_with_namespace);
      } catch (err) {
        if (err instanceof TokenRevokedError) throw err;
        // A project the owner can no longer see is shown by its id.
      }
    }
    return out;
  }

  /** Titles of what was only commented on (a 9.5 comment event carries none): one read each, as the owner. */
  async function targetTitles(d: Digest, events: readonly Event[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const t of untitledTargets(events)) {
      try {
        const title = await deps.access.withClient(ownerCtx(d), async (c) =>
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
      paths: fresh.length ? await projectPaths(d, fresh) : new Map(),
      titles: fresh.length ? await targetTitles(d, fresh) : new Map(),
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
        (await intents()).delete(d.id);
        return 'dropped';
      }
      if (!found.found) {
        await store.dropRun(run.runKey);
        (await intents()).delete(d.id);
        return 'dropped';
      }
      ts = found.ts;
      await store.markPosted(run.runKey, ts);
    }
    await store.commitRun(run.runKey, record(d, 'posted', run.items));
    (await intents()).delete(d.id);
    logger.info('digest run settled', { digest: d.id, run: run.runKey, items: run.items, ts });
    return 'committed';
  }

  async function runOnce(id: number, o: { scheduledFor: Date; reason: RunReason }): Promise<RunOutcome> {
    // A record of this digest's previous run still to be written would land after this run's own.
    if (unwritten.has(id)) await flush();
    let d = await store.get(id);
    if (!d) return { kind: 'gone' };

    // An earlier run's intent is settled first, whatever state the digest is in now.
    const open = (await intents()).has(d.id) ? await store.openRunOf(d.id) : null;
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
    (await intents()).add(d.id);
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
    let ts: string;
    try {
      ({ ts } = await deps.channels.run(d.channelId, () =>
        slack.post(d.channelId, render(d, content, now), { digest: d.id, run: runKey }),
      ));
    } catch (err) {
      if (err instanceof SlackRefusedError) {
        // Slack said no: nothing was posted, so the intent goes and the cursor stays.
        await store.dropRun(runKey);
        (await intents()).delete(d.id);
        if (CHANNEL_ERRORS.has(err.error)) return pauseForChannel(d, err.error);
        await store.recordRun(d.id, record(d, `failed: slack ${err.error}`, 0));
        return { kind: 'failed', error: `slack ${err.error}` };
      }
      // No answer: the post may have gone out. The intent stays, and the next run looks for it first.
      await store.recordRun(d.id, record(d, 'failed: slack unreachable', 0));
      return { kind: 'failed', error: 'slack unreachable' };
    }
    deps.at?.('after-post');
    await store.markPosted(runKey, ts);
    await store.commitRun(runKey, record(d, 'posted', items), () => deps.at?.('while-saving'));
    (await intents()).delete(d.id);
    return { kind: 'posted', items, ts };
  }

  /** Runs a digest now; runs of one digest never overlap (a second waits for the first, then finds less). */
  function run(id: number, o: { scheduledFor: Date; reason: RunReason }): Promise<RunOutcome> {
    const previous = inFlight.get(id) ?? Promise.resolve(null);
    const next = previous.then(() =>
      deps.limiter.run(async () => {
        const started = performance.now();
        let outcome: RunOutcome;
        try {
          outcome = await runOnce(id, o);
        } catch (err) {
          logger.error('unexpected error in a digest run', { digest: id, error: asError(err) });
          outcome = { kind: 'failed', error: 'unexpected' };
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
