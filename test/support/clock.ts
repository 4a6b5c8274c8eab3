import type { PacingClock } from '../../src/delivery/pacing.js';

// A clock that moves only when a test moves it. The simulator and the bot of a test share
// one, so "in 3 hours" and `next_run_at` are the same on every run, at any time of day.

export interface FakeClock {
  now: () => Date;
  set(at: Date | string): void;
  advance(ms: number): void;
}

/** Where every test clock starts unless a test says otherwise: a Monday morning, UTC. */
export const TEST_START = new Date('2026-03-02T10:00:00.000Z');

export function fakeClock(start: Date | string = TEST_START): FakeClock {
  let t = new Date(start).getTime();
  if (Number.isNaN(t)) throw new Error(`fakeClock: not a time: ${String(start)}`);
  return {
    now: () => new Date(t),
    set(at) {
      const next = new Date(at).getTime();
      if (Number.isNaN(next)) throw new Error(`fakeClock.set: not a time: ${String(at)}`);
      t = next;
    },
    advance(ms) {
      t += ms;
    },
  };
}

/** A pacing clock (src/delivery/pacing.ts) that moves only when something sleeps on it; `slept` lists the waits. */
export function sleepingClock(start = 0): PacingClock & { slept: number[] } {
  let t = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    async sleep(ms) {
      slept.push(ms);
      t += ms;
    },
  };
}
