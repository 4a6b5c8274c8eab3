import { createTask, type ScheduledTask } from 'node-cron';
import type { Logger } from '../logger.js';
import type { Digest } from '../store/digest-store.js';

// One node-cron task per active digest, in the digest's zone (node-cron keeps to it across daylight-saving
// changes). Runs are spread over the minute (maxRandomDelay) so that 10,000 digests due at 09:00 do not all start
// at 09:00:00, and a run that starts late by up to most of a minute (a busy process) still runs instead of being
// counted as missed. Arming again replaces a digest's task, so pause, resume, remove and edit take effect at once.

export interface SchedulerOptions {
  /** `cron`: node-cron tasks fire runs; `manual`: nothing fires by itself (tests drive runs with their clock). */
  mode: 'cron' | 'manual';
  /** Starts the run of a digest for a slot; node-cron waits for the promise (no overlapping runs). */
  fire(id: number, slot: Date): Promise<unknown>;
  logger: Logger;
  /** Runs start within this many milliseconds after their minute (default 50 s). */
  spreadMs?: number;
}

export function createDigestScheduler(o: SchedulerOptions) {
  const tasks = new Map<number, ScheduledTask>();
  const manual = new Set<number>();
  const spreadMs = o.spreadMs ?? 50_000;
  const log = o.logger.child({ component: 'node-cron' });
  const cronLogger = {
    info: (m: string) => log.debug(m),
    debug: (m: string | Error) => log.debug(String(m)),
    warn: (m: string) => log.warn(m),
    error: (m: string | Error) => log.error(m instanceof Error ? m.message : m),
  };
  let stopped = false;

  const disarm = (id: number) => {
    const task = tasks.get(id);
    tasks.delete(id);
    manual.delete(id);
    if (task) void task.destroy();
  };

  return {
    /** Arms an active digest (replacing its task), disarms a paused one. */
    arm(d: Digest): void {
      disarm(d.id);
      if (!d.active || stopped) return;
      if (o.mode === 'manual') {
        manual.add(d.id);
        return;
      }
      const task = createTask(d.cron, (ctx) => (stopped ? undefined : o.fire(d.id, ctx.date)), {
        timezone: d.tz,
        name: `digest-${d.id}`,
        noOverlap: true,
        maxRandomDelay: spreadMs,
        // Late by less than this, a run still runs (the next slot is at least a minute away).
        missedExecutionTolerance: Math.max(1000, 59_000 - spreadMs),
        logger: cronLogger,
      });
      void task.start();
      tasks.set(d.id, task);
    },
    disarm,
    /** Whether a digest is armed (for tests and lists). */
    isArmed(id: number): boolean {
      return tasks.has(id) || manual.has(id);
    },
    /** A digest's node-cron task (tests check its pattern, zone and matches through node-cron's own API). */
    task(id: number): ScheduledTask | undefined {
      return tasks.get(id);
    },
    get size(): number {
      return tasks.size + manual.size;
    },
    stop(): void {
      stopped = true;
      for (const id of [...tasks.keys(), ...manual]) disarm(id);
    },
  };
}

export type DigestScheduler = ReturnType<typeof createDigestScheduler>;
