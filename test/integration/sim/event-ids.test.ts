import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../../src/sim/index.js';
import { entryArgs } from '../../support/built-entry.js';

// 9.5 sends events without an id; later servers send one. The simulator does either: 9.5 by default, ids with
// the eventIds option, SIM_EVENT_IDS=1 for `npm run sim`, or POST /__sim/events { ids } while it runs.

const ROOT = path.resolve(import.meta.dirname, '../../..');

async function events(url: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${url}/api/v4/projects/demo%2Fweb/events?per_page=3`, {
    headers: { 'PRIVATE-TOKEN': 'sim-alice-token' },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>[];
}

const control = (url: string, body: unknown) =>
  fetch(`${url}/__sim/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

describe('event ids in the simulator', () => {
  it('sends none by default, as 9.5', async () => {
    const list = await events(sim.url);
    expect(list).toHaveLength(3);
    for (const e of list) expect('id' in e).toBe(false);
  });

  it('sends distinct ids after POST /__sim/events {"ids": true}, and none again after a reset', async () => {
    const on = await control(sim.url, { ids: true });
    expect(on.status).toBe(200);
    expect(await on.json()).toEqual({ ids: true });
    const ids = (await events(sim.url)).map((e) => e.id);
    expect(ids.every((id) => typeof id === 'number')).toBe(true);
    expect(new Set(ids).size).toBe(3);
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
    for (const e of await events(sim.url)) expect('id' in e).toBe(false);
  });

  it('refuses a control call without `ids`', async () => {
    const bad = await control(sim.url, { id: true });
    expect(bad.status).toBe(400);
  });

  it('sends ids from the start with the option, and with SIM_EVENT_IDS=1 for npm run sim', async () => {
    const withIds = await startSimulator({ port: 0, eventIds: true });
    try {
      for (const e of await events(withIds.url)) expect(typeof e.id).toBe('number');
    } finally {
      await withIds.close();
    }
    // the simulator's entry point, from the test run's build
    const child = spawn(process.execPath, entryArgs('sim/main'), {
      cwd: ROOT,
      env: { ...process.env, SIM_PORT: '0', SIM_HOST: '127.0.0.1', SIM_EVENT_IDS: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}: ${out}`)));
      });
      for (const e of await events(url)) expect(typeof e.id).toBe('number');
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
