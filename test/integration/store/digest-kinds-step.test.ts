import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/database.js';
import { createDigestStore } from '../../../src/store/digest-store.js';
import { createSqliteEngine, type SqlEngine } from '../../../src/store/engine.js';
import { POSTGRES_MIGRATIONS, SCHEMA_VERSION, SQLITE_MIGRATIONS } from '../../../src/store/migrations.js';
import { createPostgresEngine, openPostgres } from '../../../src/store/postgres-engine.js';
import { freshPostgresUrl } from '../../support/postgres.js';

// Store conformance: step 17 lets digests be of kind 'insights' with an environment. On SQLite it rebuilds the
// digests table (and digest_runs with it); a database with digests, a removed one and an open intent keeps every
// row, the intent's cascade, the AUTOINCREMENT high-water mark and the indexes, on both engines.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const STEP = 16; // the schema just before the step under test
const T = '2026-03-02T09:00:00.000Z';

/** Three digests (the third removed), and an open intent of the first: what the step must carry across. */
const ROWS = [
  `INSERT INTO digests (team_id, owner_user_id, channel_id, in_dm, kind, project_id, project_path, cron, tz, active,
     created_at, updated_at, next_run_at, cursor_at, cursor_keys, lease_owner, lease_until, lease_gen)
   VALUES ('T1', 'U1', 'C1', 0, 'project_events', 42, 'demo/web', '0 9 * * *', 'UTC', 1, '${T}', '${T}', '${T}', '${T}',
     '["a"]', 'replica-1', '${T}', 3)`,
  `INSERT INTO digests (team_id, owner_user_id, channel_id, in_dm, kind, cron, tz, active, created_at, updated_at,
     cursor_at, cursor_keys) VALUES ('T1', 'U1', 'D1', 1, 'todos', '0 9 * * 1-5', 'Europe/Berlin', 0, '${T}', '${T}', '${T}', '[]')`,
  `INSERT INTO digests (team_id, owner_user_id, channel_id, in_dm, kind, cron, tz, active, created_at, updated_at,
     cursor_at, cursor_keys) VALUES ('T1', 'U2', 'D2', 1, 'todos', '0 9 * * 1-5', 'UTC', 1, '${T}', '${T}', '${T}', '[]')`,
  'DELETE FROM digests WHERE id = 3',
  `INSERT INTO digest_runs (run_key, digest_id, scheduled_for, reason, state, channel_id, message_ts, cursor_at,
     cursor_keys, items, created_at) VALUES ('run-1', 1, '${T}', 'scheduled', 'posted', 'C1', '1.0001', '${T}', '["b"]', 2, '${T}')`,
];

interface Upgrade {
  upgraded(): Promise<SqlEngine>;
  indexes(engine: SqlEngine): Promise<string[]>;
}

const UPGRADES: [string, Upgrade][] = [
  [
    'SQLite',
    {
      async upgraded() {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-digest-kinds-'));
        cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
        const file = path.join(dir, 'bot.db');
        const old = new Database(file);
        old.pragma('foreign_keys = ON');
        for (const sql of SQLITE_MIGRATIONS.slice(0, STEP)) old.exec(sql);
        old.pragma(`user_version = ${STEP}`);
        for (const sql of ROWS) old.exec(sql);
        old.close();
        const engine = createSqliteEngine(openDatabase(file));
        cleanups.unshift(() => engine.close());
        return engine;
      },
      async indexes(engine) {
        const rows = await engine.all<{ name: string }>(
          `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('digests', 'digest_runs')
             AND sql IS NOT NULL ORDER BY name`,
        );
        return rows.map((r) => r.name);
      },
    },
  ],
  [
    'PostgreSQL',
    {
      async upgraded() {
        const url = await freshPostgresUrl();
        const old = createPostgresEngine(url);
        await old.run('CREATE TABLE schema_version (version INTEGER NOT NULL)');
        await old.run('INSERT INTO schema_version (version) VALUES ($1)', [STEP]);
        for (const sql of POSTGRES_MIGRATIONS.slice(0, STEP)) await old.run(sql);
        for (const sql of ROWS) await old.run(sql);
        await old.close();
        const engine = await openPostgres(url);
        cleanups.unshift(() => engine.close());
        return engine;
      },
      async indexes(engine) {
        const rows = await engine.all<{ name: string }>(
          `SELECT indexname AS name FROM pg_indexes WHERE tablename IN ('digests', 'digest_runs')
             AND indexname NOT LIKE '%_pkey' ORDER BY indexname`,
        );
        return rows.map((r) => r.name);
      },
    },
  ],
];

describe.each(UPGRADES)('digests after step 17 on %s', (_name, under) => {
  it('keeps every digest, its lease and its open intent, with the indexes', async () => {
    expect(SCHEMA_VERSION).toBeGreaterThan(STEP);
    const engine = await under.upgraded();
    const store = createDigestStore(engine, () => new Date(T));
    expect(await store.get(1)).toMatchObject({
      kind: 'project_events',
      project: { id: 42, path: 'demo/web' },
      environment: null,
      cursor: { at: T, keys: ['a'] },
    });
    expect(await engine.get('SELECT lease_owner, lease_until, lease_gen FROM digests WHERE id = 1')).toEqual({
      lease_owner: 'replica-1',
      lease_until: T,
      lease_gen: 3,
    });
    expect(await store.get(2)).toMatchObject({ kind: 'todos', active: false });
    expect(await store.openRunOf(1)).toMatchObject({ runKey: 'run-1', state: 'posted', cursor: { keys: ['b'] } });
    expect(await under.indexes(engine)).toEqual([
      'digest_runs_digest',
      'digests_channel',
      'digests_due',
      'digests_owner',
    ]);
  });

  it('takes an insights digest with its environment, never gives a removed id again, and cascades intents', async () => {
    const engine = await under.upgraded();
    const store = createDigestStore(engine, () => new Date(T));
    const insights = await store.create({
      teamId: 'T1',
      ownerId: 'U1',
      channelId: 'C1',
      inDm: false,
      kind: 'insights',
      project: { id: 42, path: 'demo/web' },
      user: null,
      action: null,
      targetType: null,
      environment: 'staging',
      cron: '0 9 * * 1',
      tz: 'UTC',
      nextRunAt: null,
      cursor: { at: T, keys: [] },
    });
    expect(insights).toMatchObject({ id: 4, kind: 'insights', environment: 'staging' });
    expect((await store.findSame({ ...insights, nextRunAt: null }))?.id).toBe(4);
    expect(await store.findSame({ ...insights, environment: null, nextRunAt: null })).toBeNull();
    await expect(
      engine.run(
        `INSERT INTO digests (team_id, owner_user_id, channel_id, in_dm, kind, cron, tz, active, created_at, updated_at,
           cursor_at, cursor_keys) VALUES ('T1', 'U1', 'C1', 0, 'weather', '0 9 * * 1', 'UTC', 1, $1, $1, $1, '[]')`,
        [T],
      ),
    ).rejects.toThrow();
    expect(await store.remove(1)).toBe(true);
    expect(await store.openRunOf(1)).toBeNull();
    expect(await engine.get('SELECT count(*) AS n FROM digest_runs')).toEqual({ n: 0 });
  });
});
