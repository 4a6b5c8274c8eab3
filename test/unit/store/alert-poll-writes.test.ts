import { describe, expect, it } from 'vitest';
import { offsetOf } from '../../../src/alerts/spread.js';
import { createAlertStore } from '../../../src/store/alert-store.js';
import { migrate, openDatabase } from '../../../src/store/database.js';
import { createSqliteEngine, type SqlEngine } from '../../../src/store/engine.js';

// What an idle poll writes on SQLite: its batch's finished polls with one statement (not one per person), looking
// each row up by key; and each person's row lies among those due at about the same moment, so a batch's writes
// touch a few pages rather than a page per person.

function recordingEngine() {
  const db = openDatabase(':memory:');
  migrate(db);
  const engine = createSqliteEngine(db);
  const seen: string[] = [];
  const noted = <T>(sql: string, go: () => T): T => {
    seen.push(sql);
    return go();
  };
  const recording: SqlEngine = {
    ...engine,
    all: (sql, params) => noted(sql, () => engine.all(sql, params)),
    get: (sql, params) => noted(sql, () => engine.get(sql, params)),
    run: (sql, params) => noted(sql, () => engine.run(sql, params)),
    transaction: (fn) =>
      noted('BEGIN', () =>
        engine.transaction((tx) =>
          fn({
            all: (sql, params) => noted(sql, () => tx.all(sql, params)),
            get: (sql, params) => noted(sql, () => tx.get(sql, params)),
            run: (sql, params) => noted(sql, () => tx.run(sql, params)),
          }),
        ),
      ),
  };
  return { db, recording, seen };
}

const at = new Date('2026-11-26T10:00:00Z');
const later = (ms: number) => new Date(at.getTime() + ms);
const on = (userId: string) => ({ teamId: 'T', userId, actions: ['assigned' as const], quiet: null, tz: 'UTC' });

describe('the writes of idle alert polls on SQLite', () => {
  it('records a whole batch of finished polls with one statement that looks each person up by key', async () => {
    const { db, recording, seen } = recordingEngine();
    const store = createAlertStore(recording);
    const people = Array.from({ length: 50 }, (_, i) => `U${i}`);
    for (const u of people) await store.enable(on(u), 1, later(-1000));
    const claimed = await store.claimDue('r1', at, later(60_000), 200);
    expect(claimed).toHaveLength(50);
    seen.length = 0;
    await store.recordPolls(
      'r1',
      claimed.map((c) => [c.setting.teamId, c.setting.userId, { at, nextPollAt: later(60_000), result: 'idle' }]),
    );
    expect(seen).toHaveLength(1);
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${(seen[0] as string).replace(/\$(\d+)/g, '@p$1')}`)
      .all({ p1: 'r1', p2: '[]' }) as { detail: string }[];
    expect(plan.map((r) => r.detail).find((d) => d.startsWith('SEARCH alert_settings '))).toMatch(/\(person_key=\?\)/);
    expect(plan.some((r) => r.detail.startsWith('SCAN alert_settings'))).toBe(false);
    const rows = db.prepare('SELECT next_poll_at, lease_owner FROM alert_settings').all();
    expect(rows).toEqual(people.map(() => ({ next_poll_at: later(60_000).toISOString(), lease_owner: null })));
  });

  it('lays people’s rows out in the order of their slots of the minute, whenever they turned alerts on', async () => {
    const { db, recording } = recordingEngine();
    const store = createAlertStore(recording);
    const slotOf = (u: string) => offsetOf(`T:${u}`, 60_000);
    // Two people whose slots fall on the same millisecond take neighbouring places, not the same one.
    const firstOfSlot = new Map<number, string>();
    let same: string[] = [];
    for (let i = 0; same.length === 0; i++) {
      const u = `S${i}`;
      const other = firstOfSlot.get(slotOf(u));
      if (other) same = [other, u];
      else firstOfSlot.set(slotOf(u), u);
    }
    const people = [...Array.from({ length: 300 }, (_, i) => `U${i}`), ...same];
    for (const u of people) await store.enable(on(u), 1, at);
    // Off and on again: the row stays where it is.
    await store.disable('T', 'U7', at);
    await store.enable(on('U7'), 1, at);
    const inRowOrder = (
      db.prepare('SELECT user_id FROM alert_settings ORDER BY rowid').all() as { user_id: string }[]
    ).map((r) => r.user_id);
    const slots = inRowOrder.map(slotOf);
    expect(slots).toEqual([...slots].sort((a, b) => a - b));
    expect(new Set(inRowOrder).size).toBe(people.length);
  });

  it('moves rows written before they were placed into their place, once, with nothing read changed', async () => {
    const { db, recording } = recordingEngine();
    const store = createAlertStore(recording);
    const insert = db.prepare(
      `INSERT INTO alert_settings (person_key, team_id, user_id, active, actions, tz, seen_todo_id, next_poll_at,
         created_at, updated_at) VALUES (?, 'T', ?, 1, 'assigned', 'UTC', 7, ?, ?, ?)`,
    );
    const people = Array.from({ length: 40 }, (_, i) => `U${i}`);
    for (const u of people) insert.run(`T:${u}`, u, at.toISOString(), at.toISOString(), at.toISOString());
    await store.enable(on('V1'), 1, at);
    await store.hold({ teamId: 'T', userId: 'U3', todos: [{ todoId: 9, todo: '{}' }], seenTodoId: 9, now: at });
    const before = await Promise.all([...people, 'V1'].map((u) => store.get('T', u)));

    expect(await store.placeRows()).toBe(people.length);
    expect(await store.placeRows()).toBe(0);

    const slots = (db.prepare('SELECT user_id FROM alert_settings ORDER BY rowid').all() as { user_id: string }[]).map(
      (r) => offsetOf(`T:${r.user_id}`, 60_000),
    );
    expect(slots).toEqual([...slots].sort((a, b) => a - b));
    expect(await Promise.all([...people, 'V1'].map((u) => store.get('T', u)))).toEqual(before);
    expect(await store.held('T', 'U3')).toEqual([{ todoId: 9, todo: '{}' }]);
  });
});
