import { describe, expect, it } from 'vitest';
import { createWorkPlaces } from '../../../src/slack/transport/work-places.js';

/** A clock and timers the test moves by hand. */
function manualTime() {
  let at = 0;
  const timers: { due: number; fn: () => void; live: boolean }[] = [];
  return {
    now: () => at,
    setTimer(fn: () => void, ms: number) {
      const t = { due: at + ms, fn, live: true };
      timers.push(t);
      return () => {
        t.live = false;
      };
    },
    advance(ms: number) {
      at += ms;
      for (const t of [...timers]) {
        if (t.live && t.due <= at) {
          t.live = false;
          t.fn();
        }
      }
    },
    get pendingTimers() {
      return timers.filter((t) => t.live).length;
    },
  };
}

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

describe('work places', () => {
  it('lets as many holders in at once as there are places; the others wait, in order, until one leaves', async () => {
    const time = manualTime();
    const places = createWorkPlaces({ places: 2, holdMs: 1000, ...time });
    const [a, b, c, d] = [{}, {}, {}, {}];
    expect(await settled(places.enter(a))).toBe(true);
    expect(await settled(places.enter(b))).toBe(true);
    const cIn = places.enter(c);
    const dIn = places.enter(d);
    expect(await settled(cIn)).toBe(false);
    expect(places.waiting).toBe(2);

    places.leave(b);
    expect(await settled(cIn)).toBe(true);
    expect(await settled(dIn)).toBe(false);
    places.leave(a);
    expect(await settled(dIn)).toBe(true);
    expect(places.inUse).toBe(2);
    expect(places.waiting).toBe(0);
  });

  it('lets a holder that has a place already in at once, and ignores a leave from one without a place', async () => {
    const places = createWorkPlaces({ places: 1, holdMs: 1000, ...manualTime() });
    const a = {};
    await places.enter(a);
    expect(await settled(places.enter(a))).toBe(true);
    places.leave({});
    expect(places.inUse).toBe(1);
    places.leave(a);
    places.leave(a);
    expect(places.inUse).toBe(0);
  });

  it('gives a place held past holdMs to the next holder waiting; the late leave of its first holder frees nothing more', async () => {
    const time = manualTime();
    const places = createWorkPlaces({ places: 1, holdMs: 1000, ...time });
    const [slow, next, after] = [{}, {}, {}];
    await places.enter(slow);
    time.advance(400);
    const nextIn = places.enter(next);
    const afterIn = places.enter(after);
    time.advance(599);
    expect(await settled(nextIn)).toBe(false);
    time.advance(1);
    expect(await settled(nextIn)).toBe(true);
    expect(await settled(afterIn)).toBe(false);
    expect(places.inUse).toBe(1);

    places.leave(slow); // it went on without its place: nobody else gets in for it
    expect(await settled(afterIn)).toBe(false);
    places.leave(next);
    expect(await settled(afterIn)).toBe(true);
  });

  it('keeps no timer while nobody waits', async () => {
    const time = manualTime();
    const places = createWorkPlaces({ places: 1, holdMs: 1000, ...time });
    const [a, b] = [{}, {}];
    await places.enter(a);
    void places.enter(b);
    expect(time.pendingTimers).toBe(1);
    places.leave(a);
    places.leave(b);
    expect(time.pendingTimers).toBe(0);
  });

  it('forgets a holder that leaves while it is still waiting', async () => {
    const places = createWorkPlaces({ places: 1, holdMs: 1000, ...manualTime() });
    const [a, b, c] = [{}, {}, {}];
    await places.enter(a);
    void places.enter(b);
    const cIn = places.enter(c);
    places.leave(b);
    expect(places.waiting).toBe(1);
    places.leave(a);
    expect(await settled(cIn)).toBe(true);
  });
});
