import { createPolledDelivery, type PolledWiring, wiringOf } from '../delivery/polled.js';
import { CHANNEL_ERRORS, SlackRefusedError } from '../delivery/slack.js';
import type { Project } from '../gitlab/project.js';
import type { Logger } from '../log.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import type { FailureReader } from '../operations/failures.js';
import { createFollowStore, type FollowStore } from '../store/follow-store.js';
import type { Sealer } from '../store/sealer.js';
import type { SlackMessage } from '../views/blocks.js';
import { createFollowKind, type FollowPoint, sealedFor } from './kind.js';
import type { FollowSlack } from './slack.js';
import { type Drawn, encodeDrawn } from './state.js';

// Cards that follow a pipeline or a job: following as a polled kind of the delivery kernel (kind.ts, on
// delivery/polled.ts). A follow is a row (store/follow-store.ts); every replica looks for the rows that are due,
// each claimed by one replica with a lease, so a follow goes on after a restart or a replica's death. Reads go
// through the app's one access, paced by the budget digests share.

export type { FollowPoint } from './kind.js';

/** Slack allows this many uses of a response_url. */
export const RESPONSE_URL_USES = 5;
/** …within this long of the command or click that made it. */
const RESPONSE_URL_MS = 30 * 60 * 1000;
/** How many follows one poll claims at once. */
const CLAIM_BATCH = 50;

export interface FollowServiceOptions extends PolledWiring {
  sessionOf: (actor: Actor) => Session;
  slack: FollowSlack;
  /** Seals response_urls at rest: they let anyone post to the person for half an hour. */
  sealer: Sealer;
  serverUrl: string;
  slashCommand: string;
  logger: Logger;
  /** The follower's Slack time zone: a redraw shows times as the card they were answered did (UTC when unknown). */
  timeZoneOf?: (userId: string) => Promise<string>;
  /** How often a follow is read (default 10 s). */
  pollMs?: number;
  /** A shared card is redrawn at most this often (default 3 s). */
  shareEveryMs?: number;
  /** How long a card follows at most (default an hour). */
  deadlineMs?: number;
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
  /**
   * The server accepts the follower's token again (a re-check, or a connect): their follows that wait for it are
   * read at once; resolves with how many.
   */
  resumeOwner(teamId: string, userId: string): Promise<number>;
  /** Polls what is due (everything not held elsewhere with `all`); resolves with how many were polled. */
  pollDue(o?: { all?: boolean }): Promise<number>;
  startTimers(): void;
  stop(): Promise<void>;
  readonly store: FollowStore;
}

export function createFollowService(o: FollowServiceOptions): FollowService {
  const log = o.logger.child({ component: 'follows' });
  const store = createFollowStore(o.engine);
  const pollMs = o.pollMs ?? 10_000;
  const deadlineMs = o.deadlineMs ?? 60 * 60 * 1000;
  const delivery = createPolledDelivery({
    name: 'follow',
    table: 'follows',
    kind: ({ access, steps, replica, leaseMs }) =>
      createFollowKind({
        store,
        steps,
        slack: o.slack,
        replica,
        leaseMs,
        access,
        sessionOf: o.sessionOf,
        sealer: o.sealer,
        serverUrl: o.serverUrl,
        slashCommand: o.slashCommand,
        logger: log,
        now: o.now,
        pollMs,
        shareEveryMs: o.shareEveryMs ?? 3000,
        ...(o.timeZoneOf ? { timeZoneOf: o.timeZoneOf } : {}),
        ...(o.failures ? { failures: o.failures } : {}),
        ...(o.at ? { at: o.at } : {}),
      }),
    ...wiringOf(o),
    logger: log,
    tickMs: Math.max(100, Math.min(pollMs, 5000)),
    concurrency: CLAIM_BATCH,
    batch: CLAIM_BATCH,
    // Follows a refused token paused: their followers' tokens are asked about with back-off, as alerts' and watches'.
    tokenPaused: {
      owners: async () => (await store.tokenPaused()).map((p) => ({ teamId: p.teamId, ownerId: p.userId })),
      resume: (p) => resumeOwner(p.teamId, p.ownerId),
    },
  });

  async function resumeOwner(teamId: string, userId: string): Promise<number> {
    const due = await store.dueAfterToken(teamId, userId, o.now());
    if (due > 0) log.info('follows read again after their token worked again', { count: due });
    return due;
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
    resumeOwner,
    async pollDue(opts = {}) {
      return (await delivery.pass(opts)).length;
    },
    startTimers: () => delivery.start(),
    stop: () => delivery.stop(),
  };
}
