import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AppDeps, type BotApp, createApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { DEMO_PEOPLE } from '../../src/console/demo.js';
import type { Transport } from '../../src/gitlab/http.js';
import { createLogger } from '../../src/log.js';
import { createChannelStore } from '../../src/store/channel-store.js';
import { type Db, openDatabase } from '../../src/store/database.js';
import { createSqliteEngine, type SqlEngine } from '../../src/store/engine.js';
import { openPostgres } from '../../src/store/postgres-engine.js';
import { createSealer } from '../../src/store/sealer.js';
import { createTokenStore, type TokenStore } from '../../src/store/token-store.js';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';
import type { SlackPerson } from './payloads.js';
import { type Interaction, SlackDriver } from './slack-driver.js';

// The whole bot on port 0, wired to a fake Slack and a Delivery Service URL of the
// test's choosing, with a fresh database in a temporary directory.

export const PEOPLE = {
  ...DEMO_PEOPLE,
  carol: { id: 'U0CAROL', name: 'carol', tz: 'Europe/London' },
} as const satisfies Record<string, SlackPerson & { tz: string }>;

export type PersonName = keyof typeof PEOPLE;

export interface StartAppOptions {
  gitlabUrl: string;
  /** GITLAB_PUBLIC_URL: the address links point at (default: none, links use `gitlabUrl`). */
  publicUrl?: string;
  /** Reuse a database directory (to restart the bot on the same file). */
  dataDir?: string;
  /** Run on this PostgreSQL database (test/support/postgres.ts: freshPostgresUrl) instead of a SQLite file. */
  databaseUrl?: string;
  encryptionKey?: string;
  previousEncryptionKey?: string;
  now?: () => Date;
  /** SLASH_COMMAND (default `/gl`). */
  slashCommand?: string;
  transport?: Transport;
  checkTransport?: Transport;
  fake?: FakeSlack;
  /**
   * How digests are scheduled and paced (`{ timer: 'manual' }` lets a test drive them with its clock). Here, as for
   * follows, watches and alerts, posts into one channel do not wait for each other unless `channelIntervalMs` says.
   */
  digests?: AppDeps['digests'];
  /**
   * How following cards poll (default here `timer: 'manual'`: a test polls with `bot.follows.pollDue()` on its clock,
   * so that no poll of a timer lands in another test's request log).
   */
  follows?: AppDeps['follows'];
  /** How pipeline watches are polled (`{ timer: 'manual' }` lets a test drive them with its clock). */
  watches?: AppDeps['watches'];
  /** How todo alerts poll (`{ timer: 'manual' }` lets a test drive them with its clock). */
  alerts?: AppDeps['alerts'];
  /** How long a command may take before its "working on it…" note shows (default: the bot's 2 s). */
  workingNoteMs?: number;
  /** The wait before a refused token is checked a second time (default here 20 ms, to keep tests quick). */
  revokeCheckDelayMs?: number;
  /** What the second check of a refused token waits for, when the test decides when it goes. */
  revokeCheckWait?: () => Promise<void>;
  /** How the Slack side waits between tries (default: Slack's own); `QUICK_SLACK` for tests that meet retries. */
  slackTiming?: AppDeps['slackTiming'];
  /** The places of requests' work after their acks, for a test that watches them. */
  workPlaces?: AppDeps['workPlaces'];
  /** More environment for the config (METRICS_TOKEN, METRICS_PORT…). */
  env?: Record<string, string>;
  /** What scheduled delivery tells its observers, for a test that watches it. */
  deliveryHooks?: AppDeps['deliveryHooks'];
}

/** Slack's retry steps and Socket Mode's reconnect step at test size: the same behaviour, in milliseconds. */
export const QUICK_SLACK: NonNullable<AppDeps['slackTiming']> = {
  retry: { retries: 10, factor: 1, minTimeout: 10, maxTimeout: 10 },
  socketPingTimeoutMs: 1000,
};

/**
 * Slack's pace per channel (a second between two posts, kept on real time) unless a test sets `channelIntervalMs`:
 * no test of the whole app is about that pace (its own tests are in test/unit/store), and each post that met it
 * would wait a real second.
 */
const UNPACED = { channelIntervalMs: 0 } as const;

