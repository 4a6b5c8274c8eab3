import { afterEach, describe, expect, it } from 'vitest';
import { createAlertStore } from '../../../src/store/alert-store.js';
import type { SqlEngine, SqlRunner } from '../../../src/store/engine.js';
import { createFollowStore } from '../../../src/store/follow-store.js';
import { createWatchStore } from '../../../src/store/watch-store.js';
import { aFollow, aWatch } from '../../support/store-rows.js';
import { ENGINES, type TestDatabase } from './engines.js';

// Store conformance: a poll tick with nothing due only reads, for alerts, watches and follows alike. A write, even
// one that changes no row, takes SQLite's write lock: an idle tick would queue behind another process holding it,
// in front of people's commands. So every statement an idle claim sends must be a read.

const t0 = new Date('2026-03-02T10:00:00.000Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);

const isRead = (sql: string) => /^\s*SELECT\b/i.test(sql);

/** The engine, with every statement that is not a plain SELECT (and every transaction) noted. */
function recording(engine: SqlEngine): { engine: SqlEngine; writes: string[] } {
  const writes: string[] = [];
  const note = (sql: string) => {
    if (!isRead(sql)) writes.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
  };
  const runner = (r: SqlRunner): SqlRunner => ({
    all(sql, params) {
      note(sql);
      return r.all(sql, params);
    },
    get(sql, params) {
      note(sql);
      return r.get(sql, params);
    },
    run(sql, params) {
      note(sql);
      return r.run(sql, params);
    },
  });
  const wrapped: SqlEngine = {
    ...runner(engine),
    kind: engine.kind,
    transaction: (fn) => {
      writes.push('transaction');
      return engine.transaction((tx) => fn(runner(tx)));
    },
    lock: (name, fn) => engine.lock(name, fn),
    ping: () => engine.ping(),
    close: () => engine.close(),
  };
  return { engine: wrapped, writes };
}

describe.each(ENGINES)('on $name', (under) => {
  const open: SqlEngine[] = [];
  const made: TestDatabase[] = [];
  const engine = async () => {
    const d = await under.database();
    made.push(d);
    const e = await d.open();
    open.push(e);
    return recording(e);
  };
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });

  it('an alert tick with nobody due only reads; one with someone due claims them', async () => {
    const { engine: e, writes } = await engine();
    const alerts = createAlertStore(e);
    await alerts.enable({ teamId: 'T1', userId: 'U1', actions: ['assigned'], quiet: null, tz: 'UTC' }, 10, at(60));
    writes.length = 0;
    expect(await alerts.claimDue('r1', at(30), at(90), 100)).toEqual([]);
    expect(writes).toEqual([]);
    const due = await alerts.claimDue('r1', at(61), at(120), 100);
    expect(due.map((c) => c.setting.userId)).toEqual(['U1']);
    expect(writes.length).toBeGreaterThan(0);
    // Leased to r1: another replica's tick finds nobody it may take, and only reads.
    writes.length = 0;
    expect(await alerts.claimDue('r2', at(62), at(120), 100)).toEqual([]);
    expect(writes).toEqual([]);
  });

  it('a follow tick with nothing due only reads; one with a follow due claims it', async () => {
    const { engine: e, writes } = await engine();
    const follows = createFollowStore(e);
    const f = await follows.create(aFollow(t0));
    writes.length = 0;
    expect(await follows.claimDue('r1', { dueBy: at(4), now: at(4), until: at(60), limit: 10 })).toEqual([]);
    expect(writes).toEqual([]);
    const due = await follows.claimDue('r1', { dueBy: at(5), now: at(5), until: at(60), limit: 10 });
    expect(due.map((x) => x.id)).toEqual([f.id]);
    expect(writes.length).toBeGreaterThan(0);
  });

  it('a watch tick with nothing due only reads', async () => {
    const { engine: e, writes } = await engine();
    const watches = createWatchStore(e);
    await watches.create(aWatch(at(60)), t0);
    writes.length = 0;
    expect(await watches.claimDue({ owner: 'r1', now: at(30), until: at(90), limit: 100, dueBy: at(30) })).toEqual([]);
    expect(writes).toEqual([]);
    expect(
      await watches.claimDue({ owner: 'r1', now: at(60), until: at(120), limit: 100, dueBy: at(60) }),
    ).toHaveLength(1);
    expect(writes.length).toBeGreaterThan(0);
  });
});
