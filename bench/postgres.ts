// The bot on SQLite next to the bot on PostgreSQL, in the same run, interleaved: two built bots (`node dist/main.js`),
// one with DATABASE_PATH and one with DATABASE_URL on a PostgreSQL server this bench starts (the tests' server:
// test/support/postgres-server.ts), fed the same signed `/gl jobs demo/web` by one load process (bench/load.ts) at
// 50 in flight, against one simulator. Reports each bot's CPU per whole command and PostgreSQL's ÷ SQLite's.
//
//   npx tsx bench/postgres.ts      (needs `npm run build` first; `npm run bench` does both)
//
// Knobs (environment): BENCH_ROUNDS (3), BENCH_PG_COMMANDS (1000 commands per round and engine).
// Progress goes to stderr; the last stdout line is the JSON.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, startPostgresServer } from '../scripts/postgres-server.js';
import { loadConfig, openDatabase, openPostgres } from '../src/index.js';
import { connectBenchPeople } from './bench-people.js';
import { Child, startLoadGenerator, startSimulator } from './ipc.js';
import type { RunResult } from './load.js';
import { round } from './stats.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = num('BENCH_ROUNDS', 3);
const COMMANDS = num('BENCH_PG_COMMANDS', 1000);
const CONCURRENCY = 50;
const COMMAND = 'jobs demo/web';
const ANSWER = 'Jobs in demo/web';
const ROOT = path.resolve(import.meta.dirname, '..');
const PROBE = './bench/probe.mjs';
type Engine = 'sqlite' | 'postgres';
const ENGINES: Engine[] = ['sqlite', 'postgres'];

const progress = (line: string) => process.stderr.write(`postgres: ${line}\n`);

if (!fs.existsSync(path.join(ROOT, 'dist/main.js'))) throw new Error('dist/main.js is missing: run `npm run build`');
const started: Child[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-bench-pg-'));
const server = await startPostgresServer();
try {
  const { sim, simUrl } = await startSimulator();
  started.push(sim);
  const { load, apiUrl } = await startLoadGenerator();
  started.push(load);
  const common = {
    SLACK_BOT_TOKEN: `xoxb-bench-${crypto.randomBytes(8).toString('hex')}`,
    SLACK_SIGNING_SECRET: crypto.randomBytes(16).toString('hex'),
    SLACK_API_URL: apiUrl,
    PORT: '0',
    GITLAB_URL: simUrl,
    TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    LOG_LEVEL: 'info',
  };
  const envs: Record<Engine, Record<string, string>> = {
    sqlite: { ...common, DATABASE_PATH: path.join(dataDir, 'bot.db') },
    postgres: { ...common, DATABASE_URL: await createDatabase(server.adminUrl) },
  };

  const bots = {} as Record<Engine, Child>;
  for (const engine of ENGINES) {
    // The demo people are connected before the bot starts, as `/gl connect` would have left them.
    const config = loadConfig(envs[engine]);
    const postgres = engine === 'postgres' ? await openPostgres(envs.postgres.DATABASE_URL ?? '') : null;
    const sqlite = postgres ? null : openDatabase(config.databasePath);
    await connectBenchPeople(postgres ?? (sqlite as NonNullable<typeof sqlite>), config);
    sqlite?.close();
    await postgres?.close();
    const { child: bot, match: port } = await Child.start(`bot on ${engine}`, {
      args: ['--expose-gc', '--import', PROBE, 'dist/main.js'],
      env: { ...envs[engine], BENCH_PROBE_TIMINGS: '0' },
      ready: /^(?=[^\n]*"msg":"bot started")[^\n]*?"port":(\d+)/m,
    });
    started.push(bot);
    bots[engine] = bot;
    await load.call('target', {
      name: engine,
      url: `http://127.0.0.1:${port?.[1]}`,
      signingSecret: common.SLACK_SIGNING_SECRET,
    });
  }

  const cpuUs: Record<Engine, number> = { sqlite: 0, postgres: 0 };
  const counted: Record<Engine, { commands: number; answered: number }> = {
    sqlite: { commands: 0, answered: 0 },
    postgres: { commands: 0, answered: 0 },
  };
  const run = async (engine: Engine, count: number) => {
    const before = await bots[engine].stats();
    const result = await load.call<RunResult>('run', {
      target: engine,
      concurrency: CONCURRENCY,
      count,
      text: COMMAND,
      answer: ANSWER,
    });
    const after = await bots[engine].stats();
    return { result, cpuUs: after.cpuUs - before.cpuUs };
  };
  progress('warming up');
  for (const engine of ENGINES) await run(engine, 500);
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which engine goes first, so that neither always meets a machine the other has just warmed.
    for (const engine of r % 2 ? [...ENGINES].reverse() : ENGINES) {
      progress(`round ${r + 1}: ${engine}`);
      const { result, cpuUs: used } = await run(engine, COMMANDS);
      cpuUs[engine] += used;
      counted[engine].commands += result.sent;
      counted[engine].answered += result.answered;
    }
  }
  const msPerCommand = (engine: Engine) => cpuUs[engine] / 1000 / Math.max(1, counted[engine].commands);
  const perCommand = (engine: Engine) => round(msPerCommand(engine), 3);
  const out = {
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    sqlite: { ...counted.sqlite, cpu_ms_per_command: perCommand('sqlite') },
    postgres: { ...counted.postgres, cpu_ms_per_command: perCommand('postgres') },
    cpu_postgres_per_sqlite: round(msPerCommand('postgres') / msPerCommand('sqlite'), 2),
  };
  console.log(JSON.stringify(out));
} finally {
  for (const c of started.reverse()) await c.stop();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
