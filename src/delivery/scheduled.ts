import crypto from 'node:crypto';
import type { RunCoordinator } from 'node-cron';
import type { Transport } from '../gitlab/http.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import type { Actor, Session } from '../operations/context.js';
import { createCronFireStore } from '../store/cron-fire-store.js';
import { createLeaseStore } from '../store/delivery-lease-store.js';
import type { SqlEngine } from '../store/engine.js';
import { createPacingStore } from '../store/pacing-store.js';
import { nextRunAfter } from './cron.js';
import type { DeliveryHooks } from './hooks.js';
import { createKernel } from './kernel.js';
import type { RunOutcome, RunPoint, RunReason, ScheduledItem, ScheduledKind } from './kind.js';
import { createMeteredTransport } from './metered-transport.js';
import {
  createLimiter,
  createSharedChannelQueue,
  createSharedTokenBudget,
  type PacingClock,
  realClock,
} from './pacing.js';
import { createScheduler } from './schedule.js';
import type { DeliverySlack } from './slack.js';
import { createTokenRechecks } from './token-rechecks.js';

// A scheduled kind (digests, …) on one replica: its kernel (kernel.ts), node-cron's tasks (schedule.ts) and the
// sweep every replica does every little while. What must happen once across replicas is decided in the database:
// which replica fires a slot (cron_fires), which runs an item (its lease), the pace of a channel and the budget of a
// token. The replica that wins a fire runs what the database says is on that schedule; the sweep arms what the
// database schedules, takes over runs whose replica died and slots nobody ran, and re-checks the tokens of owners
// whose items a refused token paused, with back-off, resuming them when the server accepts the token again
// (token-rechecks.ts).

/** Fire keys, lanes and budgets are kept this long after their time, then pruned. */
const KEEP_MS = 24 * 60 * 60 * 1000;

export interface ScheduledDeliveryOptions<Item extends ScheduledItem, State> {
  /** The kind, given the access it reads through (paced by the shared token budget). */
  kind: (pacedAccess: GitlabAccess) => ScheduledKind<Item, State>;
  /** The store port the coordination tables are written against (leases, fires, lanes, budgets). */
  engine: SqlEngine;
  /** The app's access to the server: one judgement of 401s for the whole bot. */
  access: GitlabAccess;
  /** The transport commands use; scheduled reads go through a paced wrapper of it. */
  transport: Transport;
  sessionOf: (actor: Actor) => Session;
  slack: DeliverySlack;
  serverUrl: string;
  logger: Logger;
  now: () => Date;
  hooks?: DeliveryHooks;
  /** `manual` in tests: nothing fires by itself, runs are driven with the test's clock. Default `cron`. */
  timer?: 'cron' | 'manual';
  /** Runs under way at once (default 8). */
  concurrency?: number;
  /** Spread of scheduled runs over their minute (default 50 s). */
  spreadMs?: number;
  /** Slack's pace per channel (default 1000 ms between posts). */
  channelIntervalMs?: number;
  pacingClock?: PacingClock;
  at?: (point: RunPoint) => void;
  /** How long a replica's lease on a run holds without being renewed (default 60 s). */
  leaseMs?: number;
  /** How often a replica sweeps (default 30 s). */
  sweepMs?: number;
  /** The first wait before a paused owner's token is asked about again; it doubles up to an hour (default 60 s). */
  recheckMs?: number;
  /** Tests only: a seconds field before each schedule (a slot every few seconds). */
  testSeconds?: string;
}

