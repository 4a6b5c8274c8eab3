import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryArgs } from '../../support/built-entry.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Starts the simulator the way a person does; SIM_PORT=0 lets the system pick a port, the start line tells which. */
async function launch(command: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, SIM_PORT: '0', SIM_SEED: 'demo', SIM_HOST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // its own process group, so npm, tsx and node stop together
    detached: true,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /simulator listening on (http:\/\/\S+) \(seed demo\)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}: ${out}`)));
  });
  return { child, url };
}

function stopGroup(child: ChildProcess) {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
    process.kill(-child.pid, 'SIGTERM');
}

describe('npm run sim', () => {
  let sim: { child: ChildProcess; url: string };
  beforeAll(async () => {
    sim = await launch('npm', ['run', 'sim', '--silent']);
  }, 60_000);
  afterAll(async () => {
    const exit = once(sim.child, 'exit');
    stopGroup(sim.child);
    await exit;
  });

  it('prints one start line with its URL', () => {
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("answers curl -H 'PRIVATE-TOKEN: sim-alice-token' localhost:PORT/api/v4/projects/demo%2Fweb/jobs", async () => {
    const port = new URL(sim.url).port;
    for (const host of ['localhost', '127.0.0.1']) {
      const res = await fetch(`http://${host}:${port}/api/v4/projects/demo%2Fweb/jobs`, {
        headers: { 'PRIVATE-TOKEN': 'sim-alice-token' },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as unknown[]).length).toBe(20);
      expect(res.headers.get('x-total-pages')).toBe('2');
    }
  });

  // Issue 46: its /__sim/* controls ask for no credentials, and listened on every interface.
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && !a.internal && a.family === 'IPv4')?.address;
  it.skipIf(!external)('is not reached from another machine unless SIM_HOST says so', async () => {
    const port = new URL(sim.url).port;
    await expect(fetch(`http://${external}:${port}/__sim/requests`)).rejects.toThrow();
  });

  it('serves the control endpoints the contract check polls', async () => {
    const res = await fetch(`${sim.url}/__sim/requests`);
    expect(res.status).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
  });
});

// The simulator's entry point itself, from the test run's build (`npm run sim` above starts it through tsx).
describe('src/sim/main.ts', () => {
  it('stops cleanly with exit code 0 on SIGTERM', async () => {
    const sim = await launch(process.execPath, entryArgs('sim/main'));
    const exit = once(sim.child, 'exit');
    sim.child.kill('SIGTERM');
    const [code] = await exit;
    expect(code).toBe(0);
  }, 60_000);

  it('refuses a bad SIM_SEED with a message and exit code 1', async () => {
    const child = spawn(process.execPath, entryArgs('sim/main'), {
      cwd: ROOT,
      env: { ...process.env, SIM_PORT: '0', SIM_SEED: 'huge' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(err).toContain('SIM_SEED must be one of demo, empty');
  }, 60_000);
});
