// 10,000 digests due at once with nothing new, against the simulator (in a process of its own, so its CPU is not
// the bot's). Prints one JSON object: API calls per digest (goal 1), bot CPU per digest (goal ≤ 1 ms), wall time,
// the cost of arming their node-cron tasks, and peak RSS.
//
//   npx tsx bench/digests.ts        (BENCH_DIGESTS, default 10000; BENCH_CONCURRENCY, default 8)
//   BENCH_REPLICAS=2 npx tsx bench/digests.ts   two replicas (two apps, two connections to one database file)
//                                               run the same slot at once: each subscription is read once in all
//
// Runs are started back to back here (as at a catch-up); on a schedule node-cron spreads them over their minute.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PEOPLE, startFakeSlack } from '../src/console/index.js';
import {
  createApp,
  createChannelStore,
  createDigestStore,
  createLogger,
  createSealer,
  createSqliteEngine,
  createTokenStore,
  loadConfig,
  type NewDigest,
  openDatabase,
} from '../src/index.js';
import { requestCount, startSim } from './sim-process.js';

const COUNT = Number(process.env.BENCH_DIGESTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const REPLICAS = Math.max(1, Number(process.env.BENCH_REPLICAS ?? 1));
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
  // Every replica has its own connection to the database, as a process of its own would.
  const replicaDbs = [db, ...Array.from({ length: REPLICAS - 1 }, () => openDatabase(config.databasePath))];
  const bots = replicaDbs.map((rdb) =>
    createApp({
      config,
      logger,
      engine: createSqliteEngine(rdb),
      tokens: rdb === db ? tokens : createTokenStore(rdb, createSealer(config.encryption)),
      channels: createChannelStore(rdb),
      // The slot below is the whole run: no sweep takes part (it would take over what is still waiting its turn).
      digests: { concurrency: CONCURRENCY, sweepMs: 3_600_000 },
    }),
  );

  // Arming: one node-cron task per digest.
  const rssBefore = process.memoryUsage().rss;
  let cpu = process.cpuUsage();
  let t0 = performance.now();
  for (const b of bots) {
    await b.start();
    await b.digests.recovered;
  }
  const armMs = performance.now() - t0;
  const armCpuMs = cpuMs(process.cpuUsage(cpu));
  const rssArmed = process.memoryUsage().rss;

  // 09:00 has come for all of them.
  db.prepare('UPDATE digests SET next_run_at = ?').run(new Date(now.getTime() - 1000).toISOString());
  const callsBefore = await requestCount(sim.url);
  cpu = process.cpuUsage();
  t0 = performance.now();
  // Every replica runs the slot at once (as each would catch up a slot nobody ran): the leases decide who reads.
  const perReplica = await Promise.all(bots.map((b) => b.digests.runDue()));
  const wallMs = performance.now() - t0;
  const runCpuMs = cpuMs(process.cpuUsage(cpu));
  const calls = (await requestCount(sim.url)) - callsBefore;
  const outcomes: Record<string, number> = {};
  const replicaOutcomes = perReplica.map((runs) => {
    const mine: Record<string, number> = {};
    for (const r of runs) {
      outcomes[r.outcome.kind] = (outcomes[r.outcome.kind] ?? 0) + 1;
      mine[r.outcome.kind] = (mine[r.outcome.kind] ?? 0) + 1;
    }
    return mine;
  });
  const posts = fake.calls('chat.postMessage').length;
  for (const b of bots) await b.stop();
  for (const rdb of replicaDbs) rdb.close();

  const perDigestCpu = runCpuMs / COUNT;
  const callsPerDigest = calls / COUNT;
  process.stdout.write(
    `${JSON.stringify({
      benchmark: 'digests: due at once, nothing new',
      node: process.version,
      cpus: os.cpus().length,
      digests: COUNT,
      concurrency: CONCURRENCY,
      replicas: REPLICAS,
      outcomes,
      ...(REPLICAS > 1 ? { outcomes_per_replica: replicaOutcomes } : {}),
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
      each_read_once: calls === COUNT && outcomes.empty === COUNT,
    })}\n`,
  );
} finally {
  await fake.close();
  sim.child.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
