import { describe, expect, it } from 'vitest';
import { nextWorkTurn, waitingForTurn } from '../../../src/listeners/turns.js';

const oneTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('work turns', () => {
  it('lets one waiting request start per event-loop turn, in the order they asked', async () => {
    const started: number[] = [];
    const all = [1, 2, 3].map((n) => nextWorkTurn().then(() => started.push(n)));
    expect(started).toEqual([]); // never in the caller's own turn
    expect(waitingForTurn()).toBe(3);
    await oneTurn();
    expect(started).toEqual([1]);
    await oneTurn();
    expect(started).toEqual([1, 2]);
    await Promise.all(all);
    expect(started).toEqual([1, 2, 3]);
    expect(waitingForTurn()).toBe(0);
  });

  it('starts again after the queue ran empty', async () => {
    await nextWorkTurn();
    await nextWorkTurn();
    expect(waitingForTurn()).toBe(0);
  });

  it('does not hold back I/O: timers and other immediates still run between turns', async () => {
    const order: string[] = [];
    const work = [nextWorkTurn().then(() => order.push('a')), nextWorkTurn().then(() => order.push('b'))];
    setImmediate(() => order.push('other'));
    await Promise.all(work);
    expect(order.indexOf('other')).toBeLessThan(order.indexOf('b'));
  });
});
