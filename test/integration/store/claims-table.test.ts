import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaimStore } from '../../../src/store/claim-store.js';
import { CLAIMS_PLAIN_POSTGRES, CLAIMS_PLAIN_SQLITE } from '../../../src/store/claim-table-steps.js';
import { openDatabase } from '../../../src/store/database.js';
import { createSqliteEngine, type SqlEngine } from '../../../src/store/engine.js';
import { POSTGRES_MIGRATIONS, SCHEMA_VERSION, SQLITE_MIGRATIONS } from '../../../src/store/migrations.js';
import { createPostgresEngine, openPostgres } from '../../../src/store/postgres-engine.js';
import { fakeClock } from '../../support/clock.js';
import { freshPostgresUrl } from '../../support/postgres.js';

// Store conformance: a database whose claims table step 12 rebuilt without a rowid or held_until index keeps every
// key it held when step 14 gives the table back its rowid (SQLite's to choose) and index, and claims, refuses, takes
// over and prunes as before, on both engines.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const HELD_UNTIL = '2100-01-01T00:00:00.000Z';
const PASSED = '2000-01-01T00:00:00.000Z';

interface Upgrade {
  /** A database at the schema just before step 14 (the lean table), holding one live and one passed key; then upgraded. */
  upgraded(): Promise<SqlEngine>;
  /** The indexes on the claims table (the primary key's excepted). */
  indexes(engine: SqlEngine): Promise<string[]>;
}

const UPGRADES: [string, Upgrade][] = [
  [
    'SQLite',
    {
      async upgraded() {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-claims-lean-'));
        cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
        const file = path.join(dir, 'bot.db');
        const step = SQLITE_MIGRATIONS.indexOf(CLAIMS_PLAIN_SQLITE);
        const old = new Database(file);
        for (const sql of SQLITE_MIGRATIONS.slice(0, step)) old.exec(sql);
        old.pragma(`user_version = ${step}`);
        expect(old.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get('claims')).toEqual({
          sql: expect.stringMatching(/WITHOUT ROWID/),
        });
        old.prepare('INSERT INTO claims VALUES (?, ?), (?, ?)').run('signature:live', HELD_UNTIL, 'event:old', PASSED);
        old.close();
        const engine = createSqliteEngine(openDatabase(file));
        cleanups.unshift(() => engine.close());
        expect(await engine.get('SELECT sql FROM sqlite_master WHERE name = $1', ['claims'])).toEqual({
          sql: expect.not.stringMatching(/WITHOUT ROWID/),
        });
        return engine;
      },
      async indexes(engine) {
        const rows = await engine.all<{ name: string }>(
          `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'claims' AND sql IS NOT NULL`,
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
        const step = POSTGRES_MIGRATIONS.indexOf(CLAIMS_PLAIN_POSTGRES);
        const old = createPostgresEngine(url);
        await old.run('CREATE TABLE schema_version (version INTEGER NOT NULL)');
        await old.run('INSERT INTO schema_version (version) VALUES ($1)', [step]);
        for (const sql of POSTGRES_MIGRATIONS.slice(0, step)) await old.run(sql);
        await old.run('INSERT INTO claims VALUES ($1, $2), ($3, $4)', [
          'signature:live',
          HELD_UNTIL,
          'event:old',
          PASSED,
        ]);
        await old.close();
        const engine = await openPostgres(url);
        cleanups.unshift(() => engine.close());
        expect(await engine.get('SELECT version FROM schema_version')).toEqual({ version: SCHEMA_VERSION });
        return engine;
      },
      async indexes(engine) {
        const rows = await engine.all<{ name: string }>(
          `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'claims' AND indexname <> 'claims_pkey'`,
        );
        return rows.map((r) => r.name);
      },
    },
  ],
];

describe.each(UPGRADES)('the claims table after step 14 on %s', (_name, under) => {
  it('keeps the keys held before the upgrade, with the held_until index again', async () => {
    const engine = await under.upgraded();
    expect(await engine.all('SELECT claim_key, held_until FROM claims ORDER BY claim_key')).toEqual([
      { claim_key: 'event:old', held_until: PASSED },
      { claim_key: 'signature:live', held_until: HELD_UNTIL },
    ]);
    expect(await under.indexes(engine)).toEqual(['claims_held_until']);
  });

  it('refuses a key held before the upgrade, gives a passed one again, and prunes', async () => {
    const engine = await under.upgraded();
    const clock = fakeClock();
    const claims = createClaimStore(engine, clock.now);
    const until = new Date(clock.now().getTime() + 300_000);
    expect(await claims.claim('signature:live', until)).toBe(false);
    expect(await claims.claim('event:old', until)).toBe(true);
    expect(await claims.claim('event:old', until)).toBe(false);
    clock.advance(300_000);
    expect(await claims.prune()).toBe(1);
    expect(await engine.all('SELECT claim_key FROM claims')).toEqual([{ claim_key: 'signature:live' }]);
  });
});
