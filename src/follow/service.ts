import crypto from 'node:crypto';
import { type DeliveryHooks, tell } from '../delivery/hooks.js';
import { createMeteredTransport } from '../delivery/metered-transport.js';
import {
  BudgetExhaustedError,
  type ChannelQueue,
  createSharedChannelQueue,
  createSharedTokenBudget,
  type PacingClock,
  realClock,
} from '../delivery/pacing.js';
import { CHANNEL_ERRORS, SlackRefusedError } from '../delivery/slack.js';
import { NotConnectedError, TokenRevokedError, TokenUnreadableError } from '../errors.js';
import { ForbiddenError, GitlabError, NotFoundError } from '../gitlab/errors.js';
import type { Transport } from '../gitlab/http.js';
import { type Project, projectOf } from '../gitlab/project.js';
import type { Job, Pipeline } from '../gitlab/schemas.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import type { FailureReader, Reading } from '../operations/failures.js';
import { createJobOperations } from '../operations/jobs.js';
import { createPipelineOperations } from '../operations/pipelines.js';
import { registerSecret } from '../redact.js';
import type { SqlEngine } from '../store/engine.js';
import { createFollowStore, type Follow, type FollowStore } from '../store/follow-store.js';
import { createPacingStore } from '../store/pacing-store.js';
import type { Sealer } from '../store/sealer.js';
import type { SlackMessage } from '../views/blocks.js';
import {
  buildFollowDoneDm,
  buildFollowStoppedDm,
  type Followed,
  type FollowFailures,
  type FollowLine,
  withFollowLine,
} from '../views/follow.js';
import { buildJobCard, jobUrl } from '../views/jobs.js';
import { buildPipelineCard, failedJobsOf, pipelineUrl } from '../views/pipelines.js';
import type { FollowSlack } from './slack.js';
import { DONE_STATUSES, type Drawn, decodeDrawn, encodeDrawn, jobDrawn, pipelineDrawn } from './state.js';

// Cards that follow a pipeline or a job. A follow is a row (store/follow-store.ts); every replica polls the rows
// that are due, each claimed by one replica with a lease, so a follow goes on after a restart or a replica's death.
// Each poll reads with the follower's token (through the app's one access, paced by the budget digests share),
// and redraws the card when what it shows changed: a shared card with chat.update (at most every few seconds), an
// ephemeral one through its response_url at the changes that matter, never using it more than Slack allows.
// At the end the follower is told by DM exactly once: intent (a key) → post carrying the key → ts → done; a
// follow taken over with an open intent looks for its DM in the history first. The DM and every redraw are fenced
// by the follow's lease (store/lease-fence.ts): renewed right before, and skipped by a replica that lost it.

/** Slack allows this many uses of a response_url. */
export const RESPONSE_URL_USES = 5;
/** …within this long of the command or click that made it. */
const RESPONSE_URL_MS = 30 * 60 * 1000;
/** Done follows are kept this long (their DM's key), then pruned. */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** How many follows one poll claims at once. */
const CLAIM_BATCH = 50;

export type FollowPoint = 'before-dm' | 'after-dm';

export interface FollowServiceOptions {
  /** What the kernel's observers are told (deliveries by kind and outcome: src/delivery/hooks.ts). */
  hooks?: DeliveryHooks;
  engine: SqlEngine;
  access: GitlabAccess;
  sessionOf: (actor: Actor) => Session;
  /** The transport commands use; follows read through a paced wrapper of it. */
  transport: Transport;
  slack: FollowSlack;
  /** Seals response_urls at rest: they let anyone post to the person for half an hour. */
  sealer: Sealer;
  serverUrl: string;
  slashCommand: string;
  logger: Logger;
  now: () => Date;
  /** The follower's Slack time zone: a redraw shows times as the card they were answered did (UTC when unknown). */
  timeZoneOf?: (userId: string) => Promise<string>;
  /** `manual` in tests: nothing polls by itself (`pollDue`). Default `interval`. */
  timer?: 'interval' | 'manual';
  /** How often a follow is read (default 10 s). */
  pollMs?: number;
  /** A shared card is redrawn at most this often (default 3 s). */
  shareEveryMs?: number;
  /** How long a replica's lease on a follow holds without being renewed (default 60 s). */
  leaseMs?: number;
  /** How long a card follows at most (default an hour). */
  deadlineMs?: number;
  /** Slack's pace per channel (default 1000 ms between posts), shared with digests. */
  channelIntervalMs?: number;
  pacingClock?: PacingClock;
  /** Why a failed pipeline or job failed, for its final DM (absent: the DM names the failed jobs only). */
  failures?: FailureReader;
  /** Tests only: a named point of the final DM (the seam for kills). */
  at?: (point: FollowPoint) => void;
}

