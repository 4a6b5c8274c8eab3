import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { type RunningSimulator, type SimRequestLogEntry, startSimulator } from '../../src/sim/index.js';
import { openEngine } from '../../src/store/open.js';
import { createSealer } from '../../src/store/sealer.js';
import { createTokenStore } from '../../src/store/token-store.js';
import { type BuiltBot, startBuiltBot } from './built-bot.js';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';
import { type SlackPerson, TEAM } from './payloads.js';
import { migratedPostgresUrl } from './postgres.js';
import { SlackDriver } from './slack-driver.js';
import { PEOPLE } from './start-app.js';

// One world for the process tests that kill the bot: a simulator, a fake Slack, one database (a SQLite file in a
// directory of its own, or a fresh PostgreSQL database) and the built bot's processes on them, sharing secrets
// and keys as replicas of one bot do. A test case opens its own world, so the cases of a file run at once without
// seeing each other's messages, pipelines or rows.

export type WorldEngine = 'sqlite' | 'postgres';

export type WorldBot = BuiltBot & { slack: SlackDriver };

export interface ProcessWorld {
  engine: WorldEngine;
  sim: RunningSimulator;
  fake: FakeSlack;
  /** Starts one more process of the bot on this world's database, with `env` added (test seams and timings). */
  start(env?: Record<string, string>): Promise<WorldBot>;
  /** SIGTERM to a process that still runs: it must stop cleanly (exit code 0). */
  stop(bot: WorldBot): Promise<void>;
  /**
   * `person` is connected with `token` (their server username is their Slack name), stored as the connect modal
   * stores it: the processes' own requests start from there, and no Slack deadline of a first request is at stake.
   */
  connect(person: SlackPerson, token: string): Promise<void>;
  /** Kills what still runs, closes the simulator and the fake Slack, removes the SQLite directory. */
  close(): Promise<void>;
}

// Starting a process is mostly loading modules, work for a core: the worlds of a file start theirs two at a time, so
// that on a busy machine no start shares the cores with many others and runs out of time saying its port.
const STARTS_AT_ONCE = 2;
let starting = 0;
const waitingToStart: (() => void)[] = [];

async function inStartSlot<T>(start: () => Promise<T>): Promise<T> {
  if (starting >= STARTS_AT_ONCE) await new Promise<void>((r) => waitingToStart.push(r));
  else starting++;
  try {
    return await start();
  } finally {
    const next = waitingToStart.shift();
    if (next) next();
    else starting--;
  }
}

export async function openProcessWorld(o: {
  buildDir: string;
  engine: WorldEngine;
  /** Added to every process's environment (timings). */
  env?: Record<string, string>;
}): Promise<ProcessWorld> {
  const dataDir = o.engine === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-world-')) : null;
  const [databaseUrl, sim, fake] = await Promise.all([
    o.engine === 'postgres' ? migratedPostgresUrl() : Promise.resolve(''),
    startSimulator({ port: 0, seed: 'demo' }),
    startFakeSlack(`xoxb-world-${crypto.randomBytes(8).toString('hex')}`, Object.values(PEOPLE)),
  ]);
  const signingSecret = crypto.randomBytes(16).toString('hex');
  const env: Record<string, string> = {
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    GITLAB_URL: sim.url,
    TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    ...(dataDir ? { DATABASE_PATH: path.join(dataDir, 'bot.db') } : { DATABASE_URL: databaseUrl }),
    LOG_LEVEL: 'info',
    ...o.env,
  };
  const running = new Set<BuiltBot>();
  const gone = (bot: BuiltBot) => bot.child.exitCode !== null || bot.child.signalCode !== null;

  return {
    engine: o.engine,
    sim,
    fake,
    async start(more = {}) {
      const bot = await inStartSlot(() => startBuiltBot(o.buildDir, { ...env, ...more }));
      running.add(bot);
      void bot.exited.then(() => running.delete(bot));
      return { ...bot, slack: new SlackDriver({ botUrl: bot.url, signingSecret, fake, command: '/gl' }) };
    },
    async stop(bot) {
      if (gone(bot)) return;
      bot.child.kill('SIGTERM');
      expect((await bot.exited).code, bot.output()).toBe(0);
    },
    async connect(person, token) {
      // As the connect modal stores a token the server accepted, before any process runs.
      const engine = await openEngine({ databasePath: env.DATABASE_PATH ?? '', databaseUrl: env.DATABASE_URL ?? null });
      try {
        const sealer = createSealer({ key: Buffer.from(env.TOKEN_ENCRYPTION_KEY as string, 'base64') });
        await createTokenStore(engine, sealer).save({
          teamId: TEAM.id,
          userId: person.id,
          token,
          serverUrl: sim.url,
          verifiedAt: new Date(),
          username: person.name,
        });
      } finally {
        await engine.close();
      }
    },
    async close() {
      await Promise.all(
        [...running].map(async (bot) => {
          if (!gone(bot)) bot.child.kill('SIGKILL');
          await bot.exited;
        }),
      );
      await Promise.all([fake.close(), sim.close()]);
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` every 20 ms until it answers something truthy; fails naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => T | null | undefined | false,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found) return found;
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves once `n` more requests matching `which` have reached the simulator (more polls of the bot). */
export async function morePolls(
  sim: RunningSimulator,
  which: (r: SimRequestLogEntry) => boolean,
  n = 2,
): Promise<void> {
  const after = sim.requests().at(-1)?.seq ?? 0;
  await until(`${n} more polls`, () => sim.requests().filter((r) => r.seq > after && which(r)).length >= n);
}
