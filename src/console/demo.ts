import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AppDeps, createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createLogger, type LogLevel } from '../log.js';
import type { DigestService } from '../operations/digest-service.js';
import { startSimulator } from '../sim/index.js';
import { createChannelStore } from '../store/channel-store.js';
import { openDatabase } from '../store/database.js';
import { createSqliteEngine } from '../store/engine.js';
import { createSealer } from '../store/sealer.js';
import { createTokenStore } from '../store/token-store.js';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';
import { TEAM } from './payloads.js';
import { createSession, type Session, type SessionDeps } from './session.js';
import { SlackDriver } from './slack-driver.js';

// Everything `npm run demo` needs on one machine: the simulator, a fake Slack, the bot
// wired to both on free ports, and demo users already connected with their tokens.

export const DEMO_PEOPLE = {
  alice: { id: 'U0ALICE', name: 'alice', tz: 'Europe/Berlin' },
  bob: { id: 'U0BOB', name: 'bob', tz: 'America/New_York' },
  root: { id: 'U0ROOT', name: 'root', tz: 'UTC', isAdmin: true },
  eve: { id: 'U0EVE', name: 'eve', tz: 'Asia/Tokyo' },
};

export interface Demo {
  session: Session;
  /** The Slack side, for scripts that drive the bot without the console (benchmarks). */
  slack: SlackDriver;
  fake: FakeSlack;
  /** The bot's digests (tests fire due ones with their clock when the demo runs with `digests: { timer: 'manual' }`). */
  digests: DigestService;
  /** A minute of the world: the simulator's runner moves on, and following cards, watches and alerts poll now. */
  tick(): Promise<void>;
  simUrl: string;
  botUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

export interface DemoOptions {
  write(text: string): void;
  /** A `secret` answer (a token) must not be shown back. */
  ask(question: string, o?: { secret?: boolean }): Promise<string | null>;
  /** Bot log lines go here (default: dropped, so the console stays readable). */
  log?: (line: string) => void;
  logLevel?: LogLevel;
  /** Keep the database here instead of a temporary directory. */
  dataDir?: string;
  /** Where uploaded images (charts) are written for the person to open (default: `files` in the data directory). */
  fileDir?: string;
  /** The clock of the simulator and the bot alike (default: real time); tests pass a fake one. */
  now?: () => Date;
  /** How digests fire (default: node-cron, on real time); tests fire them by hand with `timer: 'manual'`. */
  digests?: AppDeps['digests'];
  /** How cards that follow a pipeline poll (default: on real time); `tick` also polls them all at once. */
  follows?: AppDeps['follows'];
  /** How watched channels are paced (default: as the bot's); `tick` polls them all at once. */
  watches?: AppDeps['watches'];
  /** How todo alerts are paced (default: as the bot's); `tick` polls them all at once. */
  alerts?: AppDeps['alerts'];
  /** How long the console waits for the bot's answers (tests). */
  session?: Pick<SessionDeps, 'quietMs' | 'turnTimeoutMs' | 'mayNotAnswerMs'>;
  /** How long a command may take before "working on it…" shows (default: the bot's 2 s). */
  workingNoteMs?: number;
}

/** The demo's channels and the names people know them by; the console types into the first. */
export const DEMO_CHANNELS = [
  { id: 'C0DEMO', name: 'demo' },
  { id: 'C0RELEASES', name: 'releases' },
] as const;
const CHANNEL = DEMO_CHANNELS[0];

export async function startDemo(o: DemoOptions): Promise<Demo> {
  const now = o.now ?? (() => new Date());
  const sim = await startSimulator({ port: 0, seed: 'demo', history: true, now });
  const botToken = `xoxb-demo-${crypto.randomBytes(8).toString('hex')}`;
  const signingSecret = crypto.randomBytes(16).toString('hex');
  const fake = await startFakeSlack(botToken, Object.values(DEMO_PEOPLE));
  const dataDir = o.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-demo-'));
  const ownsDataDir = !o.dataDir;
  const config = loadConfig({
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    GITLAB_URL: sim.url,
    TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    DATABASE_PATH: path.join(dataDir, 'bot.db'),
  });
  const logger = createLogger({ level: o.logLevel ?? 'warn', sink: o.log ?? (() => {}) });
  const db = openDatabase(config.databasePath);
  const tokens = createTokenStore(db, createSealer(config.encryption), now);
  for (const [name, p] of Object.entries(DEMO_PEOPLE)) {
    await tokens.save({
      teamId: TEAM.id,
      userId: p.id,
      token: `sim-${name}-token`,
      serverUrl: config.gitlabUrl,
      verifiedAt: now(),
      username: name,
    });
  }
  const bot = createApp({
    config,
    logger,
    engine: createSqliteEngine(db),
    tokens,
    channels: createChannelStore(db),
    now,
    ...(o.digests ? { digests: o.digests } : {}),
    ...(o.follows ? { follows: o.follows } : {}),
    ...(o.watches ? { watches: o.watches } : {}),
    ...(o.alerts ? { alerts: o.alerts } : {}),
    ...(o.workingNoteMs !== undefined ? { workingNoteMs: o.workingNoteMs } : {}),
  });
  const { port } = await bot.start();
  const botUrl = `http://127.0.0.1:${port}`;
  const slack = new SlackDriver({ botUrl, signingSecret, fake, command: config.slashCommand });
  // A tick is a minute of the world: following cards, watched channels and todo alerts see it now, not at their
  // next poll.
  const tick = async () => {
    await sim.tick();
    await bot.follows.pollDue({ all: true });
    await bot.watches.poll({ all: true });
    await bot.alerts.pollNow();
  };
  const session = createSession({
    slack,
    fake,
    people: DEMO_PEOPLE,
    tick,
    ask: o.ask,
    write: o.write,
    channel: CHANNEL.id,
    channelNames: Object.fromEntries(DEMO_CHANNELS.map((c) => [c.id, c.name])),
    linkHost: new URL(sim.url).host,
    slashCommand: config.slashCommand,
    busy: () => bot.inFlight() > 0,
    fileDir: o.fileDir ?? path.join(dataDir, 'files'),
    ...o.session,
  });
  return {
    session,
    slack,
    fake,
    digests: bot.digests,
    tick,
    simUrl: sim.url,
    botUrl,
    dataDir,
    async close() {
      session.close();
      await bot.stop();
      db.close();
      await fake.close();
      await sim.close();
      if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