/** Where the card that follows is. */
export type FollowCard =
  | { kind: 'shared'; channel: string; ts: string }
  /** An ephemeral card and the response_url it was delivered through, with the uses its delivery spent. */
  | { kind: 'ephemeral'; responseUrl: string; usesSpent: number }
  /** No card to redraw (the DM alone tells the end). */
  | { kind: 'none' };

export interface StartFollow {
  ctx: RequestContext;
  kind: 'pipeline' | 'job';
  project: Project;
  id: number;
  ref: string | null;
  card: FollowCard;
  /** What the card shows now. */
  drawn: Drawn | null;
}

export interface FollowService {
  /** Starts following; the first poll comes after the poll interval. */
  start(s: StartFollow): Promise<void>;
  /**
   * Posts a shared card in a channel, for a follow to redraw; `refused` names why the bot may not post there
   * (not a member, an archived channel…).
   */
  postCard(channel: string, message: SlackMessage): Promise<{ ts: string } | { refused: string }>;
  /** Polls what is due (everything not held elsewhere with `all`); resolves with how many were polled. */
  pollDue(o?: { all?: boolean }): Promise<number>;
  startTimers(): void;
  stop(): Promise<void>;
  readonly store: FollowStore;
}

type Snapshot = { kind: 'pipeline'; pipeline: Pipeline; jobs: Job[] } | { kind: 'job'; job: Job };

const sealedFor = (id: number) => `follow:${id}`;

