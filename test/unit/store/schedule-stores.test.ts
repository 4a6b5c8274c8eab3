import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSharedChannelQueue, createSharedTokenBudget } from '../../../src/delivery/pacing.js';
import { createCronFireStore } from '../../../src/store/cron-fire-store.js';
import { openDatabase } from '../../../src/store/database.js';
import { createLeaseStore } from '../../../src/store/delivery-lease-store.js';
import {
  createDigestStore,
  type DigestRow,
  type NewDigest,
  OPEN_RUN_OF_CLAIMED,
  toDigest,
} from '../../../src/store/digest-store.js';
import { createSqliteEngine, type SqlEngine } from '../../../src/store/engine.js';
import { openEngine } from '../../../src/store/open.js';
import { createPacingStore, type PacingStore } from '../../../src/store/pacing-store.js';
import { sleepingClock } from '../../support/clock.js';
import { borrowPostgresUrl, giveBackPostgresUrl } from '../../support/postgres-reuse.js';

// The tables through which replicas decide scheduled work once, each test with two replicas: two connections to
// one database, as two bot processes have.

/** A pacing store that counts its reads and transactions. */
function countingStore(store: PacingStore) {
  const counted = {
    ...store,
    reads: 0,
    updates: 0,
    budget(key: string) {
      counted.reads++;
      return store.budget(key);
    },
    updateBudget: ((key, at, change) => {
      counted.updates++;
      return store.updateBudget(key, at, change);
    }) as PacingStore['updateBudget'],
  };
  return counted;
}

interface Replicas {
  a: SqlEngine;
  b: SqlEngine;
  /** Makes a digest (through the digest store) and resolves with its id. */
  digest(o?: Partial<NewDigest>): Promise<number>;
}

/**
 * Digest leases as a run sees them: the kernel's lease store on the digests table (its claim reads the digest and
 * whether an intent is open) and the digest store's queries of what is due, armed and orphaned.
 */
