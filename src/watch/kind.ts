import crypto from 'node:crypto';
import type { Busy, Polled, PolledKind } from '../delivery/polled.js';
import { CHANNEL_ERRORS, SlackRefusedError } from '../delivery/slack.js';
import { asError, errorName, type RunSteps, readFailureOf } from '../delivery/steps.js';
import type { FailureNote } from '../failure/note.js';
import { projectOf } from '../gitlab/project.js';
import type { PipelineBasic } from '../gitlab/schemas.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import type { FailureReader, Reading } from '../operations/failures.js';
import type { WatchPoint } from '../operations/watch-service.js';
import { readTokensByTeam } from '../store/batch-tokens.js';
import type { StoredToken, TokenStore } from '../store/token-store.js';
import type {
  CardJob,
  ClaimedWatch,
  NewCard,
  PollRecord,
  Watch,
  WatchCard,
  WatchPauseReason,
  WatchStore,
} from '../store/watch-store.js';
import { failedJobsOf } from '../views/pipelines.js';
import { buildWatchFixedCard, buildWatchFixedReply, buildWatchPipelineCard } from '../views/watch-posts.js';
import { buildWatchChannelRefusedDm, buildWatchReadRefusedNotice, buildWatchTokenPauseDm } from '../views/watches.js';
import { decodeSeen, diffPipelines, nextPollOf } from './seen.js';
import { cardMark, fixMark } from './slack.js';

// Pipeline watches as a polled kind of the delivery kernel (src/delivery/): what only watches know. One poll of a
// watch, under its lease, and the delivery of what it found, exactly once:
//   1. cards an earlier poll left on their way are settled first: a card whose post is in the channel's history
//      (found by its mark) is committed, not posted again; a fix whose reply is in the card's thread likewise;
//   2. the newest pipelines are read with the creator's token (one call; one page, newest first, the ref's only
//      when the watch has one) and compared with the statuses remembered from the last poll;
//   3. nothing changed → the watch just moves on to its next poll (written a batch at a time, no lock held);
//      something did → the new statuses, the intents of the cards to post and the fixes are committed in one
//      transaction, then each card is posted with its mark (→ marked posted with its ts), each fix redraws its
//      card (chat.update, which may be repeated) and replies in its thread (with its mark) (→ its row goes).
// A kill before a post leaves an intent whose post is nowhere: it is posted at the next poll. A kill after it
// leaves one whose post is in the history: it is committed. A commit that did not happen was never a poll.
// Each card and fix reply is fenced by the watch's lease (the kernel's postOnce): renewed right before the post, and
// a poll whose lease ran out or was taken over meanwhile stops there, leaving its cards to the new holder. The
// kernel's polled loop claims the due watches, writes the idle polls a batch at a time and says when polls are late.

export interface WatchKindDeps {
  store: WatchStore;
  steps: RunSteps;
  /** Reads as the creator, through the paced transport (the app's one judgement of 401s). */
  access: GitlabAccess;
  sessionOf: (actor: Actor, stored?: StoredToken | null) => Session;
  /** Reads the token rows of a claimed batch's creators at once (without it, each session reads its own row). */
  tokens?: Pick<TokenStore, 'loadMany'>;
  serverUrl: string;
  slashCommand: string;
  logger: Logger;
  now: () => Date;
  /** How often a watch is polled. */
  intervalMs: number;
  /** Pipelines read per poll (one page, newest first). */
  pageSize: number;
  /** Why a failed pipeline's jobs failed, for its card (absent: the card names them only). */
  failures?: FailureReader;
  at?: (point: WatchPoint) => void;
}

export type PollOutcome =
  | { kind: 'idle'; record: PollRecord }
  | { kind: 'changed'; posted: number }
  | { kind: 'paused'; reason: WatchPauseReason }
  /** `busy`: the server was in trouble (5xx, 429, the budget spent), so the watch's polls back off. */
  | { kind: 'failed'; error: string; busy?: Busy }
  | { kind: 'lost' };

/** `lost`: the lease ran out or was taken over right before a post, which was not made. */
type Delivered = 'posted' | 'done' | 'stop' | 'lost';

/** Jobs of a pipeline read for its card: one page, all a pipeline usually has with its retries. */
const PIPELINE_JOBS_READ = 100;

/** A poll that found nothing new, as the batch writes it. */
type IdleRecord = readonly [number, PollRecord];

/** A watch polls a page of pipelines a little after this long past its time: only then is it behind. */
const BEHIND_MS = 15_000;

