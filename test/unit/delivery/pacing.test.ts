import { describe, expect, it } from 'vitest';
import {
  BudgetExhaustedError,
  createChannelQueue,
  createLimiter,
  createTokenBudget,
} from '../../../src/delivery/pacing.js';
import { sleepingClock } from '../../support/clock.js';

// Pacing with a clock that moves only when something sleeps on it.

describe('a token’s budget', () => {
  it('lets calls through while the server says there is room', async () => {
    const clock = sleepingClock(1_000_000);
    const budget = createTokenBudget({ clock });
    budget.observe('k', { limit: 100, remaining: 50, reset: clock.now() / 1000 + 60, observed: 50 });
    await budget.acquire('k');
    await budget.acquire('k');
    expect(clock.slept).toEqual([]);
    expect(budget.peek('k')?.remaining).toBe(48);
  });

  it('waits for the window to reset when only the reserve for the person’s own commands is left', async () => {
    const clock = sleepingClock(1_000_000);
    const budget = createTokenBudget({ clock, reserveShare: 0.1 });
    budget.observe('k', { limit: 100, remaining: 10, reset: clock.now() / 1000 + 30, observed: 90 });
    await budget.acquire('k');
    expect(clock.slept).toEqual([30_000]);
    // After the reset the old count no longer holds.
    await budget.acquire('k');
    expect(clock.slept).toEqual([30_000]);
  });

  it('after a 429 sends nothing for that token until its Retry-After, and other tokens are not held up', async () => {
    const clock = sleepingClock(1_000_000);
    const budget = createTokenBudget({ clock });
    budget.backoff('a', 5000);
    await budget.acquire('b');
    expect(clock.slept).toEqual([]);
    await budget.acquire('a');
    expect(clock.slept).toEqual([5000]);
  });

  it('gives up at once when the wait is longer than a digest may wait', async () => {
    const clock = sleepingClock(1_000_000);
    const budget = createTokenBudget({ clock, maxWaitMs: 60_000 });
    budget.backoff('a', 3_600_000);
    await expect(budget.acquire('a')).rejects.toBeInstanceOf(BudgetExhaustedError);
    expect(clock.slept).toEqual([]);
  });
});

describe('a channel’s queue', () => {
  it('posts into one channel at least the interval apart, and into different channels without waiting', async () => {
    const clock = sleepingClock(1_000_000);
    const queue = createChannelQueue({ intervalMs: 1000, clock });
    const order: string[] = [];
    const post = (channel: string, name: string) =>
      queue.run(channel, async () => {
        order.push(`${name}@${clock.now()}`);
      });
    await Promise.all([post('C1', 'a'), post('C1', 'b'), post('C2', 'c'), post('C1', 'd')]);
    const start = 1_000_000;
    expect(order).toEqual([`a@${start}`, `c@${start}`, `b@${start + 1000}`, `d@${start + 2000}`]);
  });

  it('keeps going after a post that failed', async () => {
    const clock = sleepingClock(1_000_000);
    const queue = createChannelQueue({ intervalMs: 1000, clock });
    await expect(queue.run('C1', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(queue.run('C1', async () => 'ok')).resolves.toBe('ok');
  });
});

describe('the limit on runs under way', () => {
  it('never has more than n under way', async () => {
    const limiter = createLimiter(2);
    let now = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const task = () =>
      limiter.run(async () => {
        now += 1;
        most = Math.max(most, now);
        await new Promise<void>((resolve) => gates.push(resolve));
        now -= 1;
      });
    const all = Promise.all([task(), task(), task(), task()]);
    while (gates.length > 0 || limiter.active > 0) {
      await new Promise((r) => setImmediate(r));
      gates.shift()?.();
    }
    await all;
    expect(most).toBe(2);
  });
});
