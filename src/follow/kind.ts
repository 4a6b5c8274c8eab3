import crypto from 'node:crypto';
import type { Busy, Polled, PolledKind } from '../delivery/polled.js';
import { asError, errorName, type RunSteps, readFailureOf } from '../delivery/steps.js';
import { type Project, projectOf } from '../gitlab/project.js';
import type { Job, Pipeline } from '../gitlab/schemas.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import type { FailureReader, Reading } from '../operations/failures.js';
import { createJobOperations } from '../operations/jobs.js';
import { createPipelineOperations } from '../operations/pipelines.js';
import { registerSecret } from '../redact.js';
import type { Follow, FollowStore } from '../store/follow-store.js';
import type { Sealer } from '../store/sealer.js';
import type { SlackMessage } from '../views/blocks.js';
import {
  buildFollowDoneDm,
  buildFollowPausedDm,
  buildFollowStoppedDm,
  type Followed,
  type FollowFailures,
  type FollowLine,
  withFollowLine,
} from '../views/follow.js';
import { buildJobCard, jobUrl } from '../views/jobs.js';
import { buildPipelineCard, failedJobsOf, pipelineUrl } from '../views/pipelines.js';
import { doneMark, type FollowSlack } from './slack.js';
import { DONE_STATUSES, decodeDrawn, encodeDrawn, jobDrawn, pipelineDrawn } from './state.js';

// Following as a polled kind of the delivery kernel (src/delivery/): what only follows know. Each poll reads the
// pipeline or job with the follower's token and redraws the card when what it shows changed: a shared card with
// chat.update (at most every few seconds), an ephemeral one through its response_url at the changes that matter,
// never using it more than Slack allows. At the end the follower is told by DM exactly once: intent (a key) → post
// carrying the key → ts → done; a follow taken over with an open intent looks for its DM in the history first. The
// DM and every redraw are fenced by the follow's lease (the kernel's steps); the kernel's loop claims the due follows.

/** Done follows are kept this long (their DM's key), then pruned. */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** A DM's final message is looked for among its latest messages (one page). */
const DONE_PAGES = 1;

export type FollowPoint = 'before-dm' | 'after-dm';

/** How one poll of a follow ended (`busy`: the server was in trouble, and the follow's reads back off). */
export type FollowOutcome = 'idle' | 'drawn' | 'later' | 'busy' | 'paused' | 'posted' | 'settled' | 'lost';

export interface FollowKindDeps {
  store: FollowStore;
  steps: RunSteps;
  slack: FollowSlack;
  /** This replica, as it holds leases (the polled loop's). */
  replica: string;
  /** How long a lease renewed by a fence holds. */
  leaseMs: number;
  /** Reads as the follower, through the paced transport. */
  access: GitlabAccess;
  sessionOf: (actor: Actor) => Session;
  /** Opens the response_urls sealed at rest. */
  sealer: Sealer;
  serverUrl: string;
  slashCommand: string;
  logger: Logger;
  now: () => Date;
  timeZoneOf?: (userId: string) => Promise<string>;
  /** How often a follow is read. */
  pollMs: number;
  /** A shared card is redrawn at most this often. */
  shareEveryMs: number;
  failures?: FailureReader;
  at?: (point: FollowPoint) => void;
}

type Snapshot = { kind: 'pipeline'; pipeline: Pipeline; jobs: Job[] } | { kind: 'job'; job: Job };

export const sealedFor = (id: number) => `follow:${id}`;

