import { afterEach, describe, expect, it } from 'vitest';
import { createAlertStore } from '../../../src/store/alert-store.js';
import { createLeaseStore, type HeldLease } from '../../../src/store/delivery-lease-store.js';
import { createDigestStore } from '../../../src/store/digest-store.js';
import type { SqlEngine } from '../../../src/store/engine.js';
import { createFollowStore } from '../../../src/store/follow-store.js';
import { createWatchStore } from '../../../src/store/watch-store.js';
import { aFollow, aWatch } from '../../support/store-rows.js';
import { ENGINES, type TestDatabase } from './engines.js';

// Store conformance: the fence of a post (store/delivery-lease-store.ts, the delivery kernel's store) means the same on SQLite and on PostgreSQL, for
// every leased row: a lease renewed right before a post holds only for the claim that took it, while it has not
// run out, and the renewal keeps other replicas off it.

const t0 = new Date('2026-03-02T09:00:00.000Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);
const LEASE_S = 60;

/** One leased row of one store: its claim (the generation it got, or null) and its fence. */
interface Leased {
  claim(owner: string, nowS: number): Promise<number | null>;
  fence(lease: HeldLease, nowS: number): Promise<boolean>;
}

const renewal = (nowS: number) => ({ now: at(nowS), until: at(nowS + LEASE_S) });

const LEASED: Record<string, (engine: SqlEngine) => Promise<Leased>> = {
  'a person’s alerts': async (engine) => {
    const s = createAlertStore(engine);
    await s.enable({ teamId: 'T1', userId: 'U1', actions: ['assigned'], quiet: null, tz: 'UTC' }, 0, t0);
    return {
      claim: async (owner, n) => (await s.claimDue(owner, at(n), at(n + LEASE_S), 10))[0]?.leaseGen ?? null,
      fence: (lease, n) => s.fence('T1', 'U1', lease, renewal(n)),
    };
  },
  'a watch': async (engine) => {
    const s = createWatchStore(engine);
    const w = await s.create(aWatch(t0), t0);
    return {
      claim: async (owner, n) =>
        (await s.claimDue({ owner, now: at(n), until: at(n + LEASE_S), limit: 10, dueBy: at(n) }))[0]?.leaseGen ?? null,
      fence: (lease, n) => s.fence(w.id, lease, renewal(n)),
    };
  },
  'a follow': async (engine) => {
    const s = createFollowStore(engine);
    const f = await s.create(aFollow(t0, { drawn: null, nextPollAt: t0 }));
    return {
      claim: async (owner, n) =>
        (await s.claimDue(owner, { dueBy: at(n), now: at(n), until: at(n + LEASE_S), limit: 10 }))[0]?.leaseGen ?? null,
      fence: (lease, n) => s.fence(f.id, lease, renewal(n)),
    };
  },
  'a digest': async (engine) => {
    const digests = createDigestStore(engine, () => t0);
    const leases = createLeaseStore(engine, 'digests');
    const d = await digests.create({
      teamId: 'T1',
      ownerId: 'U1',
      channelId: 'C1',
      inDm: false,
      kind: 'todos',
      project: null,
      user: null,
      action: null,
      targetType: null,
      cron: '0 9 * * *',
      tz: 'UTC',
      nextRunAt: t0,
      cursor: { at: t0.toISOString(), keys: [] },
    });
    return {
      claim: async (owner, n) => (await leases.claim(d.id, { owner, now: at(n), until: at(n + LEASE_S) }))?.gen ?? null,
      fence: (lease, n) => leases.fence(d.id, lease, renewal(n)),
    };
  },
};

describe.each(ENGINES)('on $name', (under) => {
  const open: SqlEngine[] = [];
  const made: TestDatabase[] = [];
  const engine = async () => {
    const d = await under.database();
    made.push(d);
    const e = await d.open();
    open.push(e);
    return e;
  };
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });

  describe.each(Object.keys(LEASED))('for %s', (what) => {
    const leased = async () => (LEASED[what] as (e: SqlEngine) => Promise<Leased>)(await engine());

    it('holds for the claim that took the lease while it lasts, and the renewal keeps other replicas off', async () => {
      const row = await leased();
      const gen = await row.claim('r1', 0);
      expect(gen).not.toBeNull();
      const lease = { owner: 'r1', gen: gen as number };
      expect(await row.fence(lease, 50)).toBe(true);
      // Renewed at 50 s until 110 s: at 70 s (past the claim's own 60 s) nobody else takes it.
      expect(await row.claim('r2', 70)).toBeNull();
      expect(await row.fence(lease, 100)).toBe(true);
      expect(await row.fence({ owner: 'r2', gen: gen as number }, 100)).toBe(false);
    });

    it('fails once the lease ran out, taken over or not, and holds for the new holder', async () => {
      const row = await leased();
      const lease = { owner: 'r1', gen: (await row.claim('r1', 0)) as number };
      // Nobody took it, but it ran out: a post now could race a replica taking it.
      expect(await row.fence(lease, 60)).toBe(false);
      const taken = await row.claim('r2', 61);
      expect(taken).toBeGreaterThan(lease.gen);
      expect(await row.fence(lease, 62)).toBe(false);
      expect(await row.fence({ owner: 'r2', gen: taken as number }, 62)).toBe(true);
    });

    it('fails for an earlier claim of the same replica once it claimed the row again', async () => {
      const row = await leased();
      const first = { owner: 'r1', gen: (await row.claim('r1', 0)) as number };
      const again = { owner: 'r1', gen: (await row.claim('r1', 61)) as number };
      expect(again.gen).toBe(first.gen + 1);
      expect(await row.fence(first, 62)).toBe(false);
      expect(await row.fence(again, 62)).toBe(true);
    });
  });

  it('takes a use of a follow’s response_url only while the fenced lease holds, renewing it in the same statement', async () => {
    const s = createFollowStore(await engine());
    const f = await s.create({
      teamId: 'T1',
      userId: 'U1',
      kind: 'job',
      projectKey: 'demo/web',
      projectPath: 'demo/web',
      targetId: 8,
      ref: null,
      channelId: 'C1',
      card: null,
      sealedResponseUrl: null,
      usesLeft: 2,
      urlUntil: at(1800),
      drawn: null,
      nextPollAt: t0,
      deadline: at(3600),
      createdAt: t0,
    });
    const [claimed] = await s.claimDue('r1', { dueBy: t0, now: t0, until: at(LEASE_S), limit: 10 });
    const gen = claimed?.leaseGen as number;
    expect(await s.takeUse(f.id, 'r1', { gen, ...renewal(50) })).toBe(true);
    // Renewed until 110 s by that use: it still holds at 100 s, and not for an older claim.
    expect(await s.takeUse(f.id, 'r1', { gen: gen - 1, ...renewal(100) })).toBe(false);
    expect(await s.takeUse(f.id, 'r1', { gen, ...renewal(110) })).toBe(false);
    expect((await s.get(f.id))?.usesLeft).toBe(1);
  });
});
