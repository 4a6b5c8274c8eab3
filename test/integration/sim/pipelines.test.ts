import { describe, expect, it } from 'vitest';
import { type Loose, SECRET, useSimulator, WEB } from './support.js';

const s = useSimulator();

const pipelines = (query = {}) => s.all(`/projects/${WEB}/pipelines`, { query });

async function pipelineWith(status: string) {
  const p = (await pipelines()).find((x) => x.status === status);
  if (!p) throw new Error(`no ${status} pipeline`);
  return p;
}

describe('GET /projects/:id/pipelines', () => {
  it('lists pipelines in their basic form, newest first', async () => {
    const res = await s.get(`/projects/${WEB}/pipelines`);
    expect(res.status).toBe(200);
    for (const p of res.data) expect(Object.keys(p).sort()).toEqual(['id', 'ref', 'sha', 'status']);
    const ids = res.data.map((p: Loose) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('filters by status, scope, ref, yaml_errors, username and name', async () => {
    expect((await pipelines({ status: 'failed' })).every((p) => p.status === 'failed')).toBe(true);
    expect((await pipelines({ scope: 'running' })).map((p) => p.status)).toEqual(['running']);
    const finished = await pipelines({ scope: 'finished' });
    expect(finished.every((p) => ['success', 'failed', 'canceled', 'skipped'].includes(p.status))).toBe(true);
    const tags = await pipelines({ scope: 'tags' });
    expect(tags).toHaveLength(1);
    expect(tags[0].ref).toBe('v1.4.0-rc1');
    const branches = await pipelines({ scope: 'branches' });
    expect(new Set(branches.map((p) => p.ref)).size).toBe(branches.length);
    expect((await pipelines({ ref: 'main' })).every((p) => p.ref === 'main')).toBe(true);
    const yaml = await pipelines({ yaml_errors: true });
    expect(yaml).toHaveLength(1);
    const detail = await s.get(`/projects/${WEB}/pipelines/${yaml[0].id}`);
    expect(detail.data.yaml_errors).toContain('script config');
    const byBob = await pipelines({ username: 'bob' });
    expect(byBob.length).toBeGreaterThan(0);
    expect(await pipelines({ name: 'Bob Brown' })).toEqual(byBob);
    expect(await pipelines({ username: 'nobody' })).toEqual([]);
  });

  it('orders by the field asked for, in the direction asked for', async () => {
    const asc = await pipelines({ order_by: 'id', sort: 'asc' });
    expect(asc.map((p) => p.id)).toEqual([...asc.map((p) => p.id)].sort((a, b) => a - b));
    const byRef = await pipelines({ order_by: 'ref', sort: 'asc' });
    const refs = byRef.map((p) => p.ref);
    expect(refs).toEqual([...refs].sort());
  });

  it('refuses unknown filter values with 400', async () => {
    for (const query of [
      { scope: 'nope' },
      { status: 'nope' },
      { order_by: 'nope' },
      { sort: 'up' },
      { yaml_errors: 'maybe' },
    ]) {
      const res = await s.get(`/projects/${WEB}/pipelines`, { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.data.error).toMatch(/does not have a valid value|is invalid/);
    }
  });
});

describe('GET /projects/:id/pipelines/:pipeline_id', () => {
  it('answers the full pipeline, 404 for unknown ids', async () => {
    const p = await pipelineWith('success');
    const res = await s.get(`/projects/${WEB}/pipelines/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: p.id, status: 'success', tag: false, yaml_errors: null });
    expect(res.data.user.username).toEqual(expect.any(String));
    expect(res.data.duration).toBeGreaterThan(0);
    expect((await s.get(`/projects/${WEB}/pipelines/777777`)).status).toBe(404);
    expect((await s.get(`/projects/${SECRET}/pipelines/1`, { as: 'eve' })).status).toBe(404);
  });
});

describe('POST /projects/:id/pipeline', () => {
  it('creates a pending pipeline with before_sha all zeros (201) whose jobs the runner then moves on', async () => {
    const res = await s.post(`/projects/${WEB}/pipeline`, { as: 'bob', query: { ref: 'main' } });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ ref: 'main', status: 'pending', before_sha: '0'.repeat(40), finished_at: null });
    const jobs = await s.get(`/projects/${WEB}/pipelines/${res.data.id}/jobs`);
    expect(jobs.data.find((j: Loose) => j.name === 'compile').status).toBe('pending');
    expect(jobs.data.find((j: Loose) => j.name === 'lint').status).toBe('created');
    s.sim().tick();
    const after = await s.get(`/projects/${WEB}/pipelines/${res.data.id}`);
    expect(after.data.status).toBe('running');
    for (let i = 0; i < 10; i++) s.sim().tick();
    const done = await s.get(`/projects/${WEB}/pipelines/${res.data.id}`);
    expect(done.data.status).toBe('success');
    const deployed = await s.get(`/projects/${WEB}/pipelines/${res.data.id}/jobs`);
    expect(deployed.data.find((j: Loose) => j.name === 'deploy:production').status).toBe('manual');
  });

  it('answers 400 without a ref or for an unknown one, 403 to a non-member', async () => {
    const missing = await s.post(`/projects/${WEB}/pipeline`);
    expect(missing.status).toBe(400);
    expect(missing.data).toEqual({ error: 'ref is missing' });
    const unknown = await s.post(`/projects/${WEB}/pipeline`, { form: { ref: 'no-such-branch' } });
    expect(unknown.status).toBe(400);
    expect(unknown.data).toEqual({ message: { base: ['Reference not found'] } });
    expect((await s.post(`/projects/${WEB}/pipeline`, { as: 'eve', form: { ref: 'main' } })).status).toBe(403);
  });
});

describe('pipeline retry and cancel', () => {
  it('retries the failed jobs of a failed pipeline (201)', async () => {
    const [failed] = await pipelines({ status: 'failed', yaml_errors: false });
    const before = await s.get(`/projects/${WEB}/pipelines/${failed.id}/jobs`);
    const res = await s.post(`/projects/${WEB}/pipelines/${failed.id}/retry`, { as: 'bob' });
    expect(res.status).toBe(201);
    expect(['pending', 'running']).toContain(res.data.status);
    const after = await s.get(`/projects/${WEB}/pipelines/${failed.id}/jobs`);
    expect(after.data.length).toBe(before.data.length + 1);
    expect(after.data.at(-1)).toMatchObject({ name: 'unit-tests', status: 'pending' });
  });

  it('cancels a running pipeline and its active jobs (200)', async () => {
    const running = await pipelineWith('running');
    const res = await s.post(`/projects/${WEB}/pipelines/${running.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.data.status).toBe('canceled');
    const jobs = await s.get(`/projects/${WEB}/pipelines/${running.id}/jobs`);
    expect(jobs.data.some((j: Loose) => ['pending', 'running', 'created'].includes(j.status))).toBe(false);
  });

  it('needs developer access (403) and a known pipeline (404)', async () => {
    const running = await pipelineWith('running');
    expect((await s.post(`/projects/${WEB}/pipelines/${running.id}/cancel`, { as: 'eve' })).status).toBe(403);
    expect((await s.post(`/projects/${WEB}/pipelines/${running.id}/retry`, { as: 'eve' })).status).toBe(403);
    expect((await s.post(`/projects/${WEB}/pipelines/4242/retry`)).status).toBe(404);
  });
});

describe('pipeline schedules', () => {
  it('lists schedules without last_pipeline and filters by scope', async () => {
    const res = await s.get(`/projects/${WEB}/pipeline_schedules`);
    expect(res.status).toBe(200);
    expect(res.data.length).toBeGreaterThanOrEqual(2);
    for (const x of res.data) expect('last_pipeline' in x).toBe(false);
    const active = await s.get(`/projects/${WEB}/pipeline_schedules`, { query: { scope: 'active' } });
    const inactive = await s.get(`/projects/${WEB}/pipeline_schedules`, { query: { scope: 'inactive' } });
    expect(active.data.every((x: Loose) => x.active)).toBe(true);
    expect(inactive.data.every((x: Loose) => !x.active)).toBe(true);
    expect(active.data.length + inactive.data.length).toBe(res.data.length);
    expect((await s.get(`/projects/${WEB}/pipeline_schedules`, { query: { scope: 'all' } })).status).toBe(400);
  });

  it('answers one schedule with last_pipeline, 404 for unknown ids, 403 to non-members', async () => {
    const list = await s.get(`/projects/${WEB}/pipeline_schedules`);
    const withLast = await s.get(`/projects/${WEB}/pipeline_schedules/${list.data[0].id}`);
    expect(withLast.status).toBe(200);
    expect(withLast.data.last_pipeline).toMatchObject({ id: expect.any(Number), status: expect.any(String) });
    expect((await s.get(`/projects/${WEB}/pipeline_schedules/9999`)).status).toBe(404);
    expect((await s.get(`/projects/${WEB}/pipeline_schedules`, { as: 'eve' })).status).toBe(403);
  });

  it('creates an active schedule by default with UTC and a computed next run (201)', async () => {
    const res = await s.post(`/projects/${WEB}/pipeline_schedules`, {
      as: 'bob',
      form: { description: 'Build packages', ref: 'main', cron: '0 1 * * 5' },
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      description: 'Build packages',
      active: true,
      cron_timezone: 'UTC',
      last_pipeline: null,
      next_run_at: '2026-03-06T01:00:00.000Z',
      created_at: '2026-03-02T10:00:00.000Z',
    });
    expect(res.data.owner.username).toBe('bob');
    const zoned = await s.post(`/projects/${WEB}/pipeline_schedules`, {
      json: { description: 'Tokyo', ref: 'main', cron: '30 9 * * *', cron_timezone: 'Asia/Tokyo', active: false },
    });
    expect(zoned.data).toMatchObject({ active: false, next_run_at: '2026-03-03T00:30:00.000Z' });
  });

  it('refuses invalid cron or time zone (400), missing fields (400) and non-developers (403)', async () => {
    const base = { description: 'x', ref: 'main' };
    const bad = await s.post(`/projects/${WEB}/pipeline_schedules`, { form: { ...base, cron: '61 * * * *' } });
    expect(bad.status).toBe(400);
    expect(bad.data).toEqual({ message: { cron: [' is invalid syntax'] } });
    const zone = await s.post(`/projects/${WEB}/pipeline_schedules`, {
      form: { ...base, cron: '* * * * *', cron_timezone: 'Mars/Olympus' },
    });
    expect(zone.data).toEqual({ message: { cron_timezone: [' is invalid syntax'] } });
    expect(
      (await s.post(`/projects/${WEB}/pipeline_schedules`, { form: { ref: 'main', cron: '* * * * *' } })).data,
    ).toEqual({ error: 'description is missing' });
    expect(
      (await s.post(`/projects/${WEB}/pipeline_schedules`, { as: 'eve', form: { ...base, cron: '* * * * *' } })).status,
    ).toBe(403);
  });

  it('edits a schedule and reschedules it (200); only masters and the owner may', async () => {
    const [first] = (await s.get(`/projects/${WEB}/pipeline_schedules`)).data;
    const res = await s.put(`/projects/${WEB}/pipeline_schedules/${first.id}`, {
      as: 'bob',
      form: { cron: '0 2 * * *', cron_timezone: 'Europe/Berlin', active: false },
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ cron: '0 2 * * *', active: false, next_run_at: '2026-03-03T01:00:00.000Z' });
    expect(
      (await s.put(`/projects/${WEB}/pipeline_schedules/${first.id}`, { as: 'eve', form: { active: true } })).status,
    ).toBe(403);
    expect((await s.put(`/projects/${WEB}/pipeline_schedules/${first.id}`, { form: { cron: 'often' } })).status).toBe(
      400,
    );
  });

  it('lets a master take ownership (201) and deletes with the schedule as body (202)', async () => {
    const bobs = (await s.get(`/projects/${WEB}/pipeline_schedules`)).data.find(
      (x: Loose) => x.owner.username === 'bob',
    );
    const take = await s.post(`/projects/${WEB}/pipeline_schedules/${bobs.id}/take_ownership`, { as: 'alice' });
    expect(take.status).toBe(201);
    expect(take.data.owner.username).toBe('alice');
    expect((await s.post(`/projects/${WEB}/pipeline_schedules/${bobs.id}/take_ownership`, { as: 'bob' })).status).toBe(
      403,
    );
    const del = await s.del(`/projects/${WEB}/pipeline_schedules/${bobs.id}`);
    expect(del.status).toBe(202);
    expect(del.data.id).toBe(bobs.id);
    expect((await s.get(`/projects/${WEB}/pipeline_schedules/${bobs.id}`)).status).toBe(404);
    expect((await s.del(`/projects/${WEB}/pipeline_schedules/${bobs.id}`)).status).toBe(404);
  });
});

describe('deployments', () => {
  it('lists deployments with environment and deployable job, ordered and sorted', async () => {
    const res = await s.get(`/projects/${WEB}/deployments`);
    expect(res.status).toBe(200);
    expect(res.data.length).toBeGreaterThanOrEqual(2);
    for (const d of res.data) {
      expect(d.environment).toMatchObject({ name: expect.any(String), slug: expect.any(String) });
      expect(d.deployable).toMatchObject({ id: expect.any(Number), pipeline: expect.any(Object) });
    }
    const desc = await s.get(`/projects/${WEB}/deployments`, { query: { order_by: 'iid', sort: 'desc' } });
    expect(desc.data.map((d: Loose) => d.iid)).toEqual([...res.data.map((d: Loose) => d.iid)].reverse());
  });

  it('answers one deployment, 404 for unknown ids, 403 to non-members', async () => {
    const [d] = (await s.get(`/projects/${WEB}/deployments`)).data;
    expect((await s.get(`/projects/${WEB}/deployments/${d.id}`)).data).toEqual(d);
    expect((await s.get(`/projects/${WEB}/deployments/5555`)).status).toBe(404);
    expect((await s.get(`/projects/${WEB}/deployments`, { as: 'eve' })).status).toBe(403);
  });
});

describe('the fake runner', () => {
  it('moves jobs created -> pending -> running -> success and merges what waits for the pipeline', async () => {
    const mwps = (await s.all(`/projects/${WEB}/merge_requests`)).find((m) => m.merge_when_pipeline_succeeds);
    const pending = (await s.all(`/projects/${WEB}/jobs`)).find((j) => j.status === 'pending');
    s.sim().tick();
    expect((await s.get(`/projects/${WEB}/jobs/${pending.id}`)).data.status).toBe('running');
    s.sim().tick();
    expect((await s.get(`/projects/${WEB}/jobs/${pending.id}`)).data.status).toMatch(/success|failed/);
    for (let i = 0; i < 4; i++) await s.post('/__sim/tick');
    const merged = await s.get(`/projects/${WEB}/merge_requests/${mwps.iid}`);
    expect(merged.data).toMatchObject({ state: 'merged', merge_when_pipeline_succeeds: false });
    expect(merged.data.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('adds new activity on every tick', async () => {
    const before = (await s.get(`/projects/${WEB}/events`)).headers.get('x-total');
    s.sim().tick();
    s.sim().tick();
    const after = await s.get(`/projects/${WEB}/events`, { query: { sort: 'desc' } });
    expect(Number(after.headers.get('x-total'))).toBeGreaterThan(Number(before));
    const kinds = after.data.slice(0, 6).map((e: Loose) => e.action_name);
    expect(kinds).toContain('pushed to');
    expect(kinds).toContain('commented on');
  });
});
