import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createAlertStore } from '../../../src/store/alert-store.js';
import { openDatabase } from '../../../src/store/database.js';
import { createSqliteEngine, type SqlEngine } from '../../../src/store/engine.js';
import { createFollowStore } from '../../../src/store/follow-store.js';
import { POSTGRES_MIGRATIONS, SCHEMA_VERSION, SQLITE_MIGRATIONS } from '../../../src/store/migrations.js';
import { createPostgresEngine, openPostgres } from '../../../src/store/postgres-engine.js';
import { createWatchStore } from '../../../src/store/watch-store.js';
import { freshPostgresUrl } from '../../support/postgres.js';

// Store conformance: step 18 gives alerts, watches and follows their count of busy polls in a row (the delivery
// kernel's back-off). A database with a person's alerts, a watch and a follow, one of them held by a replica, keeps
// every row, its next poll and its lease across the step, on both engines; every count starts at nothing.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const STEP = 17; // the schema just before the step under test
const t0 = new Date('2026-03-02T09:00:00.000Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);

/** The rows the step must carry across, written by the stores as the bot at step 17 wrote them. */
async function fill(engine: SqlEngine): Promise<void> {
  await createAlertStore(engine).enable(
    { teamId: 'T1', userId: 'U1', actions: ['assigned'], quiet: null, tz: 'UTC' },
    7,
    t0,
  );
  const watch = await createWatchStore(engine).create(
    {
      teamId: 'T1',
      channelId: 'C1',
      creatorId: 'U1',
      project: { id: 1, path: 'demo/web' },
      ref: 'main',
      statusFilter: 'failed',
      seen: '',
      floorId: 3,
      nextPollAt: at(30),
    },
    t0,
  );
  // (The follow store of this code selects the count with a follow: the row is written as step 17's bot did.)
  await engine.run(
    `INSERT INTO follows (team_id, user_id, kind, project_key, project_path, target_id, uses_left, url_until,
       next_poll_at, deadline, created_at) VALUES ('T1', 'U1', 'job', 'demo/web', 'demo/web', 8, 4, $1, $2, $3, $4)`,
    [at(1800).toISOString(), at(10).toISOString(), at(3600).toISOString(), t0.toISOString()],
  );
  // A replica held the watch when the bot stopped (claim 2, until a minute on).
  await engine.run(`UPDATE watches SET lease_owner = 'replica-1', lease_until = $1, lease_gen = 2 WHERE id = $2`, [
    at(60).toISOString(),
    watch.id,
  ]);
}

const UPGRADES: [string, () => Promise<SqlEngine>][] = [
  [
    'SQLite',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-busy-polls-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const file = path.join(dir, 'bot.db');
      const raw = new Database(file);
      for (const sql of SQLITE_MIGRATIONS.slice(0, STEP)) raw.exec(sql);
      raw.pragma(`user_version = ${STEP}`);
      const old = createSqliteEngine(raw);
      await fill(old);
      await old.close();
      const engine = createSqliteEngine(openDatabase(file));
      cleanups.unshift(() => engine.close());
      return engine;
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const url = await freshPostgresUrl();
      const old = createPostgresEngine(url);
      await old.run('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      await old.run('INSERT INTO schema_version (version) VALUES ($1)', [STEP]);
      for (const sql of POSTGRES_MIGRATIONS.slice(0, STEP)) await old.run(sql);
      await fill(old);
      await old.close();
      const engine = await openPostgres(url);
      cleanups.unshift(() => engine.close());
      return engine;
    },
  ],
];

describe.each(UPGRADES)('polled rows after step 18 on %s', (_name, upgraded) => {
  it('keeps every row, its next poll and its lease, each with no busy polls yet', async () => {
    expect(SCHEMA_VERSION).toBeGreaterThan(STEP);
    const engine = await upgraded();
    for (const table of ['alert_settings', 'watches', 'follows']) {
      expect(await engine.all(`SELECT busy_polls FROM ${table}`)).toEqual([{ busy_polls: 0 }]);
    }
    expect(await createAlertStore(engine).get('T1', 'U1')).toMatchObject({ seenTodoId: 7, nextPollAt: t0 });
    // The watch is still the stopped replica's until its lease runs out; then it is claimed as the next claim.
    const watches = createWatchStore(engine);
    const claim = (n: number) =>
      watches.claimDue({ owner: 'r2', now: at(n), until: at(n + 60), limit: 10, dueBy: at(n) });
    expect(await claim(59)).toEqual([]);
    expect(await claim(60)).toEqual([
      expect.objectContaining({
        watch: expect.objectContaining({ ref: 'main', floorId: 3 }),
        leaseGen: 3,
        busyPolls: 0,
      }),
    ]);
    const [follow] = await createFollowStore(engine).claimDue('r2', {
      dueBy: at(10),
      now: at(10),
      until: at(70),
      limit: 5,
    });
    expect(follow).toMatchObject({ targetId: 8, nextPollAt: at(10), leaseGen: 1, busyPolls: 0 });
    const [alert] = await createAlertStore(engine).claimDue('r2', t0, at(60), 5);
    expect(alert).toMatchObject({ setting: { userId: 'U1' }, leaseGen: 1, busyPolls: 0 });
  });
});