function createDigestLeaseStore(engine: SqlEngine) {
  const leases = createLeaseStore(engine, 'digests');
  const digests = createDigestStore(engine);
  return {
    async claim(id: number, o: { owner: string; now: Date; until: Date }) {
      const c = await leases.claim<DigestRow & { open_run: number | string }>(id, { ...o, extra: OPEN_RUN_OF_CLAIMED });
      return c ? { digest: toDigest(c.row), openRun: Number(c.row.open_run) === 1, leaseGen: c.gen } : null;
    },
    renew: leases.renew,
    release: leases.release,
    releaseMany: leases.releaseMany,
    releaseAll: leases.releaseAll,
    scheduled: digests.scheduled,
    overdue: digests.overdue,
    orphaned: async (now: Date, o: { released: boolean }) =>
      (await digests.orphaned(now, o)).map((r) => ({ digestId: r.id, scheduledFor: r.scheduledFor })),
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function sqliteReplicas(): Promise<Replicas> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-schedule-'));
  const file = path.join(dir, 'bot.db');
  const dbA = openDatabase(file);
  const dbB = openDatabase(file);
  cleanups.push(() => {
    dbA.close();
    dbB.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const a = createSqliteEngine(dbA);
  const digests = createDigestStore(a);
  return { a, b: createSqliteEngine(dbB), digest: (o = {}) => makeDigest(digests, o) };
}

async function makeDigest(digests: ReturnType<typeof createDigestStore>, o: Partial<NewDigest>): Promise<number> {
  {
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
      nextRunAt: new Date('2026-03-02T09:00:00Z'),
      cursor: { at: '2026-03-01T00:00:00.000Z', keys: [] },
      ...o,
    });
    return d.id;
  }
}

async function postgresReplicas(): Promise<Replicas> {
  const config = { databasePath: '', databaseUrl: await borrowPostgresUrl() };
  const a = await openEngine(config);
  const b = await openEngine(config);
  cleanups.push(async () => {
    await a.close();
    await b.close();
    giveBackPostgresUrl(config.databaseUrl);
  });
  const digests = createDigestStore(a);
  return { a, b, digest: (o = {}) => makeDigest(digests, o) };
}

const ENGINES: [string, () => Promise<Replicas>][] = [
  ['SQLite (two connections to one file)', sqliteReplicas],
  ['PostgreSQL (two pools on one database)', postgresReplicas],
];

const at = (iso: string) => new Date(iso);

for (const [name, replicas] of ENGINES) {
  describe(`cron fires on ${name}`, () => {
    it('go to the first replica that takes their key, once, whichever asks after', async () => {
      const r = await replicas();
      const a = createCronFireStore(r.a);
      const b = createCronFireStore(r.b);
      const key = 'digests 0 9 * * * UTC:2026-03-02T09:00:00.000Z';
      const taken = await Promise.all([
        a.take(key, 'A', at('2026-03-02T09:00:00Z')),
        b.take(key, 'B', at('2026-03-02T09:00:00Z')),
      ]);
      expect(taken.filter(Boolean)).toHaveLength(1);
      expect(await a.take(key, 'A', at('2026-03-02T09:00:30Z'))).toBe(false);
      expect(await b.take('digests 0 9 * * * UTC:2026-03-03T09:00:00.000Z', 'B', at('2026-03-03T09:00:00Z'))).toBe(
        true,
      );
    });

    it('keep their keys for a day: pruning takes only older ones', async () => {
      const r = await replicas();
      const fires = createCronFireStore(r.a);
      await fires.take('old', 'A', at('2026-03-01T09:00:00Z'));
      await fires.take('new', 'A', at('2026-03-02T09:00:00Z'));
      expect(await fires.prune(at('2026-03-02T00:00:00Z'))).toBe(1);
      expect(await fires.take('new', 'B', at('2026-03-02T09:01:00Z'))).toBe(false);
      expect(await fires.take('old', 'B', at('2026-03-02T09:01:00Z'))).toBe(true);
    });
  });

  describe(`leases on digest runs on ${name}`, () => {
    it('give a digest to one replica until its lease is released or runs out', async () => {
      const r = await replicas();
      const id = await r.digest();
      const a = createDigestLeaseStore(r.a);
      const b = createDigestLeaseStore(r.b);
      const now = at('2026-03-02T09:00:00Z');
      const until = at('2026-03-02T09:01:00Z');
      const both = await Promise.all([
        a.claim(id, { owner: 'A', now, until }),
        b.claim(id, { owner: 'B', now, until }),
      ]);
      expect(both.filter((c) => c !== null)).toHaveLength(1);
      const [holder, other] = both[0] ? [a, b] : [b, a];
      const [holderName, otherName] = both[0] ? ['A', 'B'] : ['B', 'A'];
      // The claim is the run's read of the digest.
      expect((both[0] ?? both[1])?.digest).toMatchObject({ id, cron: '0 9 * * *', active: true });
      expect(await other.claim(id, { owner: otherName, now: at('2026-03-02T09:00:59Z'), until })).toBeNull();
      // The holder renews; the other waits on.
      expect(await holder.renew(holderName, at('2026-03-02T09:02:00Z'))).toBe(1);
      expect(await other.claim(id, { owner: otherName, now: at('2026-03-02T09:01:30Z'), until })).toBeNull();
      // Run out (the holder died): taken over.
      expect(
        await other.claim(id, { owner: otherName, now: at('2026-03-02T09:02:00Z'), until: at('2026-03-02T09:03:00Z') }),
      ).not.toBeNull();
      expect(await holder.claim(id, { owner: holderName, now: at('2026-03-02T09:02:10Z'), until })).toBeNull();
      // Released: free at once.
      await other.release(id, otherName);
      const later = at('2026-03-02T09:04:00Z');
      expect(
        await holder.claim(id, { owner: holderName, now: at('2026-03-02T09:02:10Z'), until: later }),
      ).not.toBeNull();
      // A release by a replica that does not hold it changes nothing.
      await other.release(id, otherName);
      expect(await other.claim(id, { owner: otherName, now: at('2026-03-02T09:02:20Z'), until: later })).toBeNull();
      await holder.releaseAll(holderName);
      expect(await other.claim(id, { owner: otherName, now: at('2026-03-02T09:02:20Z'), until: later })).not.toBeNull();
    });

    it('say whether an intent is open, and find the intents whose replica died', async () => {
      const r = await replicas();
      const id = await r.digest();
      const idle = await r.digest({ channelId: 'C2' });
      const dbDigests = createDigestLeaseStore(r.a);
      const now = at('2026-03-02T09:00:00Z');
      const claimed = await dbDigests.claim(id, { owner: 'A', now, until: at('2026-03-02T09:01:00Z') });
      expect(claimed?.openRun).toBe(false);
      await r.a.run(
        `INSERT INTO digest_runs (run_key, digest_id, scheduled_for, reason, state, channel_id, cursor_at, cursor_keys,
           items, created_at) VALUES ('k1', $1, '2026-03-02T09:00:00.000Z', 'scheduled', 'pending', 'C1', 'x', '[]', 1,
           '2026-03-02T09:00:01.000Z')`,
        [id],
      );
      expect((await dbDigests.claim(id, { owner: 'A', now, until: at('2026-03-02T09:01:00Z') }))?.openRun).toBe(true);
      const b = createDigestLeaseStore(r.b);
      // Held and alive: nobody else's to settle, not even at start.
      expect(await b.orphaned(at('2026-03-02T09:00:30Z'), { released: true })).toEqual([]);
      // Its lease ran out: the sweep takes it over.
      expect(await b.orphaned(at('2026-03-02T09:01:00Z'), { released: false })).toEqual([
        { digestId: id, scheduledFor: at('2026-03-02T09:00:00Z') },
      ]);
      // Released with the intent left for later: a start settles it, a sweep leaves it to the next run.
      await dbDigests.release(id, 'A');
      expect(await b.orphaned(at('2026-03-02T09:00:30Z'), { released: false })).toEqual([]);
      expect(await b.orphaned(at('2026-03-02T09:00:30Z'), { released: true })).toHaveLength(1);
      expect((await b.scheduled()).map((s) => s.id)).toEqual([id, idle]);
    });

    it('list what is overdue and held by nobody, and what every replica arms', async () => {
      const r = await replicas();
      const due = await r.digest();
      const held = await r.digest({ channelId: 'C2' });
      const later = await r.digest({ channelId: 'C3', nextRunAt: at('2026-03-03T09:00:00Z') });
      const paused = await r.digest({ channelId: 'C4' });
      await r.a.run('UPDATE digests SET active = 0 WHERE id = $1', [paused]);
      const a = createDigestLeaseStore(r.a);
      const b = createDigestLeaseStore(r.b);
      await a.claim(held, { owner: 'A', now: at('2026-03-02T09:00:00Z'), until: at('2026-03-02T09:05:00Z') });
      expect(await b.overdue(at('2026-03-02T09:02:00Z'), at('2026-03-02T09:02:00Z'), 100)).toEqual([
        { id: due, nextRunAt: at('2026-03-02T09:00:00Z') },
      ]);
      expect((await b.scheduled()).map((s) => s.id)).toEqual([due, held, later]);
      expect(await b.scheduled()).toContainEqual({ id: later, cron: '0 9 * * *', tz: 'UTC' });
      await a.releaseMany([held, due], 'A');
      expect((await b.overdue(at('2026-03-02T09:02:00Z'), at('2026-03-02T09:02:00Z'), 100)).map((d) => d.id)).toEqual([
        due,
        held,
      ]);
    });
  });

  describe(`pacing shared by replicas on ${name}`, () => {
    it('gives each post of a channel its own second, whichever replica posts, and other channels none', async () => {
      const r = await replicas();
      const a = createPacingStore(r.a);
      const b = createPacingStore(r.b);
      const times = await Promise.all([
        a.reservePost('C1', 10_000, 1000),
        b.reservePost('C1', 10_000, 1000),
        a.reservePost('C1', 10_200, 1000),
        b.reservePost('C2', 10_000, 1000),
      ]);
      expect([...times.slice(0, 3)].sort()).toEqual([10_000, 11_000, 12_000]);
      expect(times[3]).toBe(10_000);
      // A post that ended late pushes the lane past its end.
      await a.posted('C2', 14_500, 1000);
      expect(await b.reservePost('C2', 12_000, 1000)).toBe(15_500);
      // A lane long idle is pruned; the next post goes at once.
      expect(await a.prune(100_000)).toBe(2);
      expect(await b.reservePost('C1', 200_000, 1000)).toBe(200_000);
    });

    // The sleeping clock moves by each sleeper's wait, which reads as the lanes' times only while the two
    // connections answer in turn (SQLite); on PostgreSQL the lanes themselves are checked by the test above.
    it.skipIf(name.startsWith('PostgreSQL'))(
      'never posts two messages into one channel within the interval from two replicas',
      async () => {
        const r = await replicas();
        const clock = sleepingClock(50_000);
        const posted: { replica: string; at: number }[] = [];
        const queues = [r.a, r.b].map((e) =>
          createSharedChannelQueue({ store: createPacingStore(e), intervalMs: 1000, clock }),
        );
        await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (queues[i % 2] as (typeof queues)[number]).run('C1', async () => {
              posted.push({ replica: i % 2 ? 'B' : 'A', at: clock.now() });
            }),
          ),
        );
        const times = posted.map((p) => p.at).sort((x, y) => x - y);
        expect(times).toHaveLength(6);
        for (let i = 1; i < times.length; i++)
          expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(1000);
      },
    );

    it('spends one token’s budget once across replicas: the calls the server allows, then a wait for the reset', async () => {
      const r = await replicas();
      const clock = sleepingClock(1_000_000);
      const [a, b] = [r.a, r.b].map((e) =>
        createSharedTokenBudget({ store: createPacingStore(e), clock, reserveShare: 0.1 }),
      );
      if (!a || !b) throw new Error('two budgets');
      // 14 left of 100, 10 kept for the person's own commands: 4 calls between both replicas, then the reset.
      await a.observe('k', { limit: 100, remaining: 14, reset: clock.now() / 1000 + 60, observed: 86 });
      await Promise.all([a.acquire('k'), b.acquire('k'), a.acquire('k'), b.acquire('k')]);
      expect(clock.slept).toEqual([]);
      await b.acquire('k');
      expect(clock.slept).toEqual([60_000]);
      // A 429 seen by one replica holds the other back.
      await a.backoff('k', 7000);
      await b.acquire('k');
      expect(clock.slept).toEqual([60_000, 7000]);
      // A token the server told nothing of costs no write.
      const before = await r.a.get<{ n: number }>('SELECT count(*) AS n FROM token_budgets');
      await b.acquire('other');
      expect(await r.a.get<{ n: number }>('SELECT count(*) AS n FROM token_budgets')).toEqual(before);
    });

    it('takes a slice of a token’s budget per transaction, spends it in memory, and never spends the reserve or a call twice', async () => {
      const r = await replicas();
      const clock = sleepingClock(1_000_000);
      const stores = [r.a, r.b].map((e) => countingStore(createPacingStore(e)));
      const [a, b] = stores.map((store) => createSharedTokenBudget({ store, clock, reserveShare: 0.1 }));
      if (!a || !b) throw new Error('two budgets');
      // 60 left of 100, 10 kept for the person's own commands: 50 calls between both replicas, then the reset.
      await a.observe('k', { limit: 100, remaining: 60, reset: clock.now() / 1000 + 60, observed: 40 });
      let calls = 0;
      while (clock.slept.length === 0) {
        await (calls % 3 ? a : b).acquire('k');
        if (clock.slept.length === 0) calls++;
      }
      expect(calls).toBe(50);
      expect(clock.slept).toEqual([60_000]);
      const transactions = stores.reduce((n, s) => n + s.updates, 0);
      expect(transactions).toBeLessThan(25);
    });

    it('writes an answer back only when it tells the store something new, and reads a silent server’s token once', async () => {
      const r = await replicas();
      const clock = sleepingClock(1_000_000);
      const store = countingStore(createPacingStore(r.a));
      const budget = createSharedTokenBudget({ store, clock, reserveShare: 0.1 });
      const reset = clock.now() / 1000 + 60;
      await budget.observe('k', { limit: 100, remaining: 90, reset, observed: 10 });
      await budget.acquire('k');
      const written = store.updates;
      // The server counts fewer calls than the store (the slice this replica holds): nothing new.
      await budget.observe('k', { limit: 100, remaining: 89, reset, observed: 11 });
      expect(store.updates).toBe(written);
      // Fewer left than the store believes (the person's own commands spent some): written.
      await budget.observe('k', { limit: 100, remaining: 40, reset, observed: 60 });
      expect(store.updates).toBe(written + 1);
      expect((await store.budget('k'))?.remaining).toBeLessThanOrEqual(40);
      // A new window: written.
      await budget.observe('k', { limit: 100, remaining: 99, reset: reset + 60, observed: 1 });
      expect(await store.budget('k')).toMatchObject({ remaining: 99, resetAt: (reset + 60) * 1000 });
      // A token the server says nothing of: one read, then none while that is remembered.
      await budget.acquire('silent');
      await budget.observe('silent', null);
      const reads = store.reads;
      await budget.acquire('silent');
      expect(store.reads).toBe(reads);
    });
  });
}
