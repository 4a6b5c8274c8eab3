import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run demo -- --web --port P` as a process: it prints the page's address on 127.0.0.1, serves the page and what
// a person sees, keeps serving with no terminal to read, and stops on SIGTERM; a bad port is said, and nothing starts.

const root = path.resolve(import.meta.dirname, '../../..');
let child: ChildProcess | null = null;

function demo(args: string[]) {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/console/main.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  child = proc;
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  proc.stderr?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, output: () => out, exited };
}

async function until<T>(get: () => T | null, what: () => string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = null;
});

describe('npm run demo -- --web', () => {
  it('prints the address of the page on 127.0.0.1, serves it until SIGTERM', async () => {
    const d = demo(['--web', '--port', '0']);
    const url = await until(
      () => /open (http:\/\/127\.0\.0\.1:\d+\/) in a browser/.exec(d.output())?.[1] ?? null,
      d.output,
    );
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('aria-label="Message"');
    const state = (await (await fetch(`${url}api/state?as=bob`)).json()) as { me: { name: string } };
    expect(state.me.name).toBe('bob');
    const refused = await fetch(`${url}api/state?as=mallory`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'Who? One of: alice, bob, root, eve.' });
    // A name that is not the page's own (DNS rebinding) is refused.
    const rebound = await new Promise<number>((resolve, reject) => {
      const { port } = new URL(url);
      http
        .get({ host: '127.0.0.1', port, path: '/api/state?as=alice', headers: { host: 'evil.example' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(rebound).toBe(421);
    d.proc.kill('SIGTERM');
    expect(await d.exited).toBe(143);
  }, 90_000);

  it('says what is wrong with a bad port, and starts nothing', async () => {
    const d = demo(['--web', '--port', 'eighty']);
    expect(await d.exited).toBe(1);
    expect(d.output()).toContain('--port must be a port number (0–65535), got "eighty"');
    expect(d.output()).not.toContain('Starting the demo');
  }, 60_000);
});