export function createScheduledDelivery<Item extends ScheduledItem, State>(o: ScheduledDeliveryOptions<Item, State>) {
  const replica = crypto.randomUUID();
  const mode = o.timer ?? 'cron';
  const clock = o.pacingClock ?? realClock;
  const leaseMs = o.leaseMs ?? 60_000;
  const sweepMs = o.sweepMs ?? 30_000;
  const spreadMs = o.spreadMs ?? 50_000;
  const recheckMs = o.recheckMs ?? 60_000;
  const fires = createCronFireStore(o.engine);
  const pacing = createPacingStore(o.engine);
  const budget = createSharedTokenBudget({ store: pacing, clock });
  const kind = o.kind(o.access.through(createMeteredTransport(o.transport, budget)));
  const store = kind.store;
  const leases = createLeaseStore(o.engine, kind.table);
  const log = o.logger.child({ component: kind.name });
  // node-cron asks before each fire of a schedule's task: the first replica to insert the fire's key runs it.
  const coordinator: RunCoordinator = { shouldRun: (key) => fires.take(key, replica, o.now()) };
  let stopping = false;
  const scheduler = createScheduler({
    mode,
    logger: log,
    spreadMs,
    coordinator,
    name: kind.name === 'digest' ? 'digests' : kind.name,
    ...(o.testSeconds ? { testSeconds: o.testSeconds } : {}),
    due: (schedule) => store.dueIn(schedule),
    fire: (id, slot) => kernel.run(id, { scheduledFor: slot, reason: 'scheduled' }),
  });
  const kernel = createKernel({
    kind,
    leases,
    slack: o.slack,
    sessionOf: o.sessionOf,
    replica,
    leaseMs,
    clock,
    serverUrl: o.serverUrl,
    logger: log,
    now: o.now,
    channels: createSharedChannelQueue({ store: pacing, intervalMs: o.channelIntervalMs ?? 1000, clock }),
    limiter: createLimiter(o.concurrency ?? 8),
    hooks: o.hooks ?? {},
    ...(o.at ? { at: o.at } : {}),
    onPaused: (paused) => {
      for (const i of paused) scheduler.disarm(i.id);
    },
  });

  let markRecovered: () => void = () => {};
  const recovered = new Promise<void>((resolve) => {
    markRecovered = resolve;
  });

  /**
   * Settles runs left open and runs what is overdue, each under its lease (so whichever replicas do this at once,
   * each item is settled or caught up by one). At start, intents nobody holds are settled and whatever is due
   * runs; in a sweep, only intents whose replica died (lease run out) and slots left unrun past their spread.
   */
  async function takeOver(o2: { atStart: boolean }): Promise<void> {
    const runs: Promise<unknown>[] = [];
    const settling = new Set<number>();
    const now = o.now();
    for (const run of await store.orphaned(now, { released: o2.atStart })) {
      settling.add(run.id);
      runs.push(kernel.run(run.id, { scheduledFor: run.scheduledFor, reason: 'recover' }));
    }
    // An item whose time passed while no replica ran it runs once, however many times it missed.
    const dueBefore = o2.atStart ? now : new Date(now.getTime() - spreadMs - 60_000);
    for (const d of await store.overdue(dueBefore, now, 10_000)) {
      if (settling.has(d.id)) continue;
      runs.push(kernel.run(d.id, { scheduledFor: d.nextRunAt, reason: 'catch-up' }));
    }
    await Promise.allSettled(runs);
    await kernel.flush();
  }

  /** Arms what the database says is scheduled, disarms what it no longer does. */
  async function reconcile(): Promise<void> {
    const ids = new Set<number>();
    for (const s of await store.scheduled()) {
      ids.add(s.id);
      scheduler.arm({ ...s, active: true });
    }
    for (const id of scheduler.armed()) if (!ids.has(id)) scheduler.disarm(id);
  }

  // Owners whose items a refused token paused: their token is asked about again, with back-off, and their items
  // resume once the server accepts it (a burst of 401s must not leave them paused until they use the bot).
  const rechecks = createTokenRechecks({
    access: o.access,
    pausedOwners: () => store.pausedOwners('token'),
    resume: (owner) => resumeOwner(owner.teamId, owner.ownerId, 'accepted'),
    now: () => clock.now(),
    firstWaitMs: recheckMs,
    logger: log,
  });

  async function sweep(): Promise<void> {
    await reconcile();
    await takeOver({ atStart: false });
    await rechecks.run();
    await fires.prune(new Date(o.now().getTime() - KEEP_MS));
    await pacing.prune(clock.now() - KEEP_MS);
  }

  /** After the owner's token works again: their items paused for it run again, and they are told once. */
  async function resumeOwner(teamId: string, userId: string, how: 'connected' | 'accepted'): Promise<Item[]> {
    const resumed = await store.resumeOwner(teamId, userId, 'token', (i) => nextRunAfter(i.cron, i.tz, o.now()));
    for (const i of resumed) scheduler.arm(i);
    if (resumed.length > 0) {
      try {
        const dm = await o.slack.openDm(userId);
        await o.slack.post(dm, kind.notices.resumed(resumed, how));
      } catch (err) {
        log.warn(`could not tell a person their ${kind.name}s resumed`, { user: userId, error: String(err) });
      }
    }
    return resumed;
  }

  let sweepTimer: NodeJS.Timeout | null = null;
  let renewTimer: NodeJS.Timeout | null = null;
  let sweeping: Promise<void> | null = null;
  function startTimers(): void {
    if (mode !== 'cron') return;
    sweepTimer = setInterval(() => {
      if (stopping || sweeping) return;
      sweeping = sweep()
        .catch((err: unknown) => log.warn(`${kind.name} sweep failed; trying again later`, { error: String(err) }))
        .finally(() => {
          sweeping = null;
        });
    }, sweepMs);
    sweepTimer.unref();
    // A replica's leases hold as long as it lives: renewed while it runs something.
    renewTimer = setInterval(
      () => {
        if (!kernel.busy) return;
        void leases
          .renew(replica, new Date(o.now().getTime() + leaseMs))
          .catch((err: unknown) => log.warn(`could not renew ${kind.name} leases`, { error: String(err) }));
      },
      Math.max(100, Math.floor(leaseMs / 3)),
    );
    renewTimer.unref();
  }

  return {
    kind,
    /** Arms an active item on its schedule's task at once (moving it from another), disarms a paused one. */
    arm: (i: Pick<Item, 'id' | 'cron' | 'tz' | 'active'>) => scheduler.arm(i),
    disarm: (id: number) => scheduler.disarm(id),
    isArmed: (id: number) => scheduler.isArmed(id),
    /** node-cron's task of an item (tests look at it through node-cron's API). */
    taskOf: (id: number) => scheduler.task(id),
    run: (id: number, o2: { scheduledFor: Date; reason: RunReason }): Promise<RunOutcome> => kernel.run(id, o2),
    flush: () => kernel.flush(),
    /** Runs every active item whose time has come by `now` (once each, whatever it missed). */
    async runDue(reason: RunReason, due: readonly { id: number; nextRunAt: Date | null }[]) {
      const out: { id: number; outcome: RunOutcome }[] = [];
      // In slices, so that thousands of due items do not all wait in memory at once.
      const slice = Math.max(1, (o.concurrency ?? 8) * 4);
      for (let i = 0; i < due.length; i += slice) {
        const part = due.slice(i, i + slice);
        const outcomes = await Promise.all(
          part.map((d) => kernel.run(d.id, { scheduledFor: d.nextRunAt ?? o.now(), reason })),
        );
        part.forEach((d, j) => {
          out.push({ id: d.id, outcome: outcomes[j] as RunOutcome });
        });
      }
      await kernel.flush();
      return out;
    },
    resumeOwner,
    sweep,
    recovered,
    async start(): Promise<void> {
      await reconcile();
      log.info(`${kind.name}s armed`, { ...scheduler.size, replica });
      startTimers();
      void takeOver({ atStart: true }).then(
        () => markRecovered(),
        (err: unknown) => {
          log.error(`could not settle and catch up ${kind.name}s at start`, { error: String(err) });
          markRecovered();
        },
      );
    },
    async stop(): Promise<void> {
      if (stopping) return;
      stopping = true;
      if (sweepTimer) clearInterval(sweepTimer);
      if (renewTimer) clearInterval(renewTimer);
      scheduler.stop();
      await sweeping;
      await kernel.idle();
      await leases.releaseAll(replica).catch(() => undefined);
    },
  };
}

export type ScheduledDelivery<Item extends ScheduledItem, State> = ReturnType<
  typeof createScheduledDelivery<Item, State>
>;
