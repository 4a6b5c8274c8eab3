import crypto from 'node:crypto';
import { createTask, type ScheduledTask } from 'node-cron';
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
import type { AlertPoint, AlertService, PollOutcome } from '../operations/alert-service.js';
import type { Actor, Session } from '../operations/context.js';
import type { FailureReader } from '../operations/failures.js';
import { type ClaimedAlert, createAlertStore } from '../store/alert-store.js';
import { readTokensByTeam } from '../store/batch-tokens.js';
import { createCronFireStore } from '../store/cron-fire-store.js';
import type { SqlEngine } from '../store/engine.js';
import { createPacingStore } from '../store/pacing-store.js';
import type { StoredToken, TokenStore } from '../store/token-store.js';
import { buildAlertsResumedDm } from '../views/alerts.js';
import { createPoller } from './poller.js';
import type { AlertSlack } from './slack.js';
import { nextSpreadPoll } from './spread.js';

// The one alert service of an app: every two seconds (node-cron) each replica takes batches of the people whose poll
// is due, oldest first, each under a lease (one conditional update per batch; a tick with nobody due only reads),
// and polls them a few at a time through the same paced transport, token budgets and channel lanes as digests
// (shared by replicas in the database). Each person is due once a minute at an offset of their own (spread.ts), so
// the minute's polls are spread across it. When a minute is not enough (a slow server), the pass goes on in the same
// order, so everyone is polled less often and nobody is starved, and one line a minute (one replica, through
// cron_fires) says how far behind.

const MINUTE = 60_000;

export interface AlertServiceOptions {
  /** What the kernel's observers are told (deliveries by kind and outcome: src/delivery/hooks.ts). */
  hooks?: DeliveryHooks;
  engine: SqlEngine;
  access: GitlabAccess;
  /** A person's session, from their token row when the batch read it already. */
  sessionOf: (actor: Actor, stored?: StoredToken | null) => Session;
  /** Reads the token rows of a claimed batch with one statement. */
  tokens: Pick<TokenStore, 'loadMany'>;
  slack: AlertSlack;
  /** The transport commands use; polls read through a paced wrapper of it. */
  transport: Transport;
  /** Why a build failed, for a `build_failed` todo's DM. */
  failures?: FailureReader;
  serverUrl: string;
  logger: Logger;
  now: () => Date;
  /** `manual` in tests: nothing polls by itself (tests call pollDue with their clock). Default `cron`. */
  timer?: 'cron' | 'manual';
  /** Polls under way at once (default 16). */
  concurrency?: number;
  /** People taken per claim (default 200). */
  batch?: number;
  /** How long a replica's lease on a person's poll holds without being renewed (default 60 s). */
  leaseMs?: number;
  /** Slack's pace per channel (default 1000 ms between posts). */
  channelIntervalMs?: number;
  pacingClock?: PacingClock;
  /** The test seam: a named point of every delivery. */
  at?: (point: AlertPoint) => void;
  /** The seconds field of the tick schedule (default: every 2 s)… */
  testSeconds?: string;
  /** …and the time between two polls of a person that goes with it (default a minute). */
  pollIntervalMs?: number;
}

