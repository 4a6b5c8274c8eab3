import { describe, expect, it } from 'vitest';
import { type Loose, SECRET, useSimulator, WEB } from './support.js';

const s = useSimulator();

async function jobs(query = {}) {
  return s.all(`/projects/${WEB}/jobs`, { as: 'root', query });
}

async function jobWith(pred: (j: Loose) => boolean) {
  const found = (await jobs()).find(pred);
  if (!found) throw new Error('no such job in the demo data set');
  return found;
}

describe('GET /projects/:id/jobs', () => {
  it('lists jobs newest first with pagination headers', async () => {
    const res = await s.get(`/projects/${WEB}/jobs`);
    expect(res.status).toBe(200);
    expect(res.data).toHaveLength(20);
    expect(res.headers.get('x-total')).toBe(String((await jobs()).length));
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.headers.get('x-next-page')).toBe('2');
    expect(res.headers.get('x-prev-page')).toBe('');
    expect(res.headers.get('link')).toContain('rel="next"');
    const ids = res.data.map((j: Loose) => j.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('accepts a numeric project id like the encoded path', async () => {
    const byPath = await s.get(`/projects/${WEB}/jobs`);
    const project = await s.get(`/projects/${WEB}`);
    const byId = await s.get(`/projects/${project.data.id}/jobs`);
    expect(byId.data).toEqual(byPath.data);
  });

  it('filters by scope[] (several values) and by a single scope', async () => {
    const failedOrManual = await jobs({ scope: ['failed', 'manual'] });
    expect(failedOrManual.length).toBeGreaterThan(1);
    expect(new Set(failedOrManual.map((j) => j.status))).toEqual(new Set(['failed', 'manual']));
    const single = await s.get(`/projects/${WEB}/jobs`, { query: { scope: 'running' } });
    expect(single.data.every((j: Loose) => j.status === 'running')).toBe(true);
    expect(single.data.length).toBeGreaterThan(0);
  });

  it('refuses an unknown scope with 400', async () => {
    const res = await s.get(`/projects/${WEB}/jobs`, { query: { scope: ['failed', 'exploded'] } });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ message: 'Scope contains invalid value(s)' });
  });

  it('answers 404 for a private project to a non-member and for an unknown project', async () => {
    const eve = await s.get(`/projects/${SECRET}/jobs`, { as: 'eve' });
    expect(eve.status).toBe(404);
    expect(eve.data).toEqual({ message: '404 Project Not Found' });
    expect((await s.get('/projects/demo%2Fnope/jobs')).status).toBe(404);
    expect((await s.get(`/projects/${SECRET}/jobs`, { as: 'alice' })).status).toBe(200);
  });

  it('gives jobs the 9.5 shape: pipeline always, artifacts_file only with artifacts', async () => {
    for (const j of await jobs()) {
      expect(j.pipeline).toMatchObject({ id: expect.any(Number), status: expect.any(String) });
      // The demo CI keeps artifacts of compile and unit-tests on the default branch only.
      expect('artifacts_file' in j).toBe(
        j.status === 'success' && j.ref === 'main' && ['compile', 'unit-tests'].includes(j.name),
      );
    }
  });
});

describe('GET /projects/:id/pipelines/:pipeline_id/jobs', () => {
  it("lists one pipeline's jobs and filters them by scope", async () => {
    const failed = await jobWith((j) => j.status === 'failed');
    const res = await s.get(`/projects/${WEB}/pipelines/${failed.pipeline.id}/jobs`);
    expect(res.status).toBe(200);
    expect(res.data.every((j: Loose) => j.pipeline.id === failed.pipeline.id)).toBe(true);
    const onlyFailed = await s.get(`/projects/${WEB}/pipelines/${failed.pipeline.id}/jobs`, {
      query: { scope: ['failed'] },
    });
    expect(onlyFailed.data.map((j: Loose) => j.id)).toEqual([failed.id]);
    expect((await s.get(`/projects/${WEB}/pipelines/99999/jobs`)).status).toBe(404);
    expect(
      (await s.get(`/projects/${WEB}/pipelines/${failed.pipeline.id}/jobs`, { query: { scope: 'nope' } })).status,
    ).toBe(400);
  });
});

