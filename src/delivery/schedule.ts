import { createTask, type RunCoordinator, type ScheduledTask } from 'node-cron';
import type { Logger } from '../log.js';
import type { ScheduledItem } from './kind.js';
import { type PacingClock, realClock } from './pacing.js';

// When scheduled items (digests, …) run: node-cron, in each item's zone (node-cron keeps to it across daylight-saving
// changes). Items that share a schedule (cron and zone) share one node-cron task: 10,000 digests at "0 9 * * 1-5" in
// Europe/Berlin are one timer, not 10,000. Every replica arms every schedule; node-cron's `distributed` mode asks the
// coordinator (a table, src/store/cron-fire-store.ts) before each fire, so one replica fires a slot of a schedule.
// The replica that wins a fire runs every item on that schedule *as the database says at that moment* (`due`):
// created, edited, paused or resumed on any replica, whatever this one armed. Their runs start spread evenly over the
// minute, so the server and Slack see a steady stream instead of a stampede at 09:00:00. What a replica armed only
// decides which tasks it keeps (a task whose last item leaves is destroyed).

export interface SchedulerOptions {
  /** `cron`: node-cron tasks fire runs; `manual`: nothing fires by itself (tests drive runs with their clock). */
  mode: 'cron' | 'manual';
  /** Starts the run of an item for a slot of its schedule. */
  fire(id: number, slot: Date, schedule: { cron: string; tz: string }): Promise<unknown>;
  /** The ids of the items on a schedule as the database says now; without it, the ids armed here. */
  due?(schedule: { cron: string; tz: string }): Promise<number[]>;
  /** The name of the kind, in the tasks' names (the fire's key shared by replicas). Default `digests`. */
  name?: string;
  logger: Logger;
  /** The runs of one slot start spread over this many milliseconds after it (default 50 s). */
  spreadMs?: number;
  /** The clock runs are spread by (injectable for tests). */
  clock?: PacingClock;
  /** Decides which replica fires a slot (node-cron's `distributed` mode); without it every fire runs. */
  coordinator?: RunCoordinator;
  /** Tests only: a seconds field put before each schedule, so that a slot comes every few seconds. */
  testSeconds?: string;
}

/** What arming needs of a digest. */
export type Schedule = Pick<ScheduledItem, 'id' | 'cron' | 'tz' | 'active'>;

interface Group {
  key: string;
  schedule: { cron: string; tz: string };
  task: ScheduledTask | null;
  ids: Set<number>;
}

const keyOf = (d: Pick<Schedule, 'cron' | 'tz'>) => `${d.cron} ${d.tz}`;

export function createScheduler(o: SchedulerOptions) {
  const groups = new Map<string, Group>();
  const groupOf = new Map<number, Group>();
  const spreadMs = o.spreadMs ?? 50_000;
  const clock = o.clock ?? realClock;
  const log = o.logger.child({ component: 'node-cron' });
  const cronLogger = {
    info: (m: string) => log.debug(m),
    debug: (m: string | Error) => log.debug(String(m)),
    warn: (m: string) => log.warn(m),
    error: (m: string | Error) => log.error(m instanceof Error ? m.message : m),
  };
  let stopped = false;

  /** The items a slot runs: the database's, or (when it cannot be read) those armed here. */
  async function dueIn(group: Group): Promise<{ ids: number[]; fromDatabase: boolean }> {
    if (o.due) {
      try {
        return { ids: await o.due(group.schedule), fromDatabase: true };
      } catch (err) {
        log.warn('could not read what a slot runs; running what this replica armed', { error: String(err) });
      }
    }
    return { ids: [...group.ids].sort((a, b) => a - b), fromDatabase: false };
  }

  /** One slot of a schedule: its items' runs, started evenly over the spread, each not waiting for the last. */
  async function fireGroup(group: Group, slot: Date): Promise<void> {
    const { ids, fromDatabase } = await dueIn(group);
    const started = clock.now();
    const runs: Promise<unknown>[] = [];
    for (const [i, id] of ids.entries()) {
      if (stopped) break;
      const wait = started + Math.floor((i * spreadMs) / ids.length) - clock.now();
      if (wait > 0) await clock.sleep(wait);
      // An item paused or moved to another schedule meanwhile is not run for this one (the run itself checks the
      // database's word; without it, what this replica armed is all it knows).
      if (stopped || (!fromDatabase && groupOf.get(id) !== group)) continue;
      runs.push(o.fire(id, slot, group.schedule));
    }
    await Promise.allSettled(runs);
  }

  function disarm(id: number): void {
    const group = groupOf.get(id);
    if (!group) return;
    groupOf.delete(id);
    group.ids.delete(id);
    if (group.ids.size === 0) {
      groups.delete(group.key);
      if (group.task) void group.task.destroy();
    }
  }

  return {
    /** Arms an active digest on its schedule's task (moving it from another), disarms a paused one. */
    arm(d: Schedule): void {
      const key = keyOf(d);
      const current = groupOf.get(d.id);
      if (current && current.key === key && d.active) return;
      disarm(d.id);
      if (!d.active || stopped) return;
      let group = groups.get(key);
      if (!group) {
        const g: Group = { key, schedule: { cron: d.cron, tz: d.tz }, task: null, ids: new Set() };
        if (o.mode === 'cron') {
          const pattern = o.testSeconds ? `${o.testSeconds} ${d.cron}` : d.cron;
          g.task = createTask(pattern, (ctx) => (stopped ? undefined : fireGroup(g, ctx.date)), {
            timezone: d.tz,
            // The name is the fire's key shared by replicas (with the slot's time).
            name: `${o.name ?? 'digests'} ${key}`,
            ...(o.coordinator ? { distributed: true, runCoordinator: o.coordinator } : {}),
            // A slot whose runs are still going when the next comes is skipped; nothing is lost, the next run
            // covers it (the cursor did not move for what was not posted).
            noOverlap: true,
            // A busy process that notices its slot late still runs it.
            missedExecutionTolerance: 30_000,
            logger: cronLogger,
          });
          void g.task.start();
        }
        groups.set(key, g);
        group = g;
      }
      group.ids.add(d.id);
      groupOf.set(d.id, group);
    },
    disarm,
    /** The ids of every armed digest. */
    armed(): number[] {
      return [...groupOf.keys()];
    },
    isArmed(id: number): boolean {
      return groupOf.has(id);
    },
    /** The node-cron task a digest runs on (tests check its pattern, zone and matches through node-cron's API). */
    task(id: number): ScheduledTask | undefined {
      return groupOf.get(id)?.task ?? undefined;
    },
    /** Armed digests, and the node-cron tasks they share. */
    get size(): { digests: number; tasks: number } {
      return { digests: groupOf.size, tasks: [...groups.values()].filter((g) => g.task).length };
    },
    stop(): void {
      stopped = true;
      for (const id of [...groupOf.keys()]) disarm(id);
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
