import crypto from 'node:crypto';
import type { RunCoordinator } from 'node-cron';
import { InvalidInputError } from '../errors.js';
import type { Transport } from '../gitlab/http.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import { createCronFireStore } from '../store/cron-fire-store.js';
import { createDigestLeaseStore } from '../store/digest-lease-store.js';
import type { Digest, DigestStore } from '../store/digest-store.js';
import type { SqlEngine } from '../store/engine.js';
import { createPacingStore } from '../store/pacing-store.js';
import { buildResumedDm } from '../views/digest-notices.js';
import { md } from '../views/mrkdwn.js';
import { checkCron, checkZone, nextRunAfter } from './cron.js';
import { createMeteredTransport } from './metered-transport.js';
import {
  createLimiter,
  createSharedChannelQueue,
  createSharedTokenBudget,
  type PacingClock,
  realClock,
} from './pacing.js';
import { createRunner } from './runner.js';
import { createDigestScheduler } from './scheduler.js';
import type { DigestSlack } from './slack.js';
import type { DigestService, RunOutcome, RunPoint } from './types.js';

// The one digest service of an app: the store, the runner and the scheduler behind the commands and buttons.
// Every change that affects when a digest runs re-arms it at once on this replica; the periodic sweep arms it on
// every other within a minute. What must happen once across replicas is decided in the database: which replica
// fires a slot (cron_fires), which runs a digest (its lease), the pace of a channel and the budget of a token.

/** Fire keys, lanes and budgets are kept this long after their time, then pruned. */
const KEEP_MS = 24 * 60 * 60 * 1000;

export interface DigestServiceOptions {
  store: DigestStore;
  /** The store port the coordination tables are written against (leases, fires, lanes, budgets). */
  engine: SqlEngine;
  /** The app's access to the server: digests read through it (paced), so one judgement of 401s holds for all. */
  access: GitlabAccess;
  /** A person's session, as commands get it. */
  sessionOf: (actor: Actor) => Session;
  /** A project's path by its id, read as the person (operations' project resolution). */
  projectPath: (ctx: RequestContext, id: number) => Promise<string>;
  slack: DigestSlack;
  /** The transport commands use; digests read through a paced wrapper of it. */
  transport: Transport;
  serverUrl: string;
  slashCommand: string;
  logger: Logger;
  now: () => Date;
  /** `manual` in tests: nothing fires by itself, runs are driven with the test's clock. Default `cron`. */
  timer?: 'cron' | 'manual';
  /** Runs under way at once (default 8). */
  concurrency?: number;
  /** Spread of scheduled runs over their minute (default 50 s). */
  spreadMs?: number;
  /** Slack's pace per channel (default 1000 ms between posts). */
  channelIntervalMs?: number;
  pacingClock?: PacingClock;
  /** The test seam: a named point of every run. */
  at?: (point: RunPoint) => void;
  /** How long a replica's lease on a digest run holds without being renewed (default 60 s). */
  leaseMs?: number;
  /** How often a replica sweeps: arms what the database schedules, takes over orphaned runs (default 30 s). */
  sweepMs?: number;
  /** Tests only: a seconds field before each schedule (a slot every few seconds). */
  testSeconds?: string;
}

