import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitlabClient } from '../../../src/gitlab/client.js';
import { createTransport, type Transport } from '../../../src/gitlab/http.js';
import { projectOf } from '../../../src/gitlab/project.js';
import type { Job } from '../../../src/gitlab/schemas.js';
import { createFailureReader, type Reading, TRACE_TAIL_BYTES } from '../../../src/operations/failures.js';
import { fakeClock } from '../../support/clock.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// What the failure reader costs, counted in the simulator's request log: the project's history is at most two
// pages whatever the project holds, and a trace of any size is read as a stream with only its end kept.

const clock = fakeClock();
let sim: RunningSimulator;
let transport: Transport;
let read: Reading;
const project = projectOf('demo/web');

beforeAll(async () => {
  sim = await startSim(clock);
  transport = createTransport({ baseUrl: sim.url });
  const client = createGitlabClient(transport, TOKENS.alice);
  read = { read: (fn) => fn(client), teamId: 'T0TEST' };
});
afterAll(async () => {
  transport.close();
  await sim.close();
});
beforeEach(() => sim.reset());

const job = async (id: number) =>
  (await (
    await fetch(`${sim.url}/api/v4/projects/demo%2Fweb/jobs/${id}`, { headers: { 'PRIVATE-TOKEN': TOKENS.alice } })
  ).json()) as Job;

describe('the failure reader', () => {
  it('reads at most two pages of the project history for a card, however few runs of the job they hold', async () => {
    const reader = createFailureReader({ historyPerPage: 5 });
    const notes = await reader.explain(read, project, [await job(8)], clock.now());
    expect(notes).toHaveLength(1);
    const history = sim.requests().filter((r) => r.path === '/api/v4/projects/demo%2Fweb/jobs');
    expect(history.map((r) => r.query)).toEqual([
      { scope: ['failed', 'success'], per_page: '5', page: '1' },
      { scope: ['failed', 'success'], per_page: '5', page: '2' },
    ]);
    // Kept per project: another card of the project a minute later reads none.
    const before = sim.requests().length;
    clock.advance(60_000);
    await reader.explain(read, project, [await job(8)], clock.now());
    expect(sim.requests().slice(before + 1)).toEqual([]);
  });

  it('reads the traces of the first three failed jobs only, and each once', async () => {
    const reader = createFailureReader();
    const failed = [];
    for (const id of [1, 2, 3, 4, 5]) {
      sim.editJob(id, { status: 'failed', trace: `$ make\nmake: *** [job ${id}] Error 1\n` });
      failed.push(await job(id));
    }
    const before = sim.requests().length;
    const notes = await reader.explain(read, project, failed, clock.now());
    expect(notes.map((n) => n.excerpt?.lines)).toEqual(
      [1, 2, 3].map((id) => ['$ make', `make: *** [job ${id}] Error 1`]),
    );
    const traces = sim
      .requests()
      .slice(before)
      .filter((r) => r.path.endsWith('/trace'));
    expect(traces.map((r) => r.path).sort()).toEqual(
      [1, 2, 3].map((id) => `/api/v4/projects/demo%2Fweb/jobs/${id}/trace`),
    );
    // The history is read once (one page: the demo holds fewer jobs than a page).
    expect(
      sim
        .requests()
        .slice(before)
        .filter((r) => !r.path.endsWith('/trace')),
    ).toHaveLength(1);
    const again = sim.requests().length;
    await reader.explain(read, project, failed, clock.now());
    expect(sim.requests().slice(again)).toEqual([]);
  });

  it('keeps only the end of a huge trace, and finds the failure there', async () => {
    const noise = Array.from({ length: 60_000 }, (_, i) => `collecting item ${i} ${'.'.repeat(40)}`).join('\n');
    const summary = [
      '=========================== short test summary info ============================',
      'FAILED tests/test_cart.py::test_rounding - assert 59.96 == 59.97',
      '========================= 1 failed, 186 passed in 3.21s =========================',
    ].join('\n');
    sim.editJob(8, { trace: `${noise}\n${summary}\nERROR: Job failed: exit code 1\n` });
    const client = createGitlabClient(transport, TOKENS.alice);
    const tail = await client.jobs.traceTail('demo/web', 8, TRACE_TAIL_BYTES);
    expect(noise.length).toBeGreaterThan(40 * TRACE_TAIL_BYTES);
    expect(tail.cut).toBe(true);
    expect(Buffer.byteLength(tail.text)).toBeLessThanOrEqual(TRACE_TAIL_BYTES);
    expect(tail.text).toMatch(/^collecting item \d+ \.+\n/); // starts at a whole line
    const note = (await createFailureReader().explain(read, project, [await job(8)], clock.now()))[0];
    expect(note?.excerpt).toEqual({
      rule: { id: 'pytest', from: "pytest's summary" },
      lines: [
        'FAILED tests/test_cart.py::test_rounding - assert 59.96 == 59.97',
        '========================= 1 failed, 186 passed in 3.21s =========================',
      ],
    });
  });

  it('reads an empty trace as erased, and a trace it cannot read as unread', async () => {
    sim.editJob(8, { trace: '' });
    const reader = createFailureReader();
    expect((await reader.explain(read, project, [await job(8)], clock.now()))[0]).toMatchObject({
      excerpt: null,
      trace: 'empty',
    });
    const lost = { ...(await job(8)), id: 9999 };
    expect((await reader.explain(read, project, [lost], clock.now()))[0]).toMatchObject({ trace: 'unread' });
  });
});
