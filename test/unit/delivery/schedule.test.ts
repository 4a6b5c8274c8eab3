import { afterEach, describe, expect, it } from 'vitest';
import { createScheduler } from '../../../src/delivery/schedule.js';
import { silentLogger } from '../../../src/log.js';
import type { Digest } from '../../../src/store/digest-store.js';
import { sleepingClock } from '../../support/clock.js';

// One node-cron task per schedule; its digests' runs start spread evenly over the spread window.

function digest(id: number, o: Partial<Digest> = {}): Digest {
  return {
    id,
    teamId: 'T',
    ownerId: 'U',
    channelId: 'C',
    inDm: false,
    kind: 'todos',
    project: null,
    user: null,
    action: null,
    targetType: null,
    environment: null,
    cron: '15 3 29 2 *',
    tz: 'UTC',
    active: true,
    pausedReason: null,
    pausedBy: null,
    createdAt: new Date(0),
    lastRunAt: null,
    lastResult: null,
    lastItems: null,
    lastPostTs: null,
    nextRunAt: null,
    cursor: { at: new Date(0).toISOString(), keys: [] },
    ...o,
  };
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('the digest scheduler', () => {
  it('starts the runs of one slot evenly over the spread, skipping a digest paused meanwhile', async () => {
    const clock = sleepingClock();
    const fired: { id: number; at: number }[] = [];
    const scheduler = createScheduler({
      mode: 'cron',
      logger: silentLogger,
      spreadMs: 1000,
      clock,
      async fire(id) {
        fired.push({ id, at: clock.now() });
        if (id === 1) scheduler.disarm(3);
      },
    });
    stops.push(() => scheduler.stop());
    for (const id of [4, 2, 1, 3]) scheduler.arm(digest(id));
    expect(scheduler.size).toEqual({ digests: 4, tasks: 1 });
    await scheduler.task(1)?.execute();
    expect(fired).toEqual([
      { id: 1, at: 0 },
      { id: 2, at: 250 },
      { id: 4, at: 750 },
    ]);
  });

  it('moves a digest to its new schedule’s task and destroys a task left empty', () => {
    const scheduler = createScheduler({ mode: 'cron', logger: silentLogger, fire: async () => {} });
    stops.push(() => scheduler.stop());
    scheduler.arm(digest(1));
    const first = scheduler.task(1);
    scheduler.arm(digest(1, { cron: '0 9 * * *', tz: 'Europe/Berlin' }));
    expect(scheduler.task(1)).not.toBe(first);
    expect(first?.getStatus()).toBe('destroyed');
    expect(scheduler.task(1)?.getPattern()).toBe('0 9 * * *');
    scheduler.arm(digest(1, { cron: '0 9 * * *', tz: 'Europe/Berlin', active: false }));
    expect(scheduler.isArmed(1)).toBe(false);
    expect(scheduler.size).toEqual({ digests: 0, tasks: 0 });
  });

  it('in manual mode keeps track of what is armed without any task', () => {
    const scheduler = createScheduler({ mode: 'manual', logger: silentLogger, fire: async () => {} });
    scheduler.arm(digest(7));
    expect(scheduler.isArmed(7)).toBe(true);
    expect(scheduler.task(7)).toBeUndefined();
    scheduler.stop();
    expect(scheduler.isArmed(7)).toBe(false);
  });
});
