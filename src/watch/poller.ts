import crypto from 'node:crypto';
import type { ChannelQueue } from '../delivery/pacing.js';
import { BudgetExhaustedError } from '../delivery/pacing.js';
import { CHANNEL_ERRORS, SlackRefusedError } from '../delivery/slack.js';
import { NotConnectedError, TokenRevokedError } from '../errors.js';
import type { FailureNote } from '../failure/note.js';
import { ForbiddenError, GitlabError, NotFoundError } from '../gitlab/errors.js';
import { projectOf } from '../gitlab/project.js';
import type { PipelineBasic } from '../gitlab/schemas.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import type { FailureReader, Reading } from '../operations/failures.js';
import type { WatchPoint } from '../operations/watch-service.js';
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
import type { SlackMessage } from '../views/blocks.js';
import { failedJobsOf } from '../views/pipelines.js';
import { buildWatchFixedCard, buildWatchFixedReply, buildWatchPipelineCard } from '../views/watch-posts.js';
import { buildWatchChannelRefusedDm, buildWatchReadRefusedNotice, buildWatchTokenPauseDm } from '../views/watches.js';
import { decodeSeen, diffPipelines, nextPollOf } from './seen.js';
import { type CardMark, WATCH_CARD_EVENT, WATCH_FIX_EVENT, type WatchSlack } from './slack.js';

// One poll of a watch, under its lease, and the delivery of what it found, exactly once:
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
// Each card and fix reply is fenced by the watch's lease (store/lease-fence.ts): renewed right before the post, and
// a poll whose lease ran out or was taken over meanwhile stops there, leaving its cards to the new holder.

