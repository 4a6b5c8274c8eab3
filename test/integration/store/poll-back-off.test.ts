import { afterEach, describe, expect, it } from 'vitest';
import { createAlertStore } from '../../../src/store/alert-store.js';
import { createPollBackOffStore, type PolledTable } from '../../../src/store/delivery-lease-store.js';
import type { SqlEngine } from '../../../src/store/engine.js';
import { createFollowStore } from '../../../src/store/follow-store.js';
import { createWatchStore } from '../../../src/store/watch-store.js';
import { aFollow, aWatch } from '../../support/store-rows.js';
import { ENGINES, type TestDatabase } from './engines.js';

// Store conformance: the back-off of polled rows (store/delivery-lease-store.ts) means the same on SQLite and on
// PostgreSQL, for alerts, watches and follows: a busy poll's count and its later next poll are kept in the row (a
// second engine on the same database — another replica, or the bot started again — claims the row with its count),
// a poll the server answered starts the count again, and neither is written over a claim that came after the poll.

const t0 = new Date('2026-03-02T09:00:00.000Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);
const LEASE_S = 60;

/** One polled row of one store: its claim (generation and count, or null when not due or held) and its poll's end. */
interface Polled {
  key: string | number;
  claim(engine: SqlEngine, owner: string, nowS: number): Promise<{ gen: number; busyPolls: number } | null>;
  /** What the kind writes at the end of a poll: its next poll at `nextS`, the lease let go. */
  finish(engine: SqlEngine, owner: string, nextS: number): Promise<void>;
  nextPollAt(engine: SqlEngine): Promise<Date>;
}

const POLLED: Record<PolledTable, (engine: SqlEngine) => Promise<Polled>> = {
  alert_settings: async (engine) => {
    await createAlertStore(engine).enable(
      { teamId: 'T1', userId: 'U1', actions: ['assigned'], quiet: null, tz: 'UTC' },
      0,
      t0,
    );
    return {
      key: 'T1:U1',
      async claim(e, owner, n) {
        const [c] = await createAlertStore(e).claimDue(owner, at(n), at(n + LEASE_S), 10);
        return c ? { gen: c.leaseGen, busyPolls: c.busyPolls } : null;
      },
      finish: (e, owner, next) =>
        createAlertStore(e).recordPolls(owner, [['T1', 'U1', { at: t0, nextPollAt: at(next), result: 'failed' }]]),
      nextPollAt: async (e) => ((await createAlertStore(e).get('T1', 'U1')) as { nextPollAt: Date }).nextPollAt,
    };
  },
  watches: async (engine) => {
    const w = await createWatchStore(engine).create(aWatch(t0), t0);
    return {
      key: w.id,
      async claim(e, owner, n) {
        const [c] = await createWatchStore(e).claimDue({
          owner,
          now: at(n),
          until: at(n + LEASE_S),
          limit: 10,
          dueBy: at(n),
        });
        return c ? { gen: c.leaseGen, busyPolls: c.busyPolls } : null;
      },
      finish: (e, owner, next) =>
        createWatchStore(e).recordFailed(w.id, owner, { at: t0, nextPollAt: at(next), result: 'failed: 503' }),
      nextPollAt: async (e) => ((await createWatchStore(e).get(w.id)) as { nextPollAt: Date }).nextPollAt,
    };
  },
  follows: async (engine) => {
    const f = await createFollowStore(engine).create(aFollow(t0, { drawn: null, nextPollAt: t0 }));
    return {
      key: f.id,
      async claim(e, owner, n) {
        const [c] = await createFollowStore(e).claimDue(owner, {
          dueBy: at(n),
          now: at(n),
          until: at(n + LEASE_S),
          limit: 10,
        });
        return c ? { gen: c.leaseGen, busyPolls: c.busyPolls } : null;
      },
      finish: (e, owner, next) =>
        createFollowStore(e).drawn(f.id, owner, { drawn: null, drawnAt: null, nextPollAt: at(next) }),
      nextPollAt: async (e) => ((await createFollowStore(e).get(f.id)) as { nextPollAt: Date }).nextPollAt,
    };
  },
};

describe.each(ENGINES)('on $name', (under) => {
  const open: SqlEngine[] = [];
  const made: TestDatabase[] = [];
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });
  /** One database and two engines on it: two replicas (or one bot before and after a restart). */
  const twoReplicas = async () => {
    const d = await under.database();
    made.push(d);
    const one = await d.open();
    open.push(one);
    const two = await d.open();
    open.push(two);
    return [one, two] as const;
  };

  describe.each(Object.keys(POLLED) as PolledTable[])('for %s', (table) => {
    it('keeps a busy poll’s count and later next poll for whichever replica claims the row next; an answered poll starts it again', async () => {
      const [one, two] = await twoReplicas();
      const row = await POLLED[table](one);
      const first = await row.claim(one, 'r1', 0);
      expect(first).toEqual({ gen: expect.any(Number), busyPolls: 0 });
      await row.finish(one, 'r1', 60);
      const backOff = createPollBackOffStore(one, table);
      expect(
        await backOff.backOff(row.key, { gen: first?.gen as number, owner: 'r1', count: 1, notBefore: at(120) }),
      ).toBe(true);
      // Not due at its own next poll any more; due at the later one, on the other replica, with its count.
      expect(await row.nextPollAt(two)).toEqual(at(120));
      expect(await row.claim(two, 'r2', 60)).toBeNull();
      const second = await row.claim(two, 'r2', 120);
      expect(second).toEqual({ gen: (first?.gen as number) + 1, busyPolls: 1 });
      // A back-off earlier than the row's own next poll leaves the later one.
      await row.finish(two, 'r2', 400);
      expect(
        await createPollBackOffStore(two, table).backOff(row.key, {
          gen: second?.gen as number,
          owner: 'r2',
          count: 2,
          notBefore: at(300),
        }),
      ).toBe(true);
      expect(await row.nextPollAt(one)).toEqual(at(400));
      const third = await row.claim(one, 'r1', 400);
      expect(third?.busyPolls).toBe(2);
      await row.finish(one, 'r1', 460);
      await backOff.calm(row.key, { gen: third?.gen as number, owner: 'r1' });
      expect((await row.claim(two, 'r2', 460))?.busyPolls).toBe(0);
    });

    it('writes nothing over a claim that came after the poll', async () => {
      const [one, two] = await twoReplicas();
      const row = await POLLED[table](one);
      const stale = await row.claim(one, 'r1', 0);
      await row.finish(one, 'r1', 60);
      const taken = await row.claim(two, 'r2', 60);
      expect(taken?.gen).toBe((stale?.gen as number) + 1);
      const backOff = createPollBackOffStore(one, table);
      expect(
        await backOff.backOff(row.key, { gen: stale?.gen as number, owner: 'r1', count: 3, notBefore: at(900) }),
      ).toBe(false);
      // The new holder's lease and next poll stand; a stale poll's back-off of the new holder's claim does nothing.
      expect(
        await backOff.backOff(row.key, { gen: taken?.gen as number, owner: 'r1', count: 3, notBefore: at(900) }),
      ).toBe(false);
      expect(await row.nextPollAt(two)).toEqual(at(60));
      await row.finish(two, 'r2', 120);
      expect(
        await createPollBackOffStore(two, table).backOff(row.key, {
          gen: taken?.gen as number,
          owner: 'r2',
          count: 1,
          notBefore: at(120),
        }),
      ).toBe(true);
      await backOff.calm(row.key, { gen: stale?.gen as number, owner: 'r1' });
      expect((await row.claim(one, 'r1', 120))?.busyPolls).toBe(1);
    });
  });
});