export function createWatchKind(
  d: WatchKindDeps,
): PolledKind<ClaimedWatch, Map<string, Session>, IdleRecord, PollOutcome> {
  const { store, steps, logger } = d;

  /**
   * The creator's request context for one poll. Polls of one cycle share a session per creator (`sessions`), so that
   * a person with many watches has their token read and opened once a minute, not once a watch.
   */
  const creatorCtx = (w: Watch, sessions?: Map<string, Session>): RequestContext => {
    const actor = { teamId: w.teamId, userId: w.creatorId, userName: '' };
    const key = `${w.teamId}:${w.creatorId}`;
    let session = sessions?.get(key);
    if (!session) {
      session = d.sessionOf(actor);
      sessions?.set(key, session);
    }
    return { actor, channelId: w.channelId, now: d.now(), session };
  };

  /**
   * The creator's token was refused (or is gone): all their watches pause, and they get one DM. A refusal may be the
   * server's trouble, so they wait for the server to accept the token again (the delivery kernel re-checks it with
   * back-off); only a creator with no token at all is asked to connect.
   */
  async function pauseForToken(w: Watch, confirmed: boolean): Promise<PollOutcome> {
    const paused = await store.pauseCreator(w.teamId, w.creatorId, 'token', d.now());
    if (paused.length > 0) {
      await steps.dm(w.creatorId, buildWatchTokenPauseDm(paused, d.serverUrl, confirmed), 'token');
    }
    return { kind: 'paused', reason: 'token' };
  }

  /** The server refused the project's pipelines: the watch pauses, and its channel is told once. */
  async function pauseForRead(w: Watch, status: 403 | 404): Promise<PollOutcome> {
    const reason: WatchPauseReason = status === 404 ? 'not_found' : 'forbidden';
    const paused = await store.pause(w.id, reason, null, d.now());
    if (paused) await steps.notice(w.channelId, buildWatchReadRefusedNotice(paused, status, d.slashCommand), 'read');
    return { kind: 'paused', reason };
  }

  async function pauseForChannel(w: Watch, error: string): Promise<void> {
    const paused = await store.pause(w.id, 'channel', null, d.now());
    if (paused) await steps.dm(w.creatorId, buildWatchChannelRefusedDm(paused, error, d.slashCommand), 'channel');
  }

  /**
   * The failed jobs of a pipeline, for its card (read once, as the creator; a card without them still goes). Every
   * job is read, not only the failed ones: a retried job stands for its newest attempt, as on the pipeline's own
   * card, so a job retried and failed again is listed once, and one whose retry passed not at all.
   */
  async function failedJobs(ctx: RequestContext, w: Watch, pipelineId: number): Promise<CardJob[]> {
    try {
      const page = await d.access.withClient(ctx, (c) =>
        c.jobs.listForPipeline(w.project.id, pipelineId, { per_page: PIPELINE_JOBS_READ }),
      );
      return failedJobsOf(page.items).map((j) => ({ id: j.id, name: j.name, stage: j.stage }));
    } catch (err) {
      if (readFailureOf(err).kind === 'token') throw err;
      logger.warn('could not read the failed jobs of a watched pipeline', { watch: w.id, pipeline: pipelineId });
      return [];
    }
  }

  /** A Slack refusal while delivering: a channel that will not take posts pauses the watch. */
  async function refused(w: Watch, card: WatchCard, err: unknown): Promise<Delivered> {
    if (err instanceof SlackRefusedError) {
      if (CHANNEL_ERRORS.has(err.error)) {
        await pauseForChannel(w, err.error);
        return 'stop';
      }
      // A message Slack will never take (or a card deleted meanwhile) is given up rather than tried for ever.
      logger.error('Slack refused a watch card; it is dropped', { watch: w.id, card: card.key, error: err.error });
      await store.finishCard(card.key);
      return 'done';
    }
    // No answer: the post may have gone out. The intent stays, and the next poll looks for it first.
    logger.warn('could not reach Slack with a watch card; the next poll tries again', { watch: w.id });
    return 'stop';
  }

  async function deliverFix(w: Watch, held: Held, card: WatchCard, search: boolean): Promise<Delivered> {
    if (!card.messageTs || card.fixedBy === null || card.fixedAt === null) {
      await store.finishCard(card.key);
      return 'done';
    }
    const ts = card.messageTs;
    const fixed = {
      pipelineId: card.pipelineId,
      ref: card.ref,
      jobs: card.jobs,
      failedAt: card.seenAt,
      fixedBy: card.fixedBy,
      fixedAt: card.fixedAt,
    };
    try {
      await steps.update(w.channelId, ts, buildWatchFixedCard(w, fixed, d.serverUrl));
    } catch (err) {
      const gone = err instanceof SlackRefusedError && /message_not_found|cant_update_message/.test(err.error);
      if (!gone) return refused(w, card, err);
    }
    d.at?.('after-update');
    if (search) {
      const found = await steps.lookFor(w.channelId, fixMark(card), { threadTs: ts });
      if (found.found === true) {
        await store.finishCard(card.key);
        return 'done';
      }
      if (found.found === 'later') return 'stop';
    }
    let replied: { ts: string } | null;
    try {
      replied = await steps.postOnce(w.channelId, buildWatchFixedReply(w, fixed, d.serverUrl), {
        ...held,
        mark: fixMark(card),
        threadTs: ts,
      });
    } catch (err) {
      return refused(w, card, err);
    }
    if (replied === null) return 'lost';
    d.at?.('after-reply');
    await store.finishCard(card.key);
    return 'posted';
  }

  /** Why a failed pipeline's jobs failed, read as the creator (kept once read); a card without it still goes. */
  async function whyFailed(w: Watch, card: WatchCard): Promise<FailureNote[]> {
    if (!d.failures || card.status !== 'failed' || card.jobs.length === 0) return [];
    const ctx = creatorCtx(w);
    const reading: Reading = { read: (fn) => d.access.withClient(ctx, fn), teamId: w.teamId };
    const failed = card.jobs.map((j) => ({
      id: j.id,
      name: j.name,
      ref: card.ref,
      status: 'failed',
      commit: { id: card.sha },
    }));
    try {
      return await d.failures.explain(reading, projectOf(w.project.path), failed, ctx.now);
    } catch (err) {
      logger.debug('could not read why a watched pipeline failed', { watch: w.id, error: errorName(err) });
      return [];
    }
  }

  async function deliverCard(w: Watch, held: Held, card: WatchCard, search: boolean): Promise<Delivered> {
    let ts: string | null = null;
    if (search) {
      const found = await steps.lookFor(w.channelId, cardMark(card));
      if (found.found === true) ts = found.ts;
      else if (found.found === 'later') return 'stop';
    }
    let posted = false;
    if (ts === null) {
      d.at?.('before-post');
      const pipeline = { id: card.pipelineId, ref: card.ref, sha: card.sha, status: card.status };
      const why = await whyFailed(w, card);
      let sent: { ts: string } | null;
      try {
        const message = buildWatchPipelineCard(w, pipeline, { jobs: card.jobs, why }, d.serverUrl);
        sent = await steps.postOnce(w.channelId, message, { ...held, mark: cardMark(card) });
      } catch (err) {
        return refused(w, card, err);
      }
      if (sent === null) return 'lost';
      ts = sent.ts;
      posted = true;
      d.at?.('after-post');
    }
    const state = await store.cardPosted(card.key, ts);
    if (state === 'fixing' && (await deliverFix(w, held, { ...card, messageTs: ts, state }, false)) === 'lost') {
      return 'lost';
    }
    return posted ? 'posted' : 'done';
  }

  /**
   * Delivers the cards of a watch still on their way; `search` first looks for what a cut-off delivery sent.
   * `lost`: the lease went before a post, and the rest is left to its new holder.
   */
  async function deliverOpen(w: Watch, held: Held, search: boolean): Promise<{ posted: number; lost: boolean }> {
    let posted = 0;
    for (const card of await store.openCards(w.id)) {
      const r =
        card.state === 'pending' ? await deliverCard(w, held, card, search) : await deliverFix(w, held, card, search);
      if (r === 'lost') return { posted, lost: true };
      if (r === 'stop') break;
      if (r === 'posted') posted += 1;
    }
    return { posted, lost: false };
  }

  /**
   * Polls one claimed watch. The kernel releases its lease (idle ones a batch at a time). A token refused on the way
   * pauses the creator's watches (the next cycle gets a new session).
   */
  async function pollOnce(
    c: ClaimedWatch,
    sessions: Map<string, Session> | undefined,
    owner: string,
  ): Promise<PollOutcome> {
    const w = c.watch;
    const held: Held = { key: w.id, held: { owner, gen: c.leaseGen } };
    let posted = 0;
    if (c.open) {
      const settled = await deliverOpen(w, held, true);
      if (settled.lost) return { kind: 'lost' };
      posted = settled.posted;
    }
    const ctx = creatorCtx(w, sessions);
    let items: PipelineBasic[];
    try {
      const page = await d.access.withClient(ctx, (client) =>
        client.pipelines.list(w.project.id, {
          per_page: d.pageSize,
          order_by: 'id',
          sort: 'desc',
          ...(w.ref ? { ref: w.ref } : {}),
        }),
      );
      items = page.items;
    } catch (err) {
      const failure = readFailureOf(err);
      if (failure.kind === 'token') return pauseForToken(w, failure.confirmed);
      if (failure.kind === 'refused') return pauseForRead(w, failure.status);
      const { error } = failure;
      if (failure.kind === 'failed' && failure.unexpected) {
        logger.error('unexpected error while polling a watch', {
          watch: w.id,
          error: asError(err),
        });
      }
      const now = d.now();
      await store.recordFailed(w.id, owner, {
        at: now,
        nextPollAt: nextPollOf(w.nextPollAt, now, d.intervalMs),
        result: `failed: ${error}`,
      });
      if (failure.kind === 'busy') return { kind: 'failed', error, busy: { retryAfterMs: failure.retryAfterMs } };
      return { kind: 'failed', error };
    }
    const now = d.now();
    const record = { at: now, nextPollAt: nextPollOf(w.nextPollAt, now, d.intervalMs), result: 'ok' };
    const diff = diffPipelines({
      before: () => decodeSeen(w.seen),
      beforeText: w.seen,
      items,
      floorId: w.floorId,
      filter: w.statusFilter,
    });
    if (!diff.changed) return { kind: 'idle', record };

    const cards: NewCard[] = [];
    try {
      for (const p of diff.finished) {
        const jobs = p.status === 'failed' ? await failedJobs(ctx, w, p.id) : [];
        cards.push({ key: crypto.randomUUID(), pipelineId: p.id, ref: p.ref, status: p.status, sha: p.sha, jobs });
      }
    } catch (err) {
      const failure = readFailureOf(err);
      return pauseForToken(w, failure.kind === 'token' && failure.confirmed);
    }
    const committed = await store.commitPoll(w.id, owner, {
      seen: diff.seen,
      poll: { ...record, result: cards.length ? `found ${cards.length}` : 'ok' },
      cards,
      fixes: diff.fixes,
    });
    if (!committed) return { kind: 'lost' };
    const delivered = await deliverOpen(w, held, false);
    if (delivered.lost) return { kind: 'lost' };
    return { kind: 'changed', posted: posted + delivered.posted };
  }

  /**
   * The sessions of a batch's creators, their token rows read with one statement per team (keyed by team and
   * creator); a row this store changes meanwhile, or a read that fails, is left to the session to read.
   */
  async function sessionsOf(batch: readonly ClaimedWatch[]): Promise<Map<string, Session>> {
    const sessions = new Map<string, Session>();
    if (!d.tokens) return sessions;
    const loaded = await readTokensByTeam(
      d.tokens,
      batch.map(({ watch }) => ({ teamId: watch.teamId, userId: watch.creatorId })),
      (err) => logger.warn('could not read the tokens of a watch batch', { error: String(err) }),
    );
    for (const { watch } of batch) {
      const key = `${watch.teamId}:${watch.creatorId}`;
      const stored = loaded.get(watch.teamId)?.get(watch.creatorId);
      if (stored === undefined || sessions.has(key)) continue;
      sessions.set(key, d.sessionOf({ teamId: watch.teamId, userId: watch.creatorId, userName: '' }, stored));
    }
    return sessions;
  }

  return {
    behindLine: 'watch polls are behind: every watch is polled less often than once a minute, in turn',
    claimDue: (o) => store.claimDue(o),
    keyOf: (c) => c.watch.id,
    dueAt: (c) => c.watch.nextPollAt,
    claimOf: (c) => ({ gen: c.leaseGen, busyPolls: c.busyPolls }),
    intervalMs: d.intervalMs,
    prepare: sessionsOf,
    async poll(c, sessions, owner): Promise<Polled<IdleRecord, PollOutcome>> {
      const outcome = await pollOnce(c, sessions, owner);
      if (outcome.kind === 'idle') return { outcome, record: [c.watch.id, outcome.record] };
      // A failed poll wrote its failure and let its lease go; the others' leases the kernel lets go. A busy server
      // backs the watch's polls off (the kernel moves its next poll on from what the failure wrote).
      if (outcome.kind === 'failed')
        return { outcome, released: true, ...(outcome.busy ? { busy: outcome.busy } : {}) };
      return { outcome, released: false };
    },
    recordMany: (owner, idle) => store.recordIdle(owner, idle),
    async backlog(now) {
      const b = await store.backlog(now, BEHIND_MS);
      return { waiting: b.late };
    },
  };
}

/** The watch and the lease its poll holds (what every post of the poll is fenced with). */
type Held = { key: number; held: { owner: string; gen: number } };
