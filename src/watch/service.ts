import crypto from 'node:crypto';
import { type DeliveryHooks, tell } from '../delivery/hooks.js';
import { createMeteredTransport } from '../delivery/metered-transport.js';
import {
  createLimiter,
  createSharedChannelQueue,
  createSharedTokenBudget,
  type PacingClock,
  realClock,
} from '../delivery/pacing.js';
import type { Transport } from '../gitlab/http.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import type { Actor, Session } from '../operations/context.js';
import type { FailureReader } from '../operations/failures.js';
import type { WatchPoint, WatchService } from '../operations/watch-service.js';
import { readTokensByTeam } from '../store/batch-tokens.js';
import { createCronFireStore } from '../store/cron-fire-store.js';
import type { SqlEngine } from '../store/engine.js';
import { createPacingStore } from '../store/pacing-store.js';
import type { StoredToken, TokenStore } from '../store/token-store.js';
import type { ClaimedWatch, PollRecord, WatchStore } from '../store/watch-store.js';
import { buildWatchesResumedDm } from '../views/watches.js';
import { createPoller } from './poller.js';
import { encodeSeen } from './seen.js';
import type { WatchSlack } from './slack.js';

// The one watch service of an app: the store, the poller and the minute timer behind the commands and buttons.
// Every replica looks for due watches every few seconds; which replica polls a watch is decided in the database
// (its lease, taken for many due watches at once), so each watch is polled once a minute whichever replicas run.
// The server's rate-limit budget of each token and the pace of each channel are the digests' own (the same
// tables): watches and digests spend one budget together, a tenth of it kept for people's own commands.

export interface WatchServiceOptions {
  /** What the kernel's observers are told (deliveries by kind and outcome: src/delivery/hooks.ts). */
  hooks?: DeliveryHooks;
  store: WatchStore;
  /** The store port the pacing tables are written against (channel lanes, token budgets). */
  engine: SqlEngine;
  /** Why a failed pipeline's jobs failed, for its card. */
  failures?: FailureReader;
  access: GitlabAccess;
  sessionOf: (actor: Actor, stored?: StoredToken | null) => Session;
  /** Reads the token rows of a claimed batch's creators at once (without it, each session reads its own row). */
  tokens?: Pick<TokenStore, 'loadMany'>;
  slack: WatchSlack;
  /** Whether a person is a Slack workspace admin (the digests' check, cached). */
  isAdmin: (userId: string) => Promise<boolean>;
  /** The transport commands use; watches read through a paced wrapper of it. */
  transport: Transport;
  serverUrl: string;
  slashCommand: string;
  logger: Logger;
  now: () => Date;
  /** `manual` in tests and the demo: nothing polls by itself, `poll()` does. Default `interval`. */
  timer?: 'interval' | 'manual';
  /** How often each watch is polled (default 60 s). */
  intervalMs?: number;
  /** How often a replica looks for due watches (default 2 s). */
  tickMs?: number;
  /** How long a replica's lease on a watch holds without being renewed (default 60 s). */
  leaseMs?: number;
  /** Polls under way at once (default 32). */
  concurrency?: number;
  /** Due watches claimed in one statement (default 256). */
  batch?: number;
  /** Pipelines read per poll (default 20). */
  pageSize?: number;
  /** Slack's pace per channel (default 1000 ms between posts). */
  channelIntervalMs?: number;
  pacingClock?: PacingClock;
  /** The test seam: a named point of every delivery. */
  at?: (point: WatchPoint) => void;
}

/** Due watches claimed in one statement (default). */
const BATCH = 256;
/** A watch polled later than this after its time counts as behind (the once-a-minute log line). */
const BEHIND_MS = 15_000;