export function createAlertService(o: AlertServiceOptions): AlertService {
  const log = o.logger.child({ component: 'alerts' });
  const replica = crypto.randomUUID();
  const mode = o.timer ?? 'cron';
  const clock = o.pacingClock ?? realClock;
  const leaseMs = o.leaseMs ?? 60_000;
  const batchSize = o.batch ?? 200;
  const interval = o.pollIntervalMs ?? MINUTE;
  const store = createAlertStore(o.engine);
  const fires = createCronFireStore(o.engine);
  const pacing = createPacingStore(o.engine);
  const budget = createSharedTokenBudget({ store: pacing, clock });
  const limiter = createLimiter(o.concurrency ?? 16);
  const poller = createPoller({
    store,
    slack: o.slack,
    access: o.access.through(createMeteredTransport(o.transport, budget)),
    sessionOf: o.sessionOf,
    channels: createSharedChannelQueue({ store: pacing, intervalMs: o.channelIntervalMs ?? 1000, clock }),
    serverUrl: o.serverUrl,
    logger: log,
    now: o.now,
    lease: { owner: replica, ms: leaseMs },
    ...(o.at ? { at: o.at } : {}),
    ...(o.failures ? { failures: o.failures } : {}),
  });

  // Finished polls are written many to a statement: at the minute thousands end within seconds.
  type Finished = readonly [string, string, { at: Date; nextPollAt: Date; result: string }];
  let unwritten: Finished[] = [];
  async function flush(): Promise<void> {
    if (unwritten.length === 0) return;
    const batch = unwritten;
    unwritten = [];
    await store.recordPolls(replica, batch);
  }

  /** The batch's token rows, one read per team (a row this replica changes meanwhile is read again by its poll). */
  const tokensOf = (claimed: readonly ClaimedAlert[]) =>
    readTokensByTeam(
      o.tokens,
      claimed.map((c) => c.setting),
      (err) => log.warn('could not read the tokens of an alert batch', { error: String(err) }),
    );

  let stopping = false;
  let polledThisMinute = 0;
  let reportedMinute = Number.NaN;
  async function pass(): Promise<{ teamId: string; userId: string; outcome: PollOutcome }[]> {
    const out: { teamId: string; userId: string; outcome: PollOutcome }[] = [];
    while (!stopping) {
      const now = o.now();
      // A pass that runs on past the minute (a slow server) says so as each minute turns, not once per poll.
      await reportBacklog(now).catch((err: unknown) =>
        log.warn('could not count overdue alert polls', { error: String(err) }),
      );
      const claimed = await store.claimDue(replica, now, new Date(now.getTime() + leaseMs), batchSize);
      if (claimed.length === 0) break;
      const tokens = await tokensOf(claimed);
      await Promise.all(
        claimed.map((c) =>
          limiter.run(async () => {
            const outcome = await poller.poll(c, tokens.get(c.setting.teamId)?.get(c.setting.userId));
            const at = o.now();
            const { teamId, userId } = c.setting;
            const nextPollAt = nextSpreadPoll(`${teamId}:${userId}`, c.setting.nextPollAt, at, interval);
            // A poll that lost its lease writes nothing: the row is the new holder's.
            if (outcome.kind !== 'lost') unwritten.push([teamId, userId, { at, nextPollAt, result: outcome.kind }]);
            if (unwritten.length >= 256) await flush();
            if (outcome.kind !== 'idle') {
              log.info('alert poll', {
                user: userId,
                outcome: outcome.kind,
                ...('items' in outcome ? { items: outcome.items } : {}),
                ...(outcome.kind === 'failed' ? { error: outcome.error } : {}),
              });
            }
            tell(o.hooks?.delivered, { kind: 'alert', outcome: outcome.kind, lagMs: null });
            out.push({ teamId, userId, outcome });
          }),
        ),
      );
      await flush();
      polledThisMinute += claimed.length;
    }
    return out;
  }

  /** One line a minute (for all replicas) when people wait more than a minute past their poll. */
  async function reportBacklog(now: Date): Promise<void> {
    const thisMinute = Math.floor(now.getTime() / MINUTE);
    if (thisMinute === reportedMinute) return;
    reportedMinute = thisMinute;
    const polled = polledThisMinute;
    polledThisMinute = 0;
    const b = await store.backlog(new Date(now.getTime() - interval));
    if (b.overdue === 0) return;
    const minute = new Date(thisMinute * MINUTE).toISOString();
    if (!(await fires.take(`alerts behind ${minute}`, replica, now))) return;
    log.warn('todo alert polls are behind: everyone is polled in turn, less often than each minute', {
      overdue: b.overdue,
      polling: b.polling,
      longestWaitS: b.oldest ? Math.round((now.getTime() - b.oldest.getTime()) / 1000) : 0,
      polledLastMinuteHere: polled,
    });
  }

  let running: Promise<unknown> | null = null;
  function tick(): void {
    if (stopping) return;
    const now = o.now();
    void reportBacklog(now).catch((err: unknown) =>
      log.warn('could not count overdue alert polls', { error: String(err) }),
    );
    // A pass still going on carries on in the same order: who falls due meanwhile joins its queue.
    if (running) return;
    running = pass()
      .catch((err: unknown) => log.warn('an alert poll pass failed; the next tick tries again', { error: String(err) }))
      .finally(() => {
        running = null;
      });
  }

  async function pollDue() {
    await reportBacklog(o.now()).catch((err: unknown) =>
      log.warn('could not count overdue alert polls', { error: String(err) }),
    );
    const out = await pass();
    await flush();
    return out;
  }

  let task: ScheduledTask | null = null;
  let renewTimer: NodeJS.Timeout | null = null;

  return {
    get: (teamId, userId) => store.get(teamId, userId),
    enable: (input, seenTodoId) => store.enable(input, seenTodoId, o.now()),
    disable: (teamId, userId) => store.disable(teamId, userId, o.now()),
    async resumeOwner(teamId, userId, how = 'connected') {
      const resumed = await store.resumeAfterToken(teamId, userId, o.now());
      // Told once: whoever resumed them (a connect, or a re-check that found the token accepted) says so.
      if (resumed) {
        try {
          const dm = await o.slack.openDm(userId);
          await o.slack.post(dm, buildAlertsResumedDm(how));
        } catch (err) {
          log.warn('could not tell a person their alerts resumed', { user: userId, error: String(err) });
        }
      }
      return resumed;
    },
    pollDue,
    async pollNow() {
      await store.makeDue(o.now());
      return pollDue();
    },
    async start() {
      if (mode !== 'cron') return;
      const pattern = `${o.testSeconds ?? '*/2'} * * * * *`;
      task = createTask(pattern, () => tick(), { name: 'alerts poll' });
      void task.start();
      renewTimer = setInterval(
        () => {
          if (!running) return;
          void store
            .renew(replica, new Date(o.now().getTime() + leaseMs))
            .catch((err: unknown) => log.warn('could not renew alert leases', { error: String(err) }));
        },
        Math.max(100, Math.floor(leaseMs / 3)),
      );
      renewTimer.unref();
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      if (task) await task.destroy();
      if (renewTimer) clearInterval(renewTimer);
      await running;
      await flush().catch(() => undefined);
      await store.releaseAll(replica).catch(() => undefined);
    },
  };
}
