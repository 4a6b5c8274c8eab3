import { describe, expect, it } from 'vitest';
import {
  nextWorkTurn,
  nextWorkTurnUnlessAlone,
  requestUnderWay,
  waitingForTurn,
} from '../../../src/listeners/turns.js';

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

  describe('unless alone', () => {
    /** Whether the work started before another immediate of this turn ran. */
    const startsAtOnce = async (turn: () => Promise<void>) => {
      let other = false;
      setImmediate(() => {
        other = true;
      });
      await turn();
      const atOnce = !other;
      await oneTurn();
      return atOnce;
    };

    it('goes on at once for the only request under way, with nobody waiting and no other call outstanding', async () => {
      const done = requestUnderWay();
      try {
        expect(await startsAtOnce(() => nextWorkTurnUnlessAlone())).toBe(true);
        expect(await startsAtOnce(() => nextWorkTurnUnlessAlone(0))).toBe(true);
      } finally {
        done();
      }
      // A poll's answer with no request under way at all
      expect(await startsAtOnce(() => nextWorkTurnUnlessAlone(0))).toBe(true);
    });

    it('waits for its turn while another request is under way', async () => {
      const first = requestUnderWay();
      const second = requestUnderWay();
      try {
        expect(await startsAtOnce(() => nextWorkTurnUnlessAlone())).toBe(false);
      } finally {
        first();
        second();
      }
      second(); // a second call changes nothing
      const again = requestUnderWay();
      expect(await startsAtOnce(() => nextWorkTurnUnlessAlone())).toBe(true);
      again();
    });

    it('waits for its turn while another call to the server is outstanding', async () => {
      expect(await startsAtOnce(() => nextWorkTurnUnlessAlone(1))).toBe(false);
    });

    it('waits behind work already waiting for its turn, in order', async () => {
      const order: string[] = [];
      const waiting = nextWorkTurn().then(() => order.push('waiting'));
      await nextWorkTurnUnlessAlone().then(() => order.push('alone'));
      await waiting;
      expect(order).toEqual(['waiting', 'alone']);
    });
  });
});
