import { expect } from 'vitest';
import type { AlertPoint } from '../../../src/operations/alert-service.js';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { morePolls, type ProcessWorld, until, type WorldBot } from '../../support/process-world.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// What the process tests of alerts prove, on either engine (kill.test.ts on SQLite, kill-postgres.test.ts on
// PostgreSQL): the built bot killed with SIGKILL at a point of an alert delivery (the test-only seam
// ALERT_TEST_KILL_AT of main.ts), then started again on the same database, alone or as two replicas, sends every
// todo exactly once. ALERT_TEST_TIMING looks for people due each second, makes leases short and paces a DM's
// posts 100 ms apart (todos made one after another are not held back a second each).

export const ALERT_TIMING = {
  ALERT_TEST_TIMING: JSON.stringify({ tickMs: 1000, intervalMs: 500, leaseMs: 1500, channelIntervalMs: 100 }),
};

const ALICE_DM = `D${PEOPLE.alice.id.slice(1)}`;

/** Todo ids of every alert DM alice got (the Done buttons carry them), once per DM that shows them. */
function alertedIds(world: ProcessWorld): number[] {
  const out: number[] = [];
  for (const m of world.fake.messages.values()) {
    if (m.channel !== ALICE_DM || m.ephemeral) continue;
    const json = JSON.stringify(m.blocks ?? []);
    for (const hit of json.matchAll(/\\"t\\":(\d+)/g)) out.push(Number(hit[1]));
  }
  return out;
}

const countOf = (ids: number[], id: number) => ids.filter((x) => x === id).length;

/** A new todo of alice's (the simulator's tick makes one); its id. */
async function newTodo(sim: RunningSimulator): Promise<number> {
  sim.tick();
  const res = await fetch(`${sim.url}/api/v4/todos?state=pending&per_page=100`, {
    headers: { 'PRIVATE-TOKEN': TOKENS.alice },
  });
  const [newest] = (await res.json()) as { id: number }[];
  if (!newest) throw new Error('the tick made no todo');
  return newest.id;
}

/** A poll of alice's todos by the bot (the test's own reads ask for 100 a page). */
const alicePoll = (r: { method: string; path: string; user: string | null; query: Record<string, unknown> }) =>
  r.method === 'GET' && r.path === '/api/v4/todos' && r.user === 'alice' && r.query.per_page !== '100';

/** Alice (connected) turns alerts on through `bot`. */
async function aliceTurnsAlertsOn(bot: WorldBot): Promise<void> {
  const on = await bot.slack.command(PEOPLE.alice, 'notify on');
  expect(await on.waitForMessage((t) => /Todo alerts are on/.test(t), 10_000)).toBeTruthy();
}

/** A process that turned alerts on, killed at `point` of the delivery of a new todo; that todo. */
async function killedDelivering(world: ProcessWorld, point: AlertPoint): Promise<number> {
  await world.connect(PEOPLE.alice, TOKENS.alice);
  const doomed = await world.start({ ALERT_TEST_KILL_AT: point });
  await aliceTurnsAlertsOn(doomed);
  expect(alertedIds(world)).toEqual([]);
  const todo = await newTodo(world.sim);
  expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(countOf(alertedIds(world), todo)).toBe(point === 'before-post' ? 0 : 1);
  return todo;
}

/** Killed at `point`, restarted on the same database: the todo comes once, and so does a later one. */
export async function restartedAfterKill(world: ProcessWorld, point: AlertPoint): Promise<void> {
  const todo = await killedDelivering(world, point);
  const restarted = await world.start();
  await until('the todo to be alerted', () => countOf(alertedIds(world), todo) === 1);
  // Settled or sent again; then polls go on, and a later todo comes once too.
  const next = await newTodo(world.sim);
  await until('the next todo', () => countOf(alertedIds(world), next) === 1);
  // Two more polls: anything sent twice would have been sent by now.
  await morePolls(world.sim, alicePoll);
  expect(alertedIds(world)).toEqual([todo, next]);
  if (point !== 'before-post') expect(restarted.output()).toContain('"msg":"alert delivery settled"');
  expect(restarted.output()).not.toContain(TOKENS.alice);
  await world.stop(restarted);
}

/**
 * Killed at `point`, then two replicas started at once on the same database: they finish what the killed process
 * left, and poll the same person for todos that come one after another, each sent exactly once between them.
 */
export async function replicasAfterKill(world: ProcessWorld, point: AlertPoint): Promise<void> {
  const todo = await killedDelivering(world, point);
  const replicas = await Promise.all([world.start(), world.start()]);
  await until('the todo to be alerted', () => countOf(alertedIds(world), todo) === 1);
  const made: number[] = [];
  for (let i = 0; i < 3; i++) {
    made.push(await newTodo(world.sim));
    await new Promise((r) => setTimeout(r, 400));
  }
  await until('every todo to be alerted', () => made.every((id) => countOf(alertedIds(world), id) >= 1));
  await morePolls(world.sim, alicePoll);
  const ids = alertedIds(world);
  expect([todo, ...made].map((id) => countOf(ids, id))).toEqual([1, 1, 1, 1]);
  expect(ids).toHaveLength(4);
  if (point !== 'before-post')
    expect(replicas.map((r) => r.output()).join('\n')).toContain('"msg":"alert delivery settled"');
  await Promise.all(replicas.map((r) => world.stop(r)));
}
