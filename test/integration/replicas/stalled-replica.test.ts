import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBot } from '../../support/built-bot.js';
import { morePolls, openProcessWorld, type ProcessWorld, until, type WorldBot } from '../../support/process-world.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';
import { ALERT_TIMING } from '../alerts/kill-cases.js';

// The built bot as two replicas on one SQLite database, one of them stalled (it stops itself with SIGSTOP right
// before an alert DM, the seam ALERT_TEST_STOP_AT of main.ts) for longer than its lease (1.5 s here): the other
// replica takes the person over and sends the todo; the stalled one, continued with SIGCONT, finds its lease gone
// and does not send it again (lease-fence.ts). Every todo comes exactly once.

let build: { dir: string; remove(): void } | undefined;

beforeAll(async () => {
  build = await buildBot();
}, 240_000);

afterAll(() => build?.remove());

const ALICE_DM = `D${PEOPLE.alice.id.slice(1)}`;

/** Todo ids of every alert DM alice got (the Done buttons carry them), once per DM that shows them. */
function alertedIds(world: ProcessWorld): number[] {
  const out: number[] = [];
  for (const m of world.fake.messages.values()) {
    if (m.channel !== ALICE_DM || m.ephemeral) continue;
    for (const hit of JSON.stringify(m.blocks ?? []).matchAll(/\\"t\\":(\d+)/g)) out.push(Number(hit[1]));
  }
  return out;
}

async function newTodo(world: ProcessWorld): Promise<number> {
  world.sim.tick();
  const res = await fetch(`${world.sim.url}/api/v4/todos?state=pending&per_page=100`, {
    headers: { 'PRIVATE-TOKEN': TOKENS.alice },
  });
  const [newest] = (await res.json()) as { id: number }[];
  if (!newest) throw new Error('the tick made no todo');
  return newest.id;
}

/** Whether the process is stopped (Linux: its state in /proc). */
const isStopped = (bot: WorldBot) => {
  try {
    return fs.readFileSync(`/proc/${bot.child.pid}/stat`, 'utf8').split(') ')[1]?.startsWith('T') === true;
  } catch {
    return false;
  }
};

const alicePoll = (r: { method: string; path: string; user: string | null; query: Record<string, unknown> }) =>
  r.method === 'GET' && r.path === '/api/v4/todos' && r.user === 'alice' && r.query.per_page !== '100';

describe('a replica stalled past its lease right before an alert DM', () => {
  it('does not send it when it goes on: the replica that took the lease over sends it, once', async ({
    onTestFinished,
  }) => {
    const world = await openProcessWorld({ buildDir: build?.dir as string, engine: 'sqlite', env: ALERT_TIMING });
    onTestFinished(() => world.close());
    await world.connect(PEOPLE.alice, TOKENS.alice);
    const stalled = await world.start({ ALERT_TEST_STOP_AT: 'before-post' });
    const on = await stalled.slack.command(PEOPLE.alice, 'notify on');
    expect(await on.waitForMessage((t) => /Todo alerts are on/.test(t), 10_000)).toBeTruthy();
    const todo = await newTodo(world);
    await until('the replica to stall before the DM', () => isStopped(stalled));
    expect(alertedIds(world)).toEqual([]);

    const other = await world.start();
    await until('the other replica to send the todo', () => alertedIds(world).includes(todo));
    stalled.child.kill('SIGCONT');
    // Going on, it would post right away: a few polls later the todo is still there once.
    await morePolls(world.sim, alicePoll, 3);
    expect(alertedIds(world)).toEqual([todo]);
    await until('the stalled replica to find its lease gone', () => stalled.output().includes('"outcome":"lost"'));
    // Both replicas poll on; a later todo comes once too.
    const next = await newTodo(world);
    await until('the next todo', () => alertedIds(world).includes(next));
    await morePolls(world.sim, alicePoll, 4);
    expect(alertedIds(world)).toEqual([todo, next]);
    await Promise.all([world.stop(stalled), world.stop(other)]);
  }, 180_000);
});
