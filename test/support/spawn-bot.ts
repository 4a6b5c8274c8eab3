import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';
import { freePort } from './free-port.js';
import type { SlackPerson } from './payloads.js';
import { type Interaction, SlackDriver } from './slack-driver.js';
import { PEOPLE } from './start-app.js';

// The bot as its own process (src/main.ts through tsx, exactly as `npm run dev` starts it), for what only a
// process shows: signals, a database another process locks, start-up messages. The fake Slack runs here.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface SpawnedBot {
  child: ChildProcess;
  url: string;
  fake: FakeSlack;
  slack: SlackDriver;
  dataDir: string;
  dbPath: string;
  env: Record<string, string>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** GET /healthz: its status and JSON body (status 0 when nothing answered). */
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
  /** Wait for /healthz to answer 200 (default) or only for the process to start. */
  waitHealthy?: boolean;
  /** Socket Mode: the bot gets this app-level token (SLACK_APP_TOKEN), which the fake Slack accepts. */
  appToken?: string;
}

export async function spawnBot(o: SpawnBotOptions): Promise<SpawnedBot> {
  const botToken = `xoxb-spawned-${crypto.randomBytes(8).toString('hex')}`;
  const fake = await startFakeSlack(botToken, Object.values(PEOPLE), o.appToken ? { appToken: o.appToken } : {});
  const dataDir = o.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-proc-'));
  const dbPath = path.join(dataDir, 'bot.db');
  const port = await freePort();
  const signingSecret = crypto.randomBytes(16).toString('hex');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: String(port),
    GITLAB_URL: o.gitlabUrl,
    TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    DATABASE_PATH: dbPath,
    LOG_LEVEL: 'debug',
    ...(o.appToken ? { SLACK_APP_TOKEN: o.appToken } : {}),
  };
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (v === '') delete env[k];
    else env[k] = v;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: root, env });
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
  const url = `http://127.0.0.1:${port}`;
  const slack = new SlackDriver({ botUrl: url, signingSecret, fake, command: '/gl' });

  const bot: SpawnedBot = {
    child,
    url,
    fake,
    slack,
    dataDir,
    dbPath: env.DATABASE_PATH ?? dbPath,
    env,
    output: () => out,
    exited,
    async health() {
      try {
        const res = await fetch(`${url}/healthz`);
        const body = (await res.json().catch(() => null)) as { status?: string } | null;
        return { status: res.status, body };
      } catch {
        return { status: 0, body: null };
      }
    },
    async connect(person, token) {
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
      await fake.close();
      if (!keepData && !o.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };

  if (o.waitHealthy !== false) {
    // tsx compiles on the fly: the first start on a busy machine can take a while.
    for (let i = 0; i < 600 && !ended; i++) {
      if ((await bot.health()).status === 200) return bot;
      await new Promise((r) => setTimeout(r, 50));
    }
    await bot.close();
    throw new Error(`the bot did not become healthy:\n${out}`);
  }
  return bot;
}