export function createFollowKind(o: FollowKindDeps): PolledKind<Follow, undefined, never, { kind: FollowOutcome }> {
  const { store, steps, replica, pollMs, shareEveryMs } = o;
  const log = o.logger;
  const access = o.access;
  const pipelines = createPipelineOperations({ access });
  const jobs = createJobOperations({ access });

  /** The lease renewal that fences a use of the response_url: until when, from now. */
  const renewal = () => {
    const now = o.now();
    return { now, until: new Date(now.getTime() + o.leaseMs) };
  };
  /** The follow and the lease its poll holds (what every post and redraw of the poll is fenced with). */
  const heldOf = (f: Follow) => ({ key: f.id, held: { owner: replica, gen: f.leaseGen } });

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
    // Drawn for the readers it was first drawn for, so a redraw never moves its times: a card in the channel for
    // every reader (views/format.ts), an ephemeral one in its follower's zone.
    const shared = f.card !== null;
    const timeZone = shared ? 'UTC' : ((await o.timeZoneOf?.(f.userId).catch(() => null)) ?? 'UTC');
    const c = { serverUrl: o.serverUrl, now: o.now(), timeZone, shared, notice: undefined, viewer: null };
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
        const drawn = await steps.fenced(channel, heldOf(f), async () => {
          await steps.update(channel, ts, message);
          return true;
        });
        return drawn === true;
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
        error: errorName(err),
      });
      return false;
    }
  }

  /** Tells the follower once: intent → post with its key → ts → done. */
  async function tellOnce(f: Follow, outcome: string, message: SlackMessage): Promise<FollowOutcome> {
    const channel = f.dmChannel ?? (await steps.openDm(f.userId));
    const key = crypto.randomUUID();
    if (!(await store.openDm(f.id, replica, { key, channel, outcome }))) return 'lost';
    o.at?.('before-dm');
    const posted = await steps.postOnce(channel, message, { ...heldOf(f), mark: doneMark(f.id, key) });
    // The lease ran out or was taken over: the new holder finds the intent and tells the follower.
    if (!posted) {
      log.info('follow lease lost before its DM; left to the replica holding it', { follow: f.id });
      return 'lost';
    }
    const { ts } = posted;
    o.at?.('after-dm');
    await store.dmPosted(f.id, replica, ts);
    await store.finish(f.id, replica, { outcome, at: o.now() });
    log.info('follow finished', { follow: f.id, kind: f.kind, outcome });
    return 'posted';
  }

  /** A follow taken over with its DM's intent open: found in the DM → done; not found → told again. */
  async function settle(f: Follow): Promise<'done' | 'again' | 'later'> {
    if (f.dmTs) {
      await store.finish(f.id, replica, { outcome: f.outcome ?? 'done', at: o.now() });
      return 'done';
    }
    if (!f.dmKey || !f.dmChannel) return 'again';
    const found = await steps.lookFor(f.dmChannel, doneMark(f.id, f.dmKey), { pages: DONE_PAGES });
    if (found.found === 'later') return 'later';
    if (!found.found) return 'again';
    await store.dmPosted(f.id, replica, found.ts);
    await store.finish(f.id, replica, { outcome: f.outcome ?? 'done', at: o.now() });
    log.info('follow settled', { follow: f.id, outcome: f.outcome });
    return 'done';
  }

  const later = async (f: Follow, at: Date): Promise<FollowOutcome> => {
    await store.drawn(f.id, replica, { drawn: f.drawn, drawnAt: f.drawnAt, nextPollAt: at });
    return 'later';
  };

  /** What a follow follows, as its DMs name it. */
  const followedOf = (f: Follow) => {
    const project = projectOfFollow(f);
    return {
      kind: f.kind,
      id: f.targetId,
      ref: f.ref,
      project,
      url:
        f.kind === 'pipeline'
          ? pipelineUrl(o.serverUrl, project, { id: f.targetId })
          : jobUrl(o.serverUrl, project, { id: f.targetId }),
    };
  };

  /**
   * The server refused the follower's token: a refusal may be the server's trouble, so the follow waits for the
   * server to accept the token again (its follower told once). The kernel asks the server about the token by itself
   * with back-off (1, 2, 4… minutes: delivery/token-rechecks.ts) and makes the follow due when it is accepted (or
   * when the follower connects again); otherwise it is read once more at its deadline, and stops then.
   */
  async function pauseForToken(f: Follow, now: Date): Promise<FollowOutcome> {
    if (now.getTime() >= f.deadline.getTime()) return stop(f, 'token', null);
    if (await store.pauseForToken(f.id, replica, f.deadline)) {
      await steps.dm(f.userId, buildFollowPausedDm(followedOf(f)), 'token', f.dmChannel);
    }
    return 'paused';
  }

  async function stop(
    f: Follow,
    why: 'expired' | 'token' | 'no_token' | 'gone',
    s: Snapshot | null,
  ): Promise<FollowOutcome> {
    if (s)
      await redraw(
        f,
        await cardOf(f, s, why === 'expired' ? { kind: 'expired' } : { kind: 'stopped', why: 'see your DMs' }),
      );
    const what = followedOf(f);
    // The outcome kept is the refusal, however the person was told it.
    return tellOnce(f, why === 'no_token' ? 'token' : why, buildFollowStoppedDm(what, why, o.slashCommand));
  }

  async function pollOne(f: Follow): Promise<FollowOutcome | Busy> {
    const now = o.now();
    if (f.dmKey || f.dmTs) {
      const settled = await settle(f);
      if (settled === 'done') return 'settled';
      if (settled === 'later') return later(f, new Date(now.getTime() + pollMs));
    }
    let s: Snapshot;
    try {
      s = await read(f);
    } catch (err) {
      const failure = readFailureOf(err);
      if (failure.kind === 'token') return failure.confirmed ? stop(f, 'no_token', null) : pauseForToken(f, now);
      if (failure.kind === 'refused') return stop(f, 'gone', null);
      if (failure.kind === 'failed' && failure.unexpected) throw err;
      // The server is slow or down, or the budget is spent: a later poll tries again (until the deadline), the kernel
      // backing the follow off while the server stays busy.
      if (now.getTime() >= f.deadline.getTime()) return stop(f, 'expired', null);
      log.debug('could not read a followed pipeline or job; trying again', { follow: f.id, error: failure.error });
      await later(f, new Date(now.getTime() + pollMs));
      return failure.kind === 'busy' ? { retryAfterMs: failure.retryAfterMs } : 'later';
    }
    // The server accepts the token again: the follow goes on from here.
    if (f.outcome === 'token') await store.resumeFromToken(f.id, replica);
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
    return changed ? 'drawn' : 'idle';
  }

  return {
    behindLine: 'follow polls are behind: every followed card is redrawn less often, in turn',
    claimDue: ({ owner, ...due }) => store.claimDue(owner, due),
    keyOf: (f) => f.id,
    dueAt: (f) => f.nextPollAt,
    claimOf: (f) => ({ gen: f.leaseGen, busyPolls: f.busyPolls }),
    intervalMs: pollMs,
    // A busy server never keeps a follow from its end: it is read at its deadline at the latest.
    latestPollAt: (f) => f.deadline,
    async poll(f): Promise<Polled<never, { kind: FollowOutcome }>> {
      try {
        const polled = await pollOne(f);
        if (typeof polled !== 'string') return { outcome: { kind: 'busy' }, released: true, busy: polled };
        return { outcome: { kind: polled }, released: true };
      } catch (err) {
        log.error('unexpected error while following', {
          follow: f.id,
          error: asError(err),
        });
        return { outcome: { kind: await later(f, new Date(o.now().getTime() + pollMs)) }, released: true };
      }
    },
    tidy: (now) => store.prune(new Date(now.getTime() - KEEP_MS)),
  };
}