describe('GET /projects/:id/jobs/:job_id, trace and artifacts', () => {
  it('answers one job, 404 for an unknown or foreign one', async () => {
    const j = await jobWith((x) => x.status === 'manual');
    const res = await s.get(`/projects/${WEB}/jobs/${j.id}`);
    expect(res.status).toBe(200);
    expect(res.data).toEqual(j);
    expect((await s.get(`/projects/${WEB}/jobs/999999`)).status).toBe(404);
    const secretJob = (await s.get(`/projects/${SECRET}/jobs`, { as: 'root' })).data[0];
    expect((await s.get(`/projects/${WEB}/jobs/${secretJob.id}`)).status).toBe(404);
  });

  it('serves the trace as text/plain with realistic output', async () => {
    const failed = await jobWith((x) => x.status === 'failed');
    const res = await s.get(`/projects/${WEB}/jobs/${failed.id}/trace`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.headers.get('content-disposition')).toBe(`infile; filename="${failed.id}.log"`);
    expect(res.text.split('\n').length).toBeGreaterThan(30);
    expect(res.text).toContain('ERROR: Job failed: exit code 1');
    const ok = await jobWith((x) => x.status === 'success' && x.artifacts_file);
    expect((await s.get(`/projects/${WEB}/jobs/${ok.id}/trace`)).text).toContain('Job succeeded');
    const created = await jobWith((x) => x.status === 'created');
    expect((await s.get(`/projects/${WEB}/jobs/${created.id}/trace`)).text).toBe('');
  });

  it('serves artifacts as a zip whose size matches artifacts_file, 404 without artifacts', async () => {
    const j = await jobWith((x) => x.status === 'success' && x.artifacts_file);
    const res = await s.get(`/projects/${WEB}/jobs/${j.id}/artifacts`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="artifacts.zip"');
    expect(Number(res.headers.get('content-length'))).toBe(j.artifacts_file.size);
    expect(res.bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    const none = await jobWith((x) => !x.artifacts_file);
    expect((await s.get(`/projects/${WEB}/jobs/${none.id}/artifacts`)).status).toBe(404);
  });

  it('downloads the artifacts of the latest successful pipeline on a ref by job name', async () => {
    const res = await s.get(`/projects/${WEB}/jobs/artifacts/main/download`, { query: { job: 'compile' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect((await s.get(`/projects/${WEB}/jobs/artifacts/main/download`, { query: { job: 'lint' } })).status).toBe(404);
    expect(
      (await s.get(`/projects/${WEB}/jobs/artifacts/no-branch/download`, { query: { job: 'compile' } })).status,
    ).toBe(404);
    const missing = await s.get(`/projects/${WEB}/jobs/artifacts/main/download`);
    expect(missing.status).toBe(400);
    expect(missing.data).toEqual({ error: 'job is missing' });
  });
});

describe('job actions', () => {
  it('cancels a running job (201) and leaves the pipeline canceled or running', async () => {
    const running = await jobWith((x) => x.status === 'running');
    const res = await s.post(`/projects/${WEB}/jobs/${running.id}/cancel`);
    expect(res.status).toBe(201);
    expect(res.data.status).toBe('canceled');
    expect(res.data.finished_at).toBe('2026-03-02T10:00:00.000Z');
    const finished = await jobWith((x) => x.status === 'success');
    const noop = await s.post(`/projects/${WEB}/jobs/${finished.id}/cancel`);
    expect(noop.status).toBe(201);
    expect(noop.data.status).toBe('success');
  });

  it('retries a finished job as a new pending job without times (201)', async () => {
    const failed = await jobWith((x) => x.status === 'failed');
    const res = await s.post(`/projects/${WEB}/jobs/${failed.id}/retry`, { as: 'bob' });
    expect(res.status).toBe(201);
    expect(res.data.id).not.toBe(failed.id);
    expect(res.data).toMatchObject({ name: failed.name, status: 'pending', started_at: null, finished_at: null });
    expect(res.data.user.username).toBe('bob');
    const pipeline = await s.get(`/projects/${WEB}/pipelines/${failed.pipeline.id}`);
    expect(pipeline.data.status).toBe('running');
  });

  it('refuses to retry a job that has not finished (403)', async () => {
    const pending = await jobWith((x) => x.status === 'pending');
    const res = await s.post(`/projects/${WEB}/jobs/${pending.id}/retry`);
    expect(res.status).toBe(403);
    expect(res.data).toEqual({ message: '403 Forbidden - Job is not retryable' });
  });

  it('plays a manual job (200) and refuses a job that is not manual (400)', async () => {
    const manual = await jobWith((x) => x.status === 'manual' && x.name === 'deploy:production');
    const res = await s.post(`/projects/${WEB}/jobs/${manual.id}/play`);
    expect(res.status).toBe(200);
    expect(res.data.status).toBe('pending');
    const again = await s.post(`/projects/${WEB}/jobs/${manual.id}/play`);
    expect(again.status).toBe(400);
    expect(again.data).toEqual({ message: '400 (Bad request) "Unplayable Job" not given' });
  });

  it('erases a finished job (201): artifacts and trace are gone; unfinished or already erased: 403', async () => {
    const j = await jobWith((x) => x.status === 'success' && x.artifacts_file);
    const res = await s.post(`/projects/${WEB}/jobs/${j.id}/erase`);
    expect(res.status).toBe(201);
    expect('artifacts_file' in res.data).toBe(false);
    expect((await s.get(`/projects/${WEB}/jobs/${j.id}/trace`)).text).toBe('');
    expect((await s.get(`/projects/${WEB}/jobs/${j.id}/artifacts`)).status).toBe(404);
    expect((await s.post(`/projects/${WEB}/jobs/${j.id}/erase`)).status).toBe(403);
    const running = await jobWith((x) => x.status === 'running');
    const unfinished = await s.post(`/projects/${WEB}/jobs/${running.id}/erase`);
    expect(unfinished.status).toBe(403);
    expect(unfinished.data).toEqual({ message: '403 Forbidden - Job is not erasable!' });
  });

  it('keeps artifacts (200), 404 when the job has none', async () => {
    const j = await jobWith((x) => x.status === 'success' && x.artifacts_file);
    expect((await s.post(`/projects/${WEB}/jobs/${j.id}/artifacts/keep`)).status).toBe(200);
    const none = await jobWith((x) => !x.artifacts_file);
    expect((await s.post(`/projects/${WEB}/jobs/${none.id}/artifacts/keep`)).status).toBe(404);
  });

  it('needs developer access: a non-member gets 403 on a public project, 404 on a private one', async () => {
    const running = await jobWith((x) => x.status === 'running');
    for (const action of ['cancel', 'retry', 'play', 'erase', 'artifacts/keep']) {
      const res = await s.post(`/projects/${WEB}/jobs/${running.id}/${action}`, { as: 'eve' });
      expect(res.status, action).toBe(403);
    }
    const secretJob = (await s.get(`/projects/${SECRET}/jobs`, { as: 'root' })).data[0];
    expect((await s.post(`/projects/${SECRET}/jobs/${secretJob.id}/retry`, { as: 'eve' })).status).toBe(404);
    expect((await s.post(`/projects/${WEB}/jobs/424242/cancel`)).status).toBe(404);
  });
});