export interface PollerDeps {
  store: WatchStore;
  slack: WatchSlack;
  /** Reads as the creator, through the paced transport (the app's one judgement of 401s). */
  access: GitlabAccess;
  sessionOf: (actor: Actor) => Session;
  replica: string;
  /** How long a lease renewed right before a post holds. */
  leaseMs: number;
  serverUrl: string;
  slashCommand: string;
  logger: Logger;
  now: () => Date;
  channels: ChannelQueue;
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
  | { kind: 'failed'; error: string }
  | { kind: 'lost' };

/** `lost`: the lease ran out or was taken over right before a post, which was not made. */
type Delivered = 'posted' | 'done' | 'stop' | 'lost';

/** Jobs of a pipeline read for its card: one page, all a pipeline usually has with its retries. */
const PIPELINE_JOBS_READ = 100;

const markOf = (c: WatchCard): CardMark => ({ watch: c.watchId, card: c.key });

const errorName = (err: unknown) =>
  err instanceof SlackRefusedError ? err.error : err instanceof Error ? err.name : 'unknown';

export function createPoller(d: PollerDeps) {
  const { store, slack, logger } = d;

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

  async function dm(userId: string, message: SlackMessage): Promise<void> {
    try {
      const channel = await slack.openDm(userId);
      await d.channels.run(channel, () => slack.post(channel, message));
    } catch (err) {
      logger.warn('could not send a watch notice by DM', { user: userId, error: errorName(err) });
    }
  }

  /**
   * The creator's token was refused (or is gone): all their watches pause, and they get one DM. A refusal may be the
   * server's trouble, so they wait for the server to accept the token again (the delivery kernel re-checks it with
   * back-off); only a creator with no token at all is asked to connect.
   */
  async function pauseForToken(w: Watch, err: unknown): Promise<PollOutcome> {
    const paused = await store.pauseCreator(w.teamId, w.creatorId, 'token', d.now());
    const confirmed = err instanceof NotConnectedError;
    if (paused.length > 0) await dm(w.creatorId, buildWatchTokenPauseDm(paused, d.serverUrl, confirmed));
    return { kind: 'paused', reason: 'token' };
  }

  /** The server refused the project's pipelines: the watch pauses, and its channel is told once. */
  async function pauseForRead(w: Watch, status: 403 | 404): Promise<PollOutcome> {
    const reason: WatchPauseReason = status === 404 ? 'not_found' : 'forbidden';
    const paused = await store.pause(w.id, reason, null, d.now());
    if (paused) {
      try {
        const notice = buildWatchReadRefusedNotice(paused, status, d.slashCommand);
        await d.channels.run(w.channelId, () => slack.post(w.channelId, notice));
      } catch (err) {
        logger.warn('could not post a watch notice', { watch: w.id, error: errorName(err) });
      }
    }
    return { kind: 'paused', reason };
  }

  async function pauseForChannel(w: Watch, error: string): Promise<void> {
    const paused = await store.pause(w.id, 'channel', null, d.now());
    if (paused) await dm(w.creatorId, buildWatchChannelRefusedDm(paused, error, d.slashCommand));
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
      if (err instanceof TokenRevokedError || err instanceof NotConnectedError) throw err;
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

  /** Whether this poll still holds the watch's lease right before a post (and it now holds a while longer). */
  const holds = (w: Watch, gen: number): Promise<boolean> => {
    const now = d.now();
    return store.fence(w.id, { owner: d.replica, gen }, { now, until: new Date(now.getTime() + d.leaseMs) });
  };

  async function deliverFix(w: Watch, gen: number, card: WatchCard, search: boolean): Promise<Delivered> {
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
      await slack.update(w.channelId, ts, buildWatchFixedCard(w, fixed, d.serverUrl));
    } catch (err) {
      const gone = err instanceof SlackRefusedError && /message_not_found|cant_update_message/.test(err.error);
      if (!gone) return refused(w, card, err);
    }
    d.at?.('after-update');
    if (search) {
      const found = await slack.findReply(w.channelId, ts, markOf(card));
      if (found.found === true) {
        await store.finishCard(card.key);
        return 'done';
      }
      if (found.found === 'unknown' && !CHANNEL_ERRORS.has(found.error) && found.error !== 'thread_not_found') {
        return 'stop';
      }
    }
    let replied: { ts: string } | null;
    try {
      replied = await d.channels.run(w.channelId, async () =>
        (await holds(w, gen))
          ? slack.post(w.channelId, buildWatchFixedReply(w, fixed, d.serverUrl), {
              mark: markOf(card),
              event: WATCH_FIX_EVENT,
              threadTs: ts,
            })
          : null,
      );
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

  async function deliverCard(w: Watch, gen: number, card: WatchCard, search: boolean): Promise<Delivered> {
    let ts: string | null = null;
    if (search) {
      const found = await slack.findCard(w.channelId, markOf(card));
      if (found.found === true) ts = found.ts;
      else if (found.found === 'unknown' && !CHANNEL_ERRORS.has(found.error) && found.error !== 'missing_scope') {
        return 'stop';
      }
    }
    let posted = false;
    if (ts === null) {
      d.at?.('before-post');
      const pipeline = { id: card.pipelineId, ref: card.ref, sha: card.sha, status: card.status };
      const why = await whyFailed(w, card);
      let sent: { ts: string } | null;
      try {
        sent = await d.channels.run(w.channelId, async () =>
          (await holds(w, gen))
            ? slack.post(w.channelId, buildWatchPipelineCard(w, pipeline, { jobs: card.jobs, why }, d.serverUrl), {
                mark: markOf(card),
                event: WATCH_CARD_EVENT,
              })
            : null,
        );
      } catch (err) {
        return refused(w, card, err);
      }
      if (sent === null) return 'lost';
      ts = sent.ts;
      posted = true;
      d.at?.('after-post');
    }
    const state = await store.cardPosted(card.key, ts);
    if (state === 'fixing' && (await deliverFix(w, gen, { ...card, messageTs: ts, state }, false)) === 'lost') {
      return 'lost';
    }
    return posted ? 'posted' : 'done';
  }

  /**
   * Delivers the cards of a watch still on their way; `search` first looks for what a cut-off delivery sent.
   * `lost`: the lease went before a post, and the rest is left to its new holder.
   */
  async function deliverOpen(w: Watch, gen: number, search: boolean): Promise<{ posted: number; lost: boolean }> {
    let posted = 0;
    for (const card of await store.openCards(w.id)) {
      const r =
        card.state === 'pending' ? await deliverCard(w, gen, card, search) : await deliverFix(w, gen, card, search);
      if (r === 'lost') return { posted, lost: true };
      if (r === 'stop') break;
      if (r === 'posted') posted += 1;
    }
    return { posted, lost: false };
  }

  /** Polls one claimed watch. The caller releases its lease (idle ones a batch at a time). A token refused on the way pauses the creator's watches (the next cycle gets a new session). */
  async function poll(c: ClaimedWatch, sessions?: Map<string, Session>): Promise<PollOutcome> {
    const w = c.watch;
    let posted = 0;
    if (c.open) {
      const settled = await deliverOpen(w, c.leaseGen, true);
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
      if (err instanceof TokenRevokedError || err instanceof NotConnectedError) return pauseForToken(w, err);
      if (err instanceof NotFoundError) return pauseForRead(w, 404);
      if (err instanceof ForbiddenError) return pauseForRead(w, 403);
      const error =
        err instanceof BudgetExhaustedError ? 'rate limited' : err instanceof GitlabError ? err.code : 'unexpected';
      if (!(err instanceof GitlabError) && !(err instanceof BudgetExhaustedError)) {
        logger.error('unexpected error while polling a watch', {
          watch: w.id,
          error: err instanceof Error ? err : new Error(String(err)),
        });
      }
      const now = d.now();
      await store.recordFailed(w.id, d.replica, {
        at: now,
        nextPollAt: nextPollOf(w.nextPollAt, now, d.intervalMs),
        result: `failed: ${error}`,
      });
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
      return pauseForToken(w, err);
    }
    const committed = await store.commitPoll(w.id, d.replica, {
      seen: diff.seen,
      poll: { ...record, result: cards.length ? `found ${cards.length}` : 'ok' },
      cards,
      fixes: diff.fixes,
    });
    if (!committed) return { kind: 'lost' };
    const delivered = await deliverOpen(w, c.leaseGen, false);
    if (delivered.lost) return { kind: 'lost' };
    return { kind: 'changed', posted: posted + delivered.posted };
  }

  return { poll };
}

export type Poller = ReturnType<typeof createPoller>;
