// 10,000 digests due at once with nothing new, against the simulator (in a process of its own, so its CPU is not
// the bot's). Prints one JSON object: API calls per digest (goal 1), bot CPU per digest (goal ≤ 1 ms), wall time,
// the cost of arming their node-cron tasks, and peak RSS.
//
//   npx tsx bench/digests.ts        (BENCH_DIGESTS, default 10000; BENCH_CONCURRENCY, default 8)
//
// Runs are started back to back here (as at a catch-up); on a schedule node-cron spreads them over their minute.

import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { DEMO_PEOPLE } from '../src/console/demo.js';
import { startFakeSlack } from '../src/console/fake-slack.js';
import { createLogger } from '../src/logger.js';
import { createChannelStore } from '../src/store/channel-store.js';
import { openDatabase } from '../src/store/database.js';
import { createDigestStore, type NewDigest } from '../src/store/digest-store.js';
import { createSqliteEngine } from '../src/store/engine.js';
import { createSealer } from '../src/store/sealer.js';
import { createTokenStore } from '../src/store/token-store.js';

const COUNT = Number(process.env.BENCH_DIGESTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const root = path.resolve(import.meta.dirname, '..');
const TEAM = 'T0TEST';
const OWNERS = [
  { person: DEMO_PEOPLE.alice, token: 'sim-alice-token', username: 'alice' },
  { person: DEMO_PEOPLE.bob, token: 'sim-bob-token', username: 'bob' },
  { person: DEMO_PEOPLE.eve, token: 'sim-eve-token', username: 'eve' },
  { person: DEMO_PEOPLE.root, token: 'sim-root-token', username: 'root' },
];
const USERS = [
  { id: 2, username: 'alice' },
  { id: 3, username: 'bob' },
];

function startSim(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/sim/main.ts')], {
    cwd: root,
    env: { ...process.env, SIM_PORT: '0', SIM_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.on('exit', (code) => reject(new Error(`the simulator exited (${code})`)));
  });
}

async function requestCount(simUrl: string): Promise<number> {
  const log = (await (await fetch(`${simUrl}/__sim/requests`)).json()) as { seq: number }[];
  return log.at(-1)?.seq ?? 0;
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

const sim = await startSim();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-bench-digests-'));
const botToken = `xoxb-bench-${crypto.randomBytes(8).toString('hex')}`;
const fake = await startFakeSlack(botToken, Object.values(DEMO_PEOPLE));
try {
  const config = loadConfig({
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: crypto.randomBytes(16).toString('hex'),
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    GITLAB_URL: sim.url,
    TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    DATABASE_PATH: path.join(dataDir, 'bot.db'),
  });
  const db = openDatabase(config.databasePath);
  const tokens = createTokenStore(db, createSealer(config.encryption));
  for (const o of OWNERS) {
    await tokens.save({
      teamId: TEAM,
      userId: o.person.id,
      token: o.token,
      serverUrl: config.gitlabUrl,
      verifiedAt: new Date(),
      username: o.username,
    });
  }

  // The digests, each in a channel of its own, read from now on: nothing is new to any of them.
  const store = createDigestStore(db);
  const now = new Date();
  const later = new Date(now.getTime() + 86_400_000);
  const insert = db.transaction(() => {
    for (let i = 0; i < COUNT; i++) {
      const owner = OWNERS[i % OWNERS.length] as (typeof OWNERS)[number];
      const followsUser = i % 5 === 4;
      const d: NewDigest = {
        teamId: TEAM,
        ownerId: owner.person.id,
        channelId: `CB${String(i).padStart(7, '0')}`,
        inDm: false,
        kind: followsUser ? 'user_events' : 'project_events',
        project: followsUser ? null : { id: 1, path: 'demo/web' },
        user: followsUser ? (USERS[i % USERS.length] ?? null) : null,
        action: null,
        targetType: null,
        cron: '0 9 * * *',
        tz: 'Europe/Berlin',
        nextRunAt: later,
        cursor: { at: now.toISOString(), keys: [] },
      };
      void store.create(d);
    }
  });
  insert();

  const logger = createLogger({ level: 'warn', sink: () => {} });
  const bot = createApp({
    config,
    logger,
    engine: createSqliteEngine(db),
    tokens,
    channels: createChannelStore(db),
    digests: { concurrency: CONCURRENCY },
  });

  // Arming: one node-cron task per digest.
  const rssBefore = process.memoryUsage().rss;
  let cpu = process.cpuUsage();
  let t0 = performance.now();
  await bot.start();
  const armMs = performance.now() - t0;
  const armCpuMs = cpuMs(process.cpuUsage(cpu));
  const rssArmed = process.memoryUsage().rss;

  // 09:00 has come for all of them.
  db.prepare('UPDATE digests SET next_run_at = ?').run(new Date(now.getTime() - 1000).toISOString());
  const callsBefore = await requestCount(sim.url);
  cpu = process.cpuUsage();
  t0 = performance.now();
  const runs = await bot.digests.runDue();
  const wallMs = performance.now() - t0;
  const runCpuMs = cpuMs(process.cpuUsage(cpu));
  const calls = (await requestCount(sim.url)) - callsBefore;
  const outcomes: Record<string, number> = {};
  for (const r of runs) outcomes[r.outcome.kind] = (outcomes[r.outcome.kind] ?? 0) + 1;
  const posts = fake.calls('chat.postMessage').length;
  await bot.stop();
  db.close();

  const perDigestCpu = runCpuMs / COUNT;
  const callsPerDigest = calls / COUNT;
  process.stdout.write(
    `${JSON.stringify({
      benchmark: 'digests: due at once, nothing new',
      node: process.version,
      cpus: os.cpus().length,
      digests: COUNT,
      concurrency: CONCURRENCY,
      outcomes,
      slack_posts: posts,
      api_calls_per_digest: Math.round(callsPerDigest * 1000) / 1000,
      bot_cpu_ms_per_digest: Math.round(perDigestCpu * 1000) / 1000,
      wall_ms: Math.round(wallMs),
      runs_per_second: Math.round(COUNT / (wallMs / 1000)),
      arm_ms: Math.round(armMs),
      arm_cpu_ms_per_digest: Math.round((armCpuMs / COUNT) * 1000) / 1000,
      rss_armed_mb: mb(rssArmed),
      rss_for_tasks_mb: mb(rssArmed - rssBefore),
      peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
      goals: { api_calls_per_digest: 1, bot_cpu_ms_per_digest: 1 },
      meets_goals: callsPerDigest <= 1 && perDigestCpu <= 1 && outcomes.empty === COUNT,
    })}\n`,
  );
} finally {
  await fake.close();
  sim.child.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
