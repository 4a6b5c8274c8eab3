import { describe, expect, it } from 'vitest';
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
});