export function createFollowService(o: FollowServiceOptions): FollowService {
  const log = o.logger.child({ component: 'follows' });
  const store = createFollowStore(o.engine);
  const replica = crypto.randomUUID();
  const clock = o.pacingClock ?? realClock;
  const pollMs = o.pollMs ?? 10_000;
  const shareEveryMs = o.shareEveryMs ?? 3000;
  const leaseMs = o.leaseMs ?? 60_000;
  const deadlineMs = o.deadlineMs ?? 60 * 60 * 1000;
  const pacing = createPacingStore(o.engine);
  const budget = createSharedTokenBudget({ store: pacing, clock });
  const access = o.access.through(createMeteredTransport(o.transport, budget));
  const pipelines = createPipelineOperations({ access });
  const jobs = createJobOperations({ access });
  const lanes: ChannelQueue = createSharedChannelQueue({
    store: pacing,
    intervalMs: o.channelIntervalMs ?? 1000,
    clock,
  });
  const inFlight = new Set<Promise<unknown>>();
  let stopping = false;

  /** The lease renewal that fences a post: until when, from now. */
  const renewal = () => {
    const now = o.now();
    return { now, until: new Date(now.getTime() + leaseMs) };
  };
  /** Whether this poll still holds the follow's lease right before a post (and it now holds a while longer). */
  const holds = (f: Follow) => store.fence(f.id, { owner: replica, gen: f.leaseGen }, renewal());

  const ctxOf = (f: Follow): RequestContext => {
    const actor = { teamId: f.teamId, userId: f.userId, userName: '' };
    return { actor, channelId: f.channelId, now: o.now(), session: o.sessionOf(actor) };
  };
  const projectOfFollow = (f: Follow): Project =>
    projectOf(/^\d+$/.test(f.projectKey) ? Number(f.projectKey) : f.projectKey, f.projectPath);

  async function read(f: Follow): Promise<Snapshot> {
    const ctx = ctxOf(f);
    const project = projectOfFollow(f);
    if (f.kind === 'pipeline') {
      const { pipeline, jobs: js } = await pipelines.withJobs(ctx, project, f.targetId);
      return { kind: 'pipeline', pipeline, jobs: js };
    }
    return { kind: 'job', job: await jobs.get(ctx, project, f.targetId) };
  }

  /** Why it failed, read as the follower; a DM without it still goes. */
  async function whyFailed(f: Follow, s: Snapshot): Promise<FollowFailures | null> {
    if (!o.failures || statusOf(s) !== 'failed') return null;
    const ctx = ctxOf(f);
    const failed = s.kind === 'pipeline' ? failedJobsOf(s.jobs) : [s.job];
    try {
      const reading: Reading = { read: (fn) => access.withClient(ctx, fn), teamId: f.teamId };
      const notes = await o.failures.explain(reading, projectOfFollow(f), failed, ctx.now);
      return { notes, more: failed.length - notes.length };
    } catch (err) {
      const error = err instanceof Error ? err.name : 'unknown';
      log.debug('could not read why a followed pipeline or job failed', { follow: f.id, error });
      return null;
    }
  }

  const statusOf = (s: Snapshot) => (s.kind === 'pipeline' ? s.pipeline.status : s.job.status);
  const drawnOf = (s: Snapshot) => (s.kind === 'pipeline' ? pipelineDrawn(s.pipeline, s.jobs) : jobDrawn(s.job));

  async function cardOf(f: Follow, s: Snapshot, line: FollowLine): Promise<SlackMessage> {
    // In the zone the card was first drawn in (its follower's), so a redraw never moves its times to UTC.
    const timeZone = (await o.timeZoneOf?.(f.userId).catch(() => null)) ?? 'UTC';
    const c = { serverUrl: o.serverUrl, now: o.now(), timeZone, notice: undefined, viewer: null };
    const project = projectOfFollow(f);
    const card =
      s.kind === 'pipeline' ? buildPipelineCard(s.pipeline, s.jobs, project, c) : buildJobCard(s.job, project, c);
    return withFollowLine(card, line);
  }

  function responseUrlOf(f: Follow): string | null {
    if (!f.sealedResponseUrl) return null;
    try {
      const url = o.sealer.open(f.sealedResponseUrl, sealedFor(f.id)).plaintext;
      registerSecret(url);
      return url;
    } catch {
      return null;
    }
  }

  /** Redraws the card; false when it could not be (a shared card gone, a response_url used up or refused). */
  async function redraw(f: Follow, message: SlackMessage): Promise<boolean> {
    try {
      if (f.card) {
        const { channel, ts } = f.card;
        // A replica that lost the lease must not draw an older state over what the new holder drew.
        return await lanes.run(channel, async () => {
          if (!(await holds(f))) return false;
          await o.slack.update(channel, ts, message);
          return true;
        });
      }
      const url = responseUrlOf(f);
      if (!url || !f.urlUntil || o.now().getTime() >= f.urlUntil.getTime()) return false;
      // The use is counted before it is spent, so that a kill in between never lets a card use more than five.
      if (!(await store.takeUse(f.id, replica, { gen: f.leaseGen, ...renewal() }))) return false;
      f.usesLeft -= 1;
      await o.slack.replace(url, message);
      return true;
    } catch (err) {
      // Never the response_url itself: it is a secret.
      log.warn('could not redraw a followed card', {
        follow: f.id,
        where: f.card ? 'channel' : 'response_url',
        error: err instanceof SlackRefusedError ? err.error : err instanceof Error ? err.name : 'unknown',
      });
      return false;
    }
  }

  /** Tells the follower once: intent → post with its key → ts → done. */
  async function tellOnce(f: Follow, outcome: string, message: SlackMessage): Promise<void> {
    const channel = f.dmChannel ?? (await o.slack.openDm(f.userId));
    const key = crypto.randomUUID();
    if (!(await store.openDm(f.id, replica, { key, channel, outcome }))) return;
    o.at?.('before-dm');
    const posted = await lanes.run(channel, async () =>
      (await holds(f)) ? o.slack.post(channel, message, { follow: f.id, key }) : null,
    );
    // The lease ran out or was taken over: the new holder finds the intent and tells the follower.
    if (!posted) {
      log.info('follow lease lost before its DM; left to the replica holding it', { follow: f.id });
      tell(o.hooks?.delivered, { kind: 'follow', outcome: 'skipped', lagMs: null });
      return;
    }
    const { ts } = posted;
    o.at?.('after-dm');
    await store.dmPosted(f.id, replica, ts);
    await store.finish(f.id, replica, { outcome, at: o.now() });
    log.info('follow finished', { follow: f.id, kind: f.kind, outcome });
    tell(o.hooks?.delivered, { kind: 'follow', outcome: 'posted', lagMs: null });
  }

  /** A follow taken over with its DM's intent open: found in the DM → done; not found → told again. */
  async function settle(f: Follow): Promise<'done' | 'again' | 'later'> {
    if (f.dmTs) {
      await store.finish(f.id, replica, { outcome: f.outcome ?? 'done', at: o.now() });
      return 'done';
    }
    if (!f.dmKey || !f.dmChannel) return 'again';
    const found = await o.slack.findDone(f.dmChannel, { follow: f.id, key: f.dmKey });
    if (found.found === 'unknown') return 'later';
    if (!found.found) return 'again';
    await store.dmPosted(f.id, replica, found.ts);
    await store.finish(f.id, replica, { outcome: f.outcome ?? 'done', at: o.now() });
    log.info('follow settled', { follow: f.id, outcome: f.outcome });
    return 'done';
  }

  const later = (f: Follow, at: Date) =>
    store.drawn(f.id, replica, { drawn: f.drawn, drawnAt: f.drawnAt, nextPollAt: at });

  async function stop(f: Follow, why: 'expired' | 'token' | 'no_token' | 'gone', s: Snapshot | null): Promise<void> {
    const project = projectOfFollow(f);
    if (s)
      await redraw(
        f,
        await cardOf(f, s, why === 'expired' ? { kind: 'expired' } : { kind: 'stopped', why: 'see your DMs' }),
      );
    const what = {
      kind: f.kind,
      id: f.targetId,
      ref: f.ref,
      project,
      url:
        f.kind === 'pipeline'
          ? pipelineUrl(o.serverUrl, project, { id: f.targetId })
          : jobUrl(o.serverUrl, project, { id: f.targetId }),
    };
    // The outcome kept is the refusal, however the person was told it.
    await tellOnce(f, why === 'no_token' ? 'token' : why, buildFollowStoppedDm(what, why, o.slashCommand));
  }

  async function pollOne(f: Follow): Promise<void> {
    const now = o.now();
    if (f.dmKey || f.dmTs) {
      const settled = await settle(f);
      if (settled === 'done') return;
      if (settled === 'later') return later(f, new Date(now.getTime() + pollMs));
    }
    let s: Snapshot;
    try {
      s = await read(f);
    } catch (err) {
      if (err instanceof TokenRevokedError) return stop(f, 'token', null);
      if (err instanceof NotConnectedError || err instanceof TokenUnreadableError) return stop(f, 'no_token', null);
      if (err instanceof NotFoundError || err instanceof ForbiddenError) return stop(f, 'gone', null);
      if (!(err instanceof GitlabError) && !(err instanceof BudgetExhaustedError)) throw err;
      // The server is slow or down, or the budget is spent: the next poll tries again (until the deadline).
      if (now.getTime() >= f.deadline.getTime()) return stop(f, 'expired', null);
      log.debug('could not read a followed pipeline or job; trying again', { follow: f.id, error: err.name });
      return later(f, new Date(now.getTime() + pollMs));
    }
    const drawn = drawnOf(s);
    const before = decodeDrawn(f.drawn);
    const finished = DONE_STATUSES.has(statusOf(s));
    const shared = f.card !== null;
    const throttledUntil = shared && f.drawnAt ? f.drawnAt.getTime() + shareEveryMs : 0;
    const changed = shared ? before?.full !== drawn.full : before?.milestone !== drawn.milestone;

    if (finished) {
      if (before?.full !== drawn.full || !shared) {
        // A shared card keeps to its pace even for its last redraw: the end waits a moment for it.
        if (shared && now.getTime() < throttledUntil) return later(f, new Date(throttledUntil));
        await redraw(f, await cardOf(f, s, { kind: 'done' }));
      }
      const followed: Followed =
        s.kind === 'pipeline'
          ? { kind: 'pipeline', project: projectOfFollow(f), pipeline: s.pipeline, jobs: s.jobs }
          : { kind: 'job', project: projectOfFollow(f), job: s.job };
      return tellOnce(f, statusOf(s), buildFollowDoneDm(followed, o.serverUrl, await whyFailed(f, s)));
    }
    if (now.getTime() >= f.deadline.getTime()) return stop(f, 'expired', s);

    let shown = f.drawn;
    let shownAt = f.drawnAt;
    if (changed) {
      if (shared && now.getTime() < throttledUntil) return later(f, new Date(throttledUntil));
      // An ephemeral card keeps its last use for the end.
      const mayDraw = shared || f.usesLeft > 1;
      if (mayDraw && (await redraw(f, await cardOf(f, s, { kind: 'following', shared })))) {
        shown = encodeDrawn(drawn);
        shownAt = now;
      }
    }
    await store.drawn(f.id, replica, { drawn: shown, drawnAt: shownAt, nextPollAt: new Date(now.getTime() + pollMs) });
  }

  async function pollDue(opts: { all?: boolean } = {}): Promise<number> {
    let polled = 0;
    for (;;) {
      if (stopping) return polled;
      const now = o.now();
      const dueBy = opts.all ? new Date(now.getTime() + 366 * 86_400_000) : now;
      const claimed = await store.claimDue(replica, {
        dueBy,
        now,
        until: new Date(now.getTime() + leaseMs),
        limit: CLAIM_BATCH,
      });
      if (claimed.length === 0) return polled;
      await Promise.all(
        claimed.map(async (f) => {
          try {
            await pollOne(f);
          } catch (err) {
            log.error('unexpected error while following', {
              follow: f.id,
              error: err instanceof Error ? err : new Error(String(err)),
            });
            await later(f, new Date(o.now().getTime() + pollMs)).catch(() => undefined);
          }
        }),
      );
      polled += claimed.length;
      // With `all`, each follow is polled once: what was just polled is due again only after the interval.
      if (opts.all || claimed.length < CLAIM_BATCH) return polled;
    }
  }

  let pollTimer: NodeJS.Timeout | null = null;
  let renewTimer: NodeJS.Timeout | null = null;
  let polling: Promise<unknown> | null = null;
  let lastPrune = 0;

  function tick(): void {
    if (stopping || polling) return;
    polling = (async () => {
      await pollDue();
      const now = o.now().getTime();
      if (now - lastPrune > 60 * 60 * 1000) {
        lastPrune = now;
        await store.prune(new Date(now - KEEP_MS));
      }
    })()
      .catch((err: unknown) => log.warn('following: a poll failed; trying again later', { error: String(err) }))
      .finally(() => {
        polling = null;
      });
    inFlight.add(polling);
    void polling.finally(() => inFlight.delete(polling as Promise<unknown>));
  }

  return {
    store,
    async start(s) {
      const now = o.now();
      const ephemeral = s.card.kind === 'ephemeral' ? s.card : null;
      await store.create(
        {
          teamId: s.ctx.actor.teamId,
          userId: s.ctx.actor.userId,
          kind: s.kind,
          projectKey: String(s.project.key),
          projectPath: s.project.path,
          targetId: s.id,
          ref: s.ref,
          channelId: s.ctx.channelId,
          card: s.card.kind === 'shared' ? { channel: s.card.channel, ts: s.card.ts } : null,
          sealedResponseUrl: null,
          usesLeft: ephemeral ? Math.max(0, RESPONSE_URL_USES - ephemeral.usesSpent) : 0,
          urlUntil: ephemeral ? new Date(now.getTime() + RESPONSE_URL_MS - pollMs) : null,
          drawn: s.drawn ? encodeDrawn(s.drawn) : null,
          nextPollAt: new Date(now.getTime() + pollMs),
          deadline: new Date(now.getTime() + deadlineMs),
          createdAt: now,
        },
        ephemeral ? (id) => o.sealer.seal(ephemeral.responseUrl, sealedFor(id)).value : undefined,
      );
    },
    async postCard(channel, message) {
      try {
        return await o.slack.post(channel, message);
      } catch (err) {
        if (err instanceof SlackRefusedError && CHANNEL_ERRORS.has(err.error)) return { refused: err.error };
        throw err;
      }
    },
    pollDue,
    startTimers() {
      if ((o.timer ?? 'interval') !== 'interval') return;
      pollTimer = setInterval(tick, Math.max(100, Math.min(pollMs, 5000)));
      pollTimer.unref();
      renewTimer = setInterval(
        () => {
          if (!polling) return;
          void store
            .renew(replica, new Date(o.now().getTime() + leaseMs))
            .catch((err: unknown) => log.warn('could not renew follow leases', { error: String(err) }));
        },
        Math.max(100, Math.floor(leaseMs / 3)),
      );
      renewTimer.unref();
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      if (pollTimer) clearInterval(pollTimer);
      if (renewTimer) clearInterval(renewTimer);
      await Promise.allSettled([...inFlight]);
      await store.releaseAll(replica).catch(() => undefined);
    },
  };
}
