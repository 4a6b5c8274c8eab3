import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlEngine } from '../../../src/store/engine.js';
import { openEngine } from '../../../src/store/open.js';
import { scriptArgs } from '../../support/built-entry.js';
import { freshPostgresUrl } from '../../support/postgres.js';
import { borrowPostgresUrl, giveBackPostgresUrl } from '../../support/postgres-reuse.js';

// The engines every store conformance case runs on: the same cases, the same expectations.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface TestDatabase {
  /** The variables a bot process would be given for this database. */
  config: { databasePath: string; databaseUrl: string | null };
  /** Opens (and migrates) an engine on it, as a bot starting would. */
  open(): Promise<SqlEngine>;
  /** The schema version recorded in it. */
  version(engine: SqlEngine): Promise<number>;
  setVersion(engine: SqlEngine, version: number): Promise<void>;
  /** Removes what the test made. */
  drop(): void;
}

export interface EngineUnderTest {
  name: 'SQLite' | 'PostgreSQL';
  /**
   * A database with nothing in it. It may have been migrated already (a PostgreSQL one another test gave back);
   * `unmigrated` asks for one no bot has opened yet, for the migrations' own tests.
   */
  database(o?: { unmigrated?: boolean }): Promise<TestDatabase>;
}

export const ENGINES: readonly EngineUnderTest[] = [
  {
    name: 'SQLite',
    async database() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-conf-'));
      const config = { databasePath: path.join(dir, 'bot.db'), databaseUrl: null };
      return {
        config,
        open: () => openEngine(config),
        async version(engine) {
          return (await engine.get<{ user_version: number }>('PRAGMA user_version'))?.user_version ?? -1;
        },
        async setVersion(engine, version) {
          await engine.run(`PRAGMA user_version = ${version}`);
        },
        drop: () => fs.rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'PostgreSQL',
    async database(o = {}) {
      const url = o.unmigrated ? await freshPostgresUrl() : await borrowPostgresUrl();
      const config = { databasePath: '', databaseUrl: url };
      return {
        config,
        open: () => openEngine(config),
        async version(engine) {
          return (await engine.get<{ version: number }>('SELECT version FROM schema_version'))?.version ?? -1;
        },
        async setVersion(engine, version) {
          await engine.run('UPDATE schema_version SET version = $1', [version]);
        },
        drop: () => giveBackPostgresUrl(url),
      };
    },
  },
];

/**
 * Starts `count` processes that each open (and so migrate) the database at the same moment, as replicas starting
 * together would; resolves with what each printed.
 */
export async function openInProcesses(config: TestDatabase['config'], count: number): Promise<string[]> {
  const script = path.join(root, 'test/support/open-engine-process.ts');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : { DATABASE_PATH: config.databasePath }),
  };
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-open-'));
  const started = scriptArgs(script, { variable: 'OPEN_ENGINE_MODULE', module: 'store/open', tmpDir: scratch });
  const children = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, started.args, { cwd: root, env: { ...env, ...started.env } });
    let out = '';
    let readyNow!: () => void;
    const ready = new Promise<void>((resolve) => {
      readyNow = resolve;
    });
    child.stdout.on('data', (d) => {
      out += d;
      if (out.startsWith('ready\n')) readyNow();
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', () => readyNow());
    const done = new Promise<string>((resolve) => child.on('exit', () => resolve(out.replace(/^ready\n/, '').trim())));
    return { child, ready, done };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.child.stdin.write('go\n');
  try {
    return await Promise.all(children.map((c) => c.done));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
