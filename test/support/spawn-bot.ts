import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';
import type { SlackPerson } from './payloads.js';
import { type Interaction, SlackDriver } from './slack-driver.js';
import { PEOPLE } from './start-app.js';

// The bot as its own process, for what only a process shows: signals, a database another process locks, start-up
// messages. It runs the test run's one build of the bot (test/support/built-bot.ts) as `npm start` runs dist/, or
// with `from: 'sources'` src/main.ts through tsx as `npm run dev` does. The fake Slack runs here.
// The bot listens on PORT=0 (any free port) and names the port it got in its "bot started" log line.

/** The port a bot process named in its "bot started" log line (LOG_LEVEL info or debug), or null before it. */
export function reportedPort(output: string): number | null {
  // pino writes the message last: once it is there, the port before it is whole.
  const m = /^(?=[^\n]*"msg":"bot started")[^\n]*?"port":(\d+)/m.exec(output);
  return m ? Number(m[1]) : null;
}

/** Waits for a bot process to name its port; fails with its output when it ends or stays silent. */
export async function waitForPort(output: () => string, ended: () => boolean, timeoutMs = 90_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const port = reportedPort(output());
    if (port !== null) return port;
    if (ended() || Date.now() > deadline) throw new Error(`the bot did not say which port it listens on:\n${output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface SpawnedBot {
  child: ChildProcess;
  /** The bot's address once it has said it started (reading it earlier throws). */
  readonly url: string;
  fake: FakeSlack;
  /** Signed requests to the bot, once it has said it started (reading it earlier throws). */
  readonly slack: SlackDriver;
  dataDir: string;
  dbPath: string;
  env: Record<string, string>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Resolves once /readyz answers 200; fails with the output (and closes the bot) if it ends or never does. */
  healthy(): Promise<void>;
  /** GET /readyz: its status and JSON body (status 0 when nothing answered, or the bot has no port yet). */
  health(): Promise<{ status: number; body: { status?: string } | null }>;
  connect(person: SlackPerson, token: string): Promise<Interaction>;
  /** Kills the process if it still runs, closes the fake Slack, removes the data unless `keepData`. */
  close(o?: { keepData?: boolean }): Promise<void>;
}

export interface SpawnBotOptions {
  gitlabUrl: string;
  /** More variables, or overrides (a value of '' removes a variable). */
  env?: Record<string, string>;
  /** Reuse a data directory (a database made earlier). */
  dataDir?: string;
  /** Wait for the port and /readyz to answer 200 (default), or only for the process to start (see `healthy()`). */
  waitHealthy?: boolean;
  /** Socket Mode: the bot gets this app-level token (SLACK_APP_TOKEN), which the fake Slack accepts. */
  appToken?: string;
  /**
   * Another replica of that bot: its fake Slack, secrets, keys and database; closing this one leaves them to it.
   */
  replicaOf?: SpawnedBot;
  /** What runs: the run's build (default), or src/main.ts through tsx. */
  from?: 'build' | 'sources';
}

/** The command that starts the bot: node on the run's build when there is one, else tsx on the sources. */
function botCommand(from: 'build' | 'sources'): string[] {
  const buildDir = from === 'build' ? inject('botBuildDir') : undefined;
  return buildDir ? [path.join(buildDir, 'main.js')] : ['--import', 'tsx', 'src/main.ts'];
}

export async function spawnBot(o: SpawnBotOptions): Promise<SpawnedBot> {
  const shared = o.replicaOf;
  const botToken = shared?.env.SLACK_BOT_TOKEN ?? `xoxb-spawned-${crypto.randomBytes(8).toString('hex')}`;
  const fake =
    shared?.fake ?? (await startFakeSlack(botToken, Object.values(PEOPLE), o.appToken ? { appToken: o.appToken } : {}));
  const dataDir = shared?.dataDir ?? o.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-proc-'));
  const dbPath = path.join(dataDir, 'bot.db');
  const signingSecret = shared?.env.SLACK_SIGNING_SECRET ?? crypto.randomBytes(16).toString('hex');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    GITLAB_URL: o.gitlabUrl,
    TOKEN_ENCRYPTION_KEY: shared?.env.TOKEN_ENCRYPTION_KEY ?? crypto.randomBytes(32).toString('base64'),
    DATABASE_PATH: shared?.env.DATABASE_PATH ?? dbPath,
    LOG_LEVEL: 'debug',
    ...(o.appToken ? { SLACK_APP_TOKEN: o.appToken } : {}),
  };
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (v === '') delete env[k];
    else env[k] = v;
  }
  const child = spawn(process.execPath, botCommand(o.from ?? 'build'), { cwd: root, env });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  let driver: SlackDriver | null = null;
  /** The bot's address, as soon as its output names the port. */
  const address = (): string | null => {
    const port = reportedPort(out);
    return port === null ? null : `http://127.0.0.1:${port}`;
  };
  const started = (): string => {
    const url = address();
    if (!url) throw new Error(`the bot has not said which port it listens on yet:\n${out}`);
    return url;
  };

  const bot: SpawnedBot = {
    child,
    get url() {
      return started();
    },
    fake,
    get slack() {
      driver ??= new SlackDriver({ botUrl: started(), signingSecret, fake, command: '/gl' });
      return driver;
    },
    dataDir,
    dbPath: env.DATABASE_PATH ?? dbPath,
    env,
    output: () => out,
    exited,
    async healthy() {
      // A start on a busy machine can take a while (and tsx compiles on the fly).
      const deadline = Date.now() + 90_000;
      while (!ended && Date.now() < deadline) {
        if ((await bot.health()).status === 200) return;
        await new Promise((r) => setTimeout(r, 20));
      }
      await bot.close();
      throw new Error(`the bot did not become healthy:\n${out}`);
    },
    async health() {
      const url = address();
      if (!url) return { status: 0, body: null };
      try {
        const res = await fetch(`${url}/readyz`);
        const body = (await res.json().catch(() => null)) as { status?: string } | null;
        return { status: res.status, body };
      } catch {
        return { status: 0, body: null };
      }
    },
    async connect(person, token) {
      const { slack } = bot;
      const command = await slack.command(person, 'connect');
      const opened = await command.waitFor((r) => r.method === 'views.open' && r.ok, 10_000);
      if (!opened?.view) throw new Error(`no connect modal opened: ${command.text()}`);
      const input = (opened.view.blocks as { type: string; block_id: string }[]).find((b) => b.type === 'input');
      if (!input) throw new Error('the connect modal has no input');
      return slack.submitView(person, opened.view, { [input.block_id]: token });
    },
    async close({ keepData = false } = {}) {
      if (!ended) {
        child.kill('SIGKILL');
        await exited;
      }
      if (shared) return;
      await fake.close();
      if (!keepData && !o.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };

  if (o.waitHealthy !== false) await bot.healthy();
  return bot;
}
