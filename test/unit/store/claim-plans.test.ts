import { describe, expect, it } from 'vitest';
import { createAlertStore } from '../../../src/store/alert-store.js';
import { migrate, openDatabase } from '../../../src/store/database.js';
import { createSqliteEngine, type SqlEngine } from '../../../src/store/engine.js';
import { createWatchStore } from '../../../src/store/watch-store.js';
import { aWatch } from '../../support/store-rows.js';

// The claim of due alerts and watches picks its rows in a subquery, then updates them. SQLite may run the outer
// update by walking its `active` index and testing every active row against the picked keys, which made each claim
// cost in proportion to everyone with alerts on; these hold it to a lookup by key per picked row.

function recordingEngine() {
  const db = openDatabase(':memory:');
  migrate(db);
  const engine = createSqliteEngine(db);
  const seen: string[] = [];
  const recording: SqlEngine = {
    ...engine,
    all: (sql, params) => {
      seen.push(sql);
      return engine.all(sql, params);
    },
  };
  const planOf = (sql: string) => {
    const names = [...sql.matchAll(/\$(\d+)/g)].map((m) => `p${m[1]}`);
    const params = Object.fromEntries(names.map((n) => [n, null]));
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql.replace(/\$(\d+)/g, '@p$1')}`).all(params) as {
      detail: string;
    }[];
    return plan.map((r) => r.detail);
  };
  return { db, recording, seen, planOf };
}

const outerSearch = (plan: string[], table: string) => plan.find((d) => d.startsWith(`SEARCH ${table} `)) ?? '';

describe('claims of due work on SQLite look picked rows up by key', () => {
  it('alerts: the update of the picked people searches by person_key, not every active row', async () => {
    const { db, recording, seen, planOf } = recordingEngine();
    const at = new Date('2026-11-26T10:00:00Z');
    db.prepare(
      `INSERT INTO alert_settings (person_key, team_id, user_id, active, actions, tz, seen_todo_id, next_poll_at,
         created_at, updated_at) VALUES ('T:U1', 'T', 'U1', 1, 'assigned', 'UTC', 1, ?, ?, ?)`,
    ).run('2026-11-26T09:59:00.000Z', at.toISOString(), at.toISOString());
    const claimed = await createAlertStore(recording).claimDue('r1', at, new Date(at.getTime() + 60_000), 200);
    expect(claimed.map((c) => c.setting.userId)).toEqual(['U1']);
    const update = seen.find((s) => /^\s*UPDATE alert_settings/.test(s));
    expect(update).toBeDefined();
    const plan = planOf(update as string);
    expect(outerSearch(plan, 'alert_settings')).toMatch(/\(person_key=\?\)/);
  });

  it('watches: the update of the picked watches searches by id, not every active watch', async () => {
    const { recording, seen, planOf } = recordingEngine();
    const now = new Date('2026-11-26T10:00:00Z');
    const store = createWatchStore(recording);
    const watch = await store.create(aWatch(new Date(now.getTime() - 1000), { teamId: 'T' }), now);
    const claimed = await store.claimDue({
      owner: 'r1',
      now,
      until: new Date(now.getTime() + 60_000),
      limit: 200,
      dueBy: now,
    });
    expect(claimed.map((c) => c.watch.id)).toEqual([watch.id]);
    const update = seen.find((s) => /^\s*UPDATE watches/.test(s));
    expect(update).toBeDefined();
    expect(outerSearch(planOf(update as string), 'watches')).toMatch(/INTEGER PRIMARY KEY \(rowid=\?\)|\(id=\?\)/);
  });
});
