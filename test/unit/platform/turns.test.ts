import { describe, expect, it } from 'vitest';
import { createWorkTurns } from '../../../src/slack/transport/turns.js';

// The turns are stepped by hand: each test says when a turn comes, so no verdict depends on how fast the event loop
// goes round (issue 48: under load, setImmediate races decided these tests).

/** Turns the test hands out one at a time. */
function manualTurns() {
  const pending: (() => void)[] = [];
  return {
    yieldTurn: (go: () => void) => {
      pending.push(go);
    },
    /** Runs the oldest turn asked for, then lets the promises it settled run. */
    async turn() {
      const go = pending.shift();
      if (!go) throw new Error('no turn was asked for');
      go();
      await settle();
    },
    get asked() {
      return pending.length;
    },
  };
}

/** Lets every promise callback already queued run (no event-loop turn passes). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** Whether `p` has resolved once the promise callbacks queued now have run. */
async function resolved(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await settle();
  return done;
}

describe('work turns', () => {
  it('lets one waiting caller go per turn, in the order they asked, never in the caller’s own turn', async () => {
    const time = manualTurns();
    const turns = createWorkTurns(time);
    const started: number[] = [];
    for (const n of [1, 2, 3]) void turns.next().then(() => started.push(n));
    await settle();
    expect(started).toEqual([]);
    expect(turns.waiting).toBe(3);
    expect(time.asked).toBe(1);
    await time.turn();
    expect(started).toEqual([1]);
    expect(time.asked).toBe(1); // the next one asks for a turn of its own
    await time.turn();
    expect(started).toEqual([1, 2]);
    await time.turn();
    expect(started).toEqual([1, 2, 3]);
    expect(turns.waiting).toBe(0);
    expect(time.asked).toBe(0); // nothing more is asked for once the queue is empty
  });

  it('asks for a turn again after the queue ran empty', async () => {
    const time = manualTurns();
    const turns = createWorkTurns(time);
    const first = turns.next();
    await time.turn();
    expect(await resolved(first)).toBe(true);
    const second = turns.next();
    expect(time.asked).toBe(1);
    await time.turn();
    expect(await resolved(second)).toBe(true);
  });

  it('goes round the event loop by default: another immediate queued before the second caller runs before it', async () => {
    const turns = createWorkTurns();
    const order: string[] = [];
    const first = turns.next().then(() => order.push('a'));
    const second = turns.next().then(() => order.push('b'));
    setImmediate(() => order.push('other'));
    await Promise.all([first, second]);
    // Signals, not speed: 'other' was queued in the same turn as the first release, so the second caller, released
    // from a later immediate, comes after it however slowly the loop turns.
    expect(order).toEqual(['a', 'other', 'b']);
  });

  describe('unless alone', () => {
    it('goes on at once for the only request under way, with nobody waiting and no other call outstanding', async () => {
      const time = manualTurns();
      const turns = createWorkTurns(time);
      const done = turns.requestUnderWay();
      expect(await resolved(turns.nextUnlessAlone())).toBe(true);
      expect(await resolved(turns.nextUnlessAlone(0))).toBe(true);
      done();
      // A poll's answer with no request under way at all
      expect(await resolved(turns.nextUnlessAlone(0))).toBe(true);
      expect(time.asked).toBe(0);
    });

    it('waits for its turn while another request is under way', async () => {
      const time = manualTurns();
      const turns = createWorkTurns(time);
      const first = turns.requestUnderWay();
      const second = turns.requestUnderWay();
      const waited = turns.nextUnlessAlone();
      expect(await resolved(waited)).toBe(false);
      await time.turn();
      expect(await resolved(waited)).toBe(true);
      first();
      second();
      second(); // a second call changes nothing
      const again = turns.requestUnderWay();
      expect(await resolved(turns.nextUnlessAlone())).toBe(true);
      again();
    });

    it('waits for its turn while another call to the server is outstanding', async () => {
      const time = manualTurns();
      const turns = createWorkTurns(time);
      const waited = turns.nextUnlessAlone(1);
      expect(await resolved(waited)).toBe(false);
      await time.turn();
      expect(await resolved(waited)).toBe(true);
    });

    it('waits behind work already waiting for its turn, in order', async () => {
      const time = manualTurns();
      const turns = createWorkTurns(time);
      const order: string[] = [];
      const waiting = turns.next().then(() => order.push('waiting'));
      const alone = turns.nextUnlessAlone().then(() => order.push('alone'));
      await time.turn();
      await time.turn();
      await Promise.all([waiting, alone]);
      expect(order).toEqual(['waiting', 'alone']);
    });
  });
});