export function createDigestService(o: DigestServiceOptions): DigestService {
  const { store, logger } = o;
  const log = logger.child({ component: 'digests' });
  const replica = crypto.randomUUID();
  const mode = o.timer ?? 'cron';
  const clock = o.pacingClock ?? realClock;
  const leaseMs = o.leaseMs ?? 60_000;
  const sweepMs = o.sweepMs ?? 30_000;
  const spreadMs = o.spreadMs ?? 50_000;
  const leases = createDigestLeaseStore(o.engine);
  const fires = createCronFireStore(o.engine);
  const pacing = createPacingStore(o.engine);
  const budget = createSharedTokenBudget({ store: pacing, clock });
  const access = o.access.through(createMeteredTransport(o.transport, budget));
  // node-cron asks before each fire of a schedule's task: the first replica to insert the fire's key runs it.
  const coordinator: RunCoordinator = {
    shouldRun: (key) => fires.take(key, replica, o.now()),
  };
  let stopping = false;
  const scheduler = createDigestScheduler({
    mode,
    logger: log,
    spreadMs,
    coordinator,
    ...(o.testSeconds ? { testSeconds: o.testSeconds } : {}),
    fire: (id, slot) => runner.run(id, { scheduledFor: slot, reason: 'scheduled' }),
  });
  const runner = createRunner({
    store,
    slack: o.slack,
    access,
    sessionOf: o.sessionOf,
    projectPath: o.projectPath,
    leases,
    replica,
    leaseMs,
    clock,
    serverUrl: o.serverUrl,
    slashCommand: o.slashCommand,
    logger: log,
    now: o.now,
    channels: createSharedChannelQueue({ store: pacing, intervalMs: o.channelIntervalMs ?? 1000, clock }),
    limiter: createLimiter(o.concurrency ?? 8),
    ...(o.at ? { at: o.at } : {}),
    onPaused: (paused) => {
      for (const d of paused) scheduler.disarm(d.id);
    },
  });

  const nextRun = (d: Digest) => (d.active ? nextRunAfter(d.cron, d.tz, o.now()) : null);
  let markRecovered: () => void = () => {};
  const recovered = new Promise<void>((resolve) => {
    markRecovered = resolve;
  });

  /**
   * Settles runs left open and runs what is overdue, each under its lease (so whichever replicas do this at once,
   * each digest is settled or caught up by one). At start, intents nobody holds are settled and whatever is due
   * runs; in a sweep, only intents whose replica died (lease run out) and slots left unrun past their spread.
   */
  async function takeOver(o2: { atStart: boolean }): Promise<void> {
    const runs: Promise<unknown>[] = [];
    const settling = new Set<number>();
    const now = o.now();
    for (const run of await leases.orphaned(now, { released: o2.atStart })) {
      settling.add(run.digestId);
      runs.push(runner.run(run.digestId, { scheduledFor: run.scheduledFor, reason: 'recover' }));
    }
    // A digest whose time passed while no replica ran it runs once, however many times it missed.
    const dueBefore = o2.atStart ? now : new Date(now.getTime() - spreadMs - 60_000);
    for (const d of await leases.overdue(dueBefore, now, 10_000)) {
      if (settling.has(d.id)) continue;
      runs.push(runner.run(d.id, { scheduledFor: d.nextRunAt, reason: 'catch-up' }));
    }
    await Promise.allSettled(runs);
    await runner.flush();
  }

  /** Arms what the database says is scheduled, disarms what it no longer does. */
  async function reconcile(): Promise<void> {
    const scheduled = await leases.scheduled();
    const ids = new Set<number>();
    for (const s of scheduled) {
      ids.add(s.id);
      scheduler.arm({ ...s, active: true });
    }
    for (const id of scheduler.armed()) if (!ids.has(id)) scheduler.disarm(id);
  }

  async function sweep(): Promise<void> {
    await reconcile();
    await takeOver({ atStart: false });
    const before = o.now().getTime() - KEEP_MS;
    await fires.prune(new Date(before));
    await pacing.prune(clock.now() - KEEP_MS);
  }

  let sweepTimer: NodeJS.Timeout | null = null;
  let renewTimer: NodeJS.Timeout | null = null;
  let sweeping: Promise<void> | null = null;
  function startTimers(): void {
    if (mode !== 'cron') return;
    sweepTimer = setInterval(() => {
      if (stopping || sweeping) return;
      sweeping = sweep()
        .catch((err: unknown) => log.warn('digest sweep failed; trying again later', { error: String(err) }))
        .finally(() => {
          sweeping = null;
        });
    }, sweepMs);
    sweepTimer.unref();
    // A replica's leases hold as long as it lives: renewed while it runs something.
    renewTimer = setInterval(
      () => {
        if (!runner.busy) return;
        void leases
          .renew(replica, new Date(o.now().getTime() + leaseMs))
          .catch((err: unknown) => log.warn('could not renew digest leases', { error: String(err) }));
      },
      Math.max(100, Math.floor(leaseMs / 3)),
    );
    renewTimer.unref();
  }

  return {
    async create(input) {
      const cron = checkCron(input.cron);
      if (!cron.ok) throw new InvalidInputError(md`The cron expression ${input.cron} ${cron.problem}.`);
      const zone = checkZone(input.tz);
      if (!zone.ok) throw new InvalidInputError(md`The time zone ${input.tz} ${zone.problem}.`);
      const now = o.now();
      const nextRunAt = nextRunAfter(cron.value, zone.value, now);
      const fields = { ...input, cron: cron.value, tz: zone.value };
      const same = await store.findSame({ ...fields, nextRunAt, cursor: { at: now.toISOString(), keys: [] } });
      let digest: Digest;
      let created = false;
      if (same) {
        digest = (await store.reschedule(same.id, { cron: cron.value, tz: zone.value, nextRunAt })) as Digest;
      } else {
        digest = await store.create({ ...fields, nextRunAt, cursor: { at: now.toISOString(), keys: [] } });
        created = true;
      }
      scheduler.arm(digest);
      return { digest, created };
    },
    get: (id) => store.get(id),
    async list(teamId, channelId, userId) {
      const here = channelId ? await store.listForChannel(teamId, channelId) : [];
      const dms = (await store.listForOwner(teamId, userId)).filter((d) => d.inDm && d.channelId !== channelId);
      return { here, dms };
    },
    listOwned: (teamId, userId) => store.listForOwner(teamId, userId),
    nextRun,
    async edit(id, changes) {
      const current = await store.get(id);
      if (!current) return null;
      const cron = checkCron(changes.cron ?? current.cron);
      if (!cron.ok) throw new InvalidInputError(md`The cron expression ${changes.cron ?? ''} ${cron.problem}.`);
      const zone = checkZone(changes.tz ?? current.tz);
      if (!zone.ok) throw new InvalidInputError(md`The time zone ${changes.tz ?? ''} ${zone.problem}.`);
      let d: Digest | null = current;
      if (changes.action !== undefined || changes.targetType !== undefined) {
        const action = changes.action === undefined ? current.action : changes.action;
        const targetType = changes.targetType === undefined ? current.targetType : changes.targetType;
        d = await store.refilter(id, action, targetType);
      }
      if (cron.value !== current.cron || zone.value !== current.tz) {
        const nextRunAt = current.active ? nextRunAfter(cron.value, zone.value, o.now()) : null;
        d = await store.reschedule(id, { cron: cron.value, tz: zone.value, nextRunAt });
        if (d) scheduler.arm(d);
      }
      return d;
    },
    async pause(id, by) {
      const d = await store.pause(id, 'person', by);
      if (d) scheduler.disarm(id);
      return d;
    },
    async resume(id) {
      const current = await store.get(id);
      if (!current) return null;
      const d = await store.resume(id, nextRunAfter(current.cron, current.tz, o.now()));
      if (d) scheduler.arm(d);
      return d;
    },
    async remove(id) {
      scheduler.disarm(id);
      return store.remove(id);
    },
    async run(id, reason = 'manual') {
      const outcome = await runner.run(id, { scheduledFor: o.now(), reason });
      await runner.flush();
      return outcome;
    },
    async runDue(reason = 'scheduled') {
      const now = o.now().getTime();
      const due = (await store.listActive()).filter((d) => d.nextRunAt !== null && d.nextRunAt.getTime() <= now);
      const out: { id: number; outcome: RunOutcome }[] = [];
      // In slices, so that thousands of due digests do not all wait in memory at once.
      const slice = Math.max(1, (o.concurrency ?? 8) * 4);
      for (let i = 0; i < due.length; i += slice) {
        const part = due.slice(i, i + slice);
        const outcomes = await Promise.all(
          part.map((d) => runner.run(d.id, { scheduledFor: d.nextRunAt ?? o.now(), reason })),
        );
        part.forEach((d, j) => {
          out.push({ id: d.id, outcome: outcomes[j] as RunOutcome });
        });
      }
      await runner.flush();
      return out;
    },
    async resumeOwner(teamId, userId) {
      const resumed = await store.resumeOwner({
        teamId,
        ownerId: userId,
        reasons: ['token'],
        nextRunAt: (d) => nextRunAfter(d.cron, d.tz, o.now()),
      });
      for (const d of resumed) scheduler.arm(d);
      if (resumed.length > 0) {
        try {
          const dm = await o.slack.openDm(userId);
          await o.slack.post(dm, buildResumedDm(resumed));
        } catch (err) {
          log.warn('could not tell a person their digests resumed', { user: userId, error: String(err) });
        }
      }
      return resumed;
    },
    sweep,
    async start() {
      await reconcile();
      log.info('digests armed', { ...scheduler.size, replica });
      startTimers();
      void takeOver({ atStart: true }).then(
        () => markRecovered(),
        (err: unknown) => {
          log.error('could not settle and catch up digests at start', { error: String(err) });
          markRecovered();
        },
      );
    },
    recovered,
    async stop() {
      if (stopping) return;
      stopping = true;
      if (sweepTimer) clearInterval(sweepTimer);
      if (renewTimer) clearInterval(renewTimer);
      scheduler.stop();
      await sweeping;
      await runner.idle();
      await leases.releaseAll(replica).catch(() => undefined);
    },
    isAdmin: (userId) => o.slack.isAdmin(userId),
    openDm: (userId) => o.slack.openDm(userId),
    runAndTell(id, userId, describe) {
      void runner
        .run(id, { scheduledFor: o.now(), reason: 'manual' })
        .then(async (outcome) => {
          await runner.flush();
          return describe(outcome);
        })
        .then((said) => (said?.message ? o.slack.postEphemeral(said.channelId, userId, said.message) : undefined))
        .catch((err: unknown) => {
          log.warn('could not tell a person how the digest run they asked for went', {
            digest: id,
            user: userId,
            error: err instanceof Error ? err.message : String(err),
          });
        });
    },
    taskOf: (id) => scheduler.task(id),
    isArmed: (id) => scheduler.isArmed(id),
  };
}