export interface StartedApp {
  url: string;
  port: number;
  fake: FakeSlack;
  slack: SlackDriver;
  config: Config;
  /** The database every store works on. */
  engine: SqlEngine;
  /** The SQLite file, opened (throws when the app runs on PostgreSQL: use `engine`). */
  db: Db;
  tokens: TokenStore;
  dataDir: string;
  dbPath: string;
  logs: string[];
  bot: BotApp;
  signingSecret: string;
  /** The real connect flow: `/gl connect`, the modal, a submission with the token. */
  connect(person: SlackPerson, token: string): Promise<{ command: Interaction; submission: Interaction }>;
  /** Stops the bot (and the fake Slack unless it was passed in); the data directory stays unless `removeData`. */
  stop(o?: { removeData?: boolean }): Promise<void>;
}

export async function startApp(o: StartAppOptions): Promise<StartedApp> {
  const botToken = `xoxb-test-${crypto.randomBytes(8).toString('hex')}`;
  const signingSecret = crypto.randomBytes(16).toString('hex');
  const fake = o.fake ?? (await startFakeSlack(botToken, Object.values(PEOPLE)));
  const dataDir = o.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-app-'));
  const dbPath = path.join(dataDir, 'bot.db');
  const config = loadConfig({
    SLACK_BOT_TOKEN: o.fake ? o.fake.botToken : botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    GITLAB_URL: o.gitlabUrl,
    ...(o.publicUrl ? { GITLAB_PUBLIC_URL: o.publicUrl } : {}),
    TOKEN_ENCRYPTION_KEY: o.encryptionKey ?? crypto.randomBytes(32).toString('base64'),
    TOKEN_ENCRYPTION_KEY_PREVIOUS: o.previousEncryptionKey,
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : { DATABASE_PATH: dbPath }),
    LOG_LEVEL: 'debug',
    ...(o.slashCommand ? { SLASH_COMMAND: o.slashCommand } : {}),
    ...o.env,
  });
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', sink: (line) => logs.push(line) });
  const sqlite = o.databaseUrl ? null : openDatabase(dbPath);
  const engine = sqlite ? createSqliteEngine(sqlite) : await openPostgres(o.databaseUrl as string);
  const tokens = createTokenStore(engine, createSealer(config.encryption), o.now);
  await tokens.resealStale();
  const bot = createApp({
    config,
    logger,
    engine,
    tokens,
    channels: createChannelStore(engine),
    ...(o.now ? { now: o.now } : {}),
    ...(o.transport ? { transport: o.transport } : {}),
    ...(o.checkTransport ? { checkTransport: o.checkTransport } : {}),
    digests: { ...UNPACED, ...o.digests },
    follows: { ...UNPACED, ...(o.follows ?? { timer: 'manual' }) },
    watches: { ...UNPACED, ...o.watches },
    alerts: { ...UNPACED, ...o.alerts },
    revokeCheckDelayMs: o.revokeCheckDelayMs ?? 20,
    // A loaded machine may take seconds over a quick answer: the note shows only where a test asks for it.
    workingNoteMs: o.workingNoteMs ?? 600_000,
    ...(o.revokeCheckWait ? { revokeCheckWait: o.revokeCheckWait } : {}),
    ...(o.slackTiming ? { slackTiming: o.slackTiming } : {}),
    ...(o.workPlaces ? { workPlaces: o.workPlaces } : {}),
    ...(o.deliveryHooks ? { deliveryHooks: o.deliveryHooks } : {}),
  });
  const { port } = await bot.start();
  const url = `http://127.0.0.1:${port}`;
  const slack = new SlackDriver({ botUrl: url, signingSecret, fake, command: config.slashCommand });

  return {
    url,
    port,
    fake,
    slack,
    config,
    engine,
    get db(): Db {
      if (!sqlite) throw new Error('this app runs on PostgreSQL: use engine');
      return sqlite;
    },
    tokens,
    dataDir,
    dbPath,
    logs,
    bot,
    signingSecret,
    async connect(person, token) {
      const command = await slack.command(person, 'connect');
      const opened = await command.waitFor((r) => r.method === 'views.open' && r.ok, 5000);
      if (!opened?.view) throw new Error(`no connect modal opened: ${command.text()}`);
      const input = (opened.view.blocks as { type: string; block_id: string }[]).find((b) => b.type === 'input');
      if (!input) throw new Error('the connect modal has no input');
      const submission = await slack.submitView(person, opened.view, { [input.block_id]: token });
      return { command, submission };
    },
    async stop({ removeData = false } = {}) {
      await bot.stop();
      await engine.close();
      if (!o.fake) await fake.close();
      if (removeData && !o.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
