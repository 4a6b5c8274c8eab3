import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

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
    const port = await freePort();
    const secrets = {
      SLACK_BOT_TOKEN: `xoxb-${crypto.randomBytes(8).toString('hex')}`,
      SLACK_SIGNING_SECRET: crypto.randomBytes(16).toString('hex'),
      TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    };
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: root,
      env: {
        ...baseEnv(),
        ...secrets,
        PORT: String(port),
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
      let status = 0;
      for (let i = 0; i < 200 && status !== 200; i++) {
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
      expect(output).toMatch(/"msg":"shutting down","signal":"SIGTERM"/);
      for (const secret of Object.values(secrets)) expect(output).not.toContain(secret);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 200_000);
});