export function createWatchService(o: WatchServiceOptions): WatchService {
  const { store } = o;
  const log = o.logger.child({ component: 'watches' });
  const replica = crypto.randomUUID();
  const intervalMs = o.intervalMs ?? 60_000;
  const leaseMs = o.leaseMs ?? 60_000;
  const batchSize = o.batch ?? BATCH;
  const clock = o.pacingClock ?? realClock;
  const pacing = createPacingStore(o.engine);
  // A poll waits a little for its token's budget, never minutes: a watch left out now is polled at its next time.
  const budget = createSharedTokenBudget({ store: pacing, clock, maxWaitMs: 2000 });
  const access = o.access.through(createMeteredTransport(o.transport, budget));
  const limiter = createLimiter(o.concurrency ?? 32);
  const poller = createPoller({
    store,
    slack: o.slack,
    access,
    sessionOf: o.sessionOf,
    ...(o.failures ? { failures: o.failures } : {}),
    replica,
    leaseMs,
    serverUrl: o.serverUrl,
    slashCommand: o.slashCommand,
    logger: log,
    now: o.now,
    channels: createSharedChannelQueue({ store: pacing, intervalMs: o.channelIntervalMs ?? 1000, clock }),
    intervalMs,
    pageSize: o.pageSize ?? 20,
    ...(o.at ? { at: o.at } : {}),
  });

  // How far behind polling is, said at most once a minute (by one replica for all, through cron_fires).
  const fires = createCronFireStore(o.engine);
  let window = { since: o.now().getTime(), polls: 0, behind: 0, worstMs: 0 };
  function noteLateness(lateMs: number): void {
    window.polls += 1;
    if (lateMs > BEHIND_MS) {
      window.behind += 1;
      window.worstMs = Math.max(window.worstMs, lateMs);
    }
  }
  /** A clock set back starts a new minute. */
  const minuteTurned = (now: Date) => {
    const elapsed = now.getTime() - window.since;
    return !(elapsed >= 0 && elapsed < 60_000);
  };
  async function reportLateness(): Promise<void> {
    const now = o.now();
    if (!minuteTurned(now)) return;
    const seen = window;
    window = { since: now.getTime(), polls: 0, behind: 0, worstMs: 0 };
    if (seen.behind === 0) return;
    const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString();
    if (!(await fires.take(`watches behind ${minute}`, replica, now))) return;
    const backlog = await store.backlog(now, BEHIND_MS).catch(() => null);
    log.warn('watch polls are behind: every watch is polled less often than once a minute, in turn', {
      polls: seen.polls,
      behind: seen.behind,
      worstSeconds: Math.round(seen.worstMs / 1000),
      ...(backlog ? { waiting: backlog.late } : {}),
    });
  }

  let cycling: Promise<void> | null = null;
  async function cycle(all: boolean): Promise<{ polled: number; posted: number }> {
    let polled = 0;
    let posted = 0;
    for (;;) {
      // A cycle that runs on for minutes (a slow server, thousands due) says how far behind between its batches.
      if (window.behind > 0) {
        await reportLateness().catch((err: unknown) =>
          log.warn('could not count late watch polls', { error: String(err) }),
        );
      }
      const now = o.now();
      const dueBy = all ? new Date(now.getTime() + 366 * 86_400_000) : now;
      const batch = await store.claimDue({
        owner: replica,
        now,
        until: new Date(now.getTime() + leaseMs),
        limit: all ? 100_000 : batchSize,
        dueBy,
      });
      if (batch.length === 0) break;
      const idle: [number, PollRecord][] = [];
      const sessions = await sessionsOf(batch);
      await Promise.all(
        batch.map((c) =>
          limiter.run(async () => {
            noteLateness(o.now().getTime() - c.watch.nextPollAt.getTime());
            let keep = false;
            try {
              const outcome = await poller.poll(c, sessions);
              polled += 1;
              tell(o.hooks?.delivered, { kind: 'watch', outcome: outcome.kind, lagMs: null });
              if (outcome.kind === 'idle') {
                idle.push([c.watch.id, outcome.record]);
                keep = true;
              } else if (outcome.kind === 'changed') {
                posted += outcome.posted;
              } else if (outcome.kind === 'failed') {
                keep = true; // recorded and released by the poll
              }
            } catch (err) {
              log.error('unexpected error in a watch poll', {
                watch: c.watch.id,
                error: err instanceof Error ? err : new Error(String(err)),
              });
            } finally {
              if (!keep) await store.release(c.watch.id, replica).catch(() => undefined);
            }
          }),
        ),
      );
      await store.recordIdle(replica, idle);
      if (all || batch.length < batchSize) break;
    }
    await reportLateness();
    return { polled, posted };
  }

  /**
   * The sessions of a batch's creators, their token rows read with one statement per team (the poller keys them by
   * team and creator); a row this store changes meanwhile, or a read that fails, is left to the session to read.
   */
  async function sessionsOf(batch: readonly ClaimedWatch[]): Promise<Map<string, Session>> {
    const sessions = new Map<string, Session>();
    if (!o.tokens) return sessions;
    const loaded = await readTokensByTeam(
      o.tokens,
      batch.map(({ watch }) => ({ teamId: watch.teamId, userId: watch.creatorId })),
      (err) => log.warn('could not read the tokens of a watch batch', { error: String(err) }),
    );
    for (const { watch } of batch) {
      const key = `${watch.teamId}:${watch.creatorId}`;
      const stored = loaded.get(watch.teamId)?.get(watch.creatorId);
      if (stored === undefined || sessions.has(key)) continue;
      sessions.set(key, o.sessionOf({ teamId: watch.teamId, userId: watch.creatorId, userName: '' }, stored));
    }
    return sessions;
  }

  function poll(opts: { all?: boolean } = {}) {
    const run = (cycling ?? Promise.resolve()).then(() => cycle(opts.all === true));
    // The queue only orders the cycles; each caller hears how its own went (a busy database included).
    const settled: Promise<void> = run
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (cycling === settled) cycling = null;
      });
    cycling = settled;
    return run;
  }

  let tickTimer: NodeJS.Timeout | null = null;
  let renewTimer: NodeJS.Timeout | null = null;
  let stopping = false;

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
    async resumeCreator(teamId, creatorId, how = 'connected') {
      const now = o.now();
      const resumed = await store.resumeCreator({ teamId, creatorId, reasons: ['token'], nextPollAt: now, now });
      if (resumed.length > 0) {
        log.info('watches resumed after their token worked again', { count: resumed.length, how });
        // Told once: whoever resumed them (a connect, or a re-check that found the token accepted) says so.
        try {
          const dm = await o.slack.openDm(creatorId);
          await o.slack.post(dm, buildWatchesResumedDm(resumed, how));
        } catch (err) {
          log.warn('could not tell a person their watches resumed', { user: creatorId, error: String(err) });
        }
      }
      return resumed;
    },
    isAdmin: (userId) => o.isAdmin(userId),
    poll,
    async start() {
      if ((o.timer ?? 'interval') !== 'interval') return;
      const tickMs = o.tickMs ?? 2000;
      tickTimer = setInterval(() => {
        if (stopping || cycling) return;
        poll().catch((err: unknown) => log.warn('watch poll failed; trying again', { error: String(err) }));
      }, tickMs);
      tickTimer.unref();
      // A replica's leases hold as long as it lives: renewed while it polls or delivers.
      renewTimer = setInterval(
        () => {
          if (!cycling) return;
          void store
            .renew(replica, new Date(o.now().getTime() + leaseMs))
            .catch((err: unknown) => log.warn('could not renew watch leases', { error: String(err) }));
        },
        Math.max(100, Math.floor(leaseMs / 3)),
      );
      renewTimer.unref();
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      if (tickTimer) clearInterval(tickTimer);
      if (renewTimer) clearInterval(renewTimer);
      await cycling?.catch(() => undefined);
      await store.releaseAll(replica).catch(() => undefined);
    },
  };
}
