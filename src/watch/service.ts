import { createPolledDelivery, type PolledWiring, wiringOf } from '../delivery/polled.js';
import type { Logger } from '../log.js';
import type { Actor, Session } from '../operations/context.js';
import type { FailureReader } from '../operations/failures.js';
import type { WatchPoint, WatchService } from '../operations/watch-service.js';
import type { StoredToken, TokenStore } from '../store/token-store.js';
import type { WatchStore } from '../store/watch-store.js';
import { buildWatchesResumedDm } from '../views/watches.js';
import { createWatchKind } from './kind.js';
import { encodeSeen } from './seen.js';

// The one watch service of an app: pipeline watches as a polled kind of the delivery kernel (kind.ts, on
// delivery/polled.ts) behind the commands and buttons. Every replica looks for due watches every few seconds;
// which replica polls a watch is decided in the database (its lease, taken for many due watches at once), so each
// watch is polled once a minute whichever replicas run. The server's rate-limit budget of each token and the pace
// of each channel are the digests' own (the same tables): watches and digests spend one budget together, a tenth
// of it kept for people's own commands.

export interface WatchServiceOptions extends PolledWiring {
  store: WatchStore;
  /** Why a failed pipeline's jobs failed, for its card. */
  failures?: FailureReader;
  sessionOf: (actor: Actor, stored?: StoredToken | null) => Session;
  /** Reads the token rows of a claimed batch's creators at once (without it, each session reads its own row). */
  tokens?: Pick<TokenStore, 'loadMany'>;
  /** Whether a person is a Slack workspace admin (the digests' check, cached). */
  isAdmin: (userId: string) => Promise<boolean>;
  serverUrl: string;
  slashCommand: string;
  logger: Logger;
  /** How often each watch is polled (default 60 s). */
  intervalMs?: number;
  /** How often a replica looks for due watches (default 2 s). */
  tickMs?: number;
  /** Polls under way at once (default 32). */
  concurrency?: number;
  /** Due watches claimed in one statement (default 256). */
  batch?: number;
  /** Pipelines read per poll (default 20). */
  pageSize?: number;
  /** The test seam: a named point of every delivery. */
  at?: (point: WatchPoint) => void;
}

/** Due watches claimed in one statement (default). */
const BATCH = 256;

export function createWatchService(o: WatchServiceOptions): WatchService {
  const { store } = o;
  const log = o.logger.child({ component: 'watches' });
  const intervalMs = o.intervalMs ?? 60_000;
  const delivery = createPolledDelivery({
    name: 'watch',
    table: 'watches',
    kind: ({ access, steps }) =>
      createWatchKind({
        store,
        steps,
        access,
        sessionOf: o.sessionOf,
        ...(o.tokens ? { tokens: o.tokens } : {}),
        ...(o.failures ? { failures: o.failures } : {}),
        serverUrl: o.serverUrl,
        slashCommand: o.slashCommand,
        logger: log,
        now: o.now,
        intervalMs,
        pageSize: o.pageSize ?? 20,
        ...(o.at ? { at: o.at } : {}),
      }),
    ...wiringOf(o),
    // A poll waits a little for its token's budget, never minutes: a watch left out now is polled at its next time.
    budgetWaitMs: 2000,
    logger: log,
    tickMs: o.tickMs ?? 2000,
    concurrency: o.concurrency ?? 32,
    batch: o.batch ?? BATCH,
    tokenPaused: {
      owners: async () => (await store.tokenPaused()).map((p) => ({ teamId: p.teamId, ownerId: p.userId })),
      resume: (p) => resumeCreator(p.teamId, p.ownerId, 'accepted'),
    },
  });
  const { steps } = delivery;

  /** Watches a refused token paused poll again at once (what finished meanwhile is posted), told once. */
  async function resumeCreator(teamId: string, creatorId: string, how: 'connected' | 'accepted' = 'connected') {
    const now = o.now();
    const resumed = await store.resumeCreator({ teamId, creatorId, reasons: ['token'], nextPollAt: now, now });
    if (resumed.length > 0) {
      log.info('watches resumed after their token worked again', { count: resumed.length, how });
      // Told once: whoever resumed them (a connect, or a re-check that found the token accepted) says so.
      await steps.dm(creatorId, buildWatchesResumedDm(resumed, how), 'resumed');
    }
    return resumed;
  }

  async function poll(opts: { all?: boolean } = {}): Promise<{ polled: number; posted: number }> {
    const polled = await delivery.pass(opts);
    let posted = 0;
    for (const { outcome } of polled) if (outcome.kind === 'changed') posted += outcome.posted;
    return { polled: polled.length, posted };
  }

  return {
    async create(input) {
      const same = await store.findSame(input);
      if (same) return { watch: same, created: false };
      const now = o.now();
      const watch = await store.create(
        {
          teamId: input.teamId,
          channelId: input.channelId,
          creatorId: input.creatorId,
          project: input.project,
          ref: input.ref,
          statusFilter: input.statusFilter,
          seen: encodeSeen(input.baseline),
          floorId: input.baseline.reduce((max, p) => Math.max(max, p.id), 0),
          nextPollAt: new Date(now.getTime() + intervalMs),
        },
        now,
      );
      return { watch, created: true };
    },
    get: (id) => store.get(id),
    listForChannel: (teamId, channelId) => store.listForChannel(teamId, channelId),
    listForCreator: (teamId, creatorId) => store.listForCreator(teamId, creatorId),
    pause: (id, by) => store.pause(id, 'person', by, o.now()),
    // A resumed watch is polled at once: what finished while it was paused is posted then.
    resume: (id) => store.resume(id, o.now(), o.now()),
    remove: (id) => store.remove(id),
    resumeCreator,
    isAdmin: (userId) => o.isAdmin(userId),
    poll,
    async start() {
      delivery.start();
    },
    stop: () => delivery.stop(),
  };
}
