import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startFakeSlack } from '../../../src/console/fake-slack.js';
import { waitForPort } from '../../support/spawn-bot.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' });

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('npm start', () => {
  it('with an empty environment exits non-zero with one message naming every missing variable', () => {
    const r = spawnSync('npm', ['start', '--silent'], {
      cwd: root,
      env: baseEnv(),
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(r.status).not.toBe(0);
    expect(r.status).not.toBeNull();
    const messages = r.stderr.match(/Configuration error/g) ?? [];
    expect(messages).toHaveLength(1);
    for (const name of ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'GITLAB_URL', 'TOKEN_ENCRYPTION_KEY']) {
      expect(r.stderr).toContain(`${name} is missing`);
    }
  }, 200_000);

  it('serves /healthz, then stops cleanly on SIGTERM without printing a secret', async () => {
    const built = spawnSync('npm', ['run', 'build', '--silent'], {
      cwd: root,
      env: baseEnv(),
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(built.status).toBe(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-start-'));
    const secrets = {
      SLACK_BOT_TOKEN: `xoxb-${crypto.randomBytes(8).toString('hex')}`,
      SLACK_SIGNING_SECRET: crypto.randomBytes(16).toString('hex'),
      TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    };
    const slack = await startFakeSlack(secrets.SLACK_BOT_TOKEN, []);
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: root,
      env: {
        ...baseEnv(),
        ...secrets,
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        GITLAB_URL: 'http://127.0.0.1:9',
        DATABASE_PATH: path.join(dir, 'bot.db'),
        LOG_LEVEL: 'debug',
      },
    });
    let output = '';
    child.stdout?.on('data', (d) => {
      output += d;
    });
    child.stderr?.on('data', (d) => {
      output += d;
    });
    try {
      // PORT=0: the system picks a free port and the "bot started" line names it.
      const port = await waitForPort(
        () => output,
        () => child.exitCode !== null,
      );
      let status = 0;
      for (const end = Date.now() + 30_000; status !== 200 && Date.now() < end; ) {
        status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(200);
      const done = exited(child);
      child.kill('SIGTERM');
      expect(await done).toBe(0);
      expect(output).toMatch(/"msg":"bot started"/);
      expect(output).toMatch(/"signal":"SIGTERM"[^\n]*"msg":"shutting down"/);
      for (const secret of Object.values(secrets)) expect(output).not.toContain(secret);
      // The bot token was checked with Slack once before the bot said it started.
      expect(slack.calls('auth.test').length).toBeGreaterThan(0);
      expect(slack.calls('auth.test').every((r) => r.ok)).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
      await slack.close();
    }
  }, 200_000);

  it('stops with one clear line when Slack refuses the bot token', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-start-'));
    const slack = await startFakeSlack(`xoxb-the-real-one-${crypto.randomBytes(4).toString('hex')}`, []);
    const wrong = `xoxb-${crypto.randomBytes(8).toString('hex')}`;
    try {
      // Not spawnSync: the fake Slack answering auth.test runs in this process.
      const child = spawn(process.execPath, ['dist/main.js'], {
        cwd: root,
        env: {
          ...baseEnv(),
          SLACK_BOT_TOKEN: wrong,
          SLACK_SIGNING_SECRET: crypto.randomBytes(16).toString('hex'),
          SLACK_API_URL: slack.apiUrl,
          PORT: '0',
          GITLAB_URL: 'http://127.0.0.1:9',
          TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
          DATABASE_PATH: path.join(dir, 'bot.db'),
        },
      });
      const r = { status: null as number | null, stdout: '', stderr: '' };
      child.stdout?.on('data', (d) => {
        r.stdout += d;
      });
      child.stderr?.on('data', (d) => {
        r.stderr += d;
      });
      r.status = await exited(child);
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(
        'The bot could not start: Slack refused SLACK_BOT_TOKEN (invalid_auth). Copy the Bot User OAuth Token (xoxb-…) of the installed app again.',
      );
      expect(r.stdout + r.stderr).not.toMatch(/bot started|\n\s+at /);
      expect(r.stdout + r.stderr).not.toContain(wrong);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await slack.close();
    }
  }, 100_000);
});
