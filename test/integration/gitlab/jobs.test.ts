import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../../src/gitlab/errors.js';
import { JobSchema } from '../../../src/gitlab/schemas.js';
import { example } from './support/examples.js';
import { expectRequest, type Harness, startHarness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.server.reset();
});

const P = '/projects/group%2Fsub%2Fapp';

describe('jobs', () => {
  it('lists a project’s jobs with scope[] and paging, and reads the page headers', async () => {
    const body = example('jobs/01-get-list-project-jobs');
    h.server.enqueue({ body, headers: { 'x-page': '2', 'x-per-page': '2', 'x-next-page': '3', 'x-prev-page': '1' } });
    const page = await h.client.jobs.list('group/sub/app', { scope: ['failed', 'manual'], page: 2, per_page: 2 });
    expectRequest(h.only(), {
      method: 'GET',
      path: `${P}/jobs`,
      query: { 'scope[]': ['failed', 'manual'], page: '2', per_page: '2' },
    });
    expect(page).toMatchObject({ page: 2, perPage: 2, nextPage: 3, prevPage: 1, total: null });
    expect(page.items).toEqual(JobSchema.array().parse(body));
    expect(page.items.map((job) => job.id)).toEqual([7, 6]);
  });

  it('sends a single scope as scope[] too', async () => {
    h.server.enqueue({ body: [] });
    await h.client.jobs.list(5, { scope: 'failed' });
    expectRequest(h.only(), { method: 'GET', path: '/projects/5/jobs', query: { 'scope[]': ['failed'] } });
  });

  it('lists the jobs of one pipeline', async () => {
    h.server.enqueue({ body: example('jobs/02-get-list-pipeline-jobs') });
    const page = await h.client.jobs.listForPipeline('group/sub/app', 6, { scope: ['pending', 'running'] });
    expectRequest(h.only(), {
      method: 'GET',
      path: `${P}/pipelines/6/jobs`,
      query: { 'scope[]': ['pending', 'running'] },
    });
    expect(page.items[0]?.pipeline?.id).toBe(6);
  });

  it('gets one job', async () => {
    h.server.enqueue({ body: example('jobs/03-get-single-job') });
    const job = await h.client.jobs.get('group/sub/app', 8);
    expectRequest(h.only(), { method: 'GET', path: `${P}/jobs/8` });
    expect(job).toMatchObject({ id: 8, name: 'rubocop', status: 'failed', artifacts_file: null });
    expect(job.user?.username).toBe('root');
  });

  it.each([
    ['cancel', 'cancel', 'jobs/04-post-cancel-job', 201, 'canceled'],
    ['retry', 'retry', 'jobs/05-post-retry-job', 201, 'pending'],
    ['erase', 'erase', 'jobs/06-post-erase-job', 201, 'failed'],
    ['keepArtifacts', 'artifacts/keep', 'jobs/07-post-keep-artifacts', 200, 'failed'],
    ['play', 'play', 'jobs/08-post-play-job', 200, 'started'],
  ] as const)('%s POSTs …/jobs/:id/%s and parses the job', async (method, route, file, status, jobStatus) => {
    h.server.enqueue({ status, body: example(file) });
    const job = await h.client.jobs[method]('group/sub/app', 69);
    expectRequest(h.only(), { method: 'POST', path: `${P}/jobs/69/${route}` });
    expect(job).toMatchObject({ id: 69, status: jobStatus });
  });

  it('says when a job cannot be retried (403)', async () => {
    h.server.enqueue({ status: 403, body: { message: '403 Forbidden  - Job is not retryable' } });
    await expect(h.client.jobs.retry(1, 2)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('reads the trace as text', async () => {
    const log = 'Running with gitlab-runner\n$ make test\nok\n';
    h.server.enqueue({
      body: log,
      headers: { 'content-type': 'text/plain', 'content-disposition': 'infile; filename="8.log"' },
    });
    const trace = await h.client.jobs.trace('group/sub/app', 8);
    expectRequest(h.only(), { method: 'GET', path: `${P}/jobs/8/trace` });
    expect(trace).toBe(log);
  });

  it('downloads artifacts as a stream with file name, size and type', async () => {
    const bytes = Buffer.from('PK\u0003\u0004 fake zip');
    h.server.enqueue({
      body: bytes,
      headers: {
        'content-type': 'application/zip',
        'content-length': String(bytes.length),
        'content-disposition': 'attachment; filename="artifacts.zip"',
      },
    });
    const artifacts = await h.client.jobs.artifacts('group/sub/app', 8);
    expectRequest(h.only(), { method: 'GET', path: `${P}/jobs/8/artifacts` });
    expect(artifacts).toMatchObject({ fileName: 'artifacts.zip', size: bytes.length, contentType: 'application/zip' });
    expect(await text(artifacts.stream)).toBe(bytes.toString());
  });

  it('lets the caller take only the headers of a download and close it at once', async () => {
    h.server.enqueue({
      body: Buffer.alloc(256 * 1024, 1),
      headers: { 'content-length': String(256 * 1024), 'content-disposition': 'attachment; filename="big.zip"' },
    });
    const artifacts = await h.client.jobs.artifacts(1, 8);
    artifacts.stream.destroy();
    expect(artifacts).toMatchObject({ fileName: 'big.zip', size: 256 * 1024 });
    h.server.enqueue({ body: example('jobs/03-get-single-job') });
    await expect(h.client.jobs.get(1, 8)).resolves.toMatchObject({ id: 8 });
  });

  it('downloads the artifacts of the latest job by ref and job name', async () => {
    h.server.enqueue({ body: 'zip', headers: { 'content-length': '3' } });
    const artifacts = await h.client.jobs.artifactsByRef('group/sub/app', 'release/1.2', 'build linux');
    expectRequest(h.only(), {
      method: 'GET',
      path: `${P}/jobs/artifacts/release%2F1.2/download`,
      query: { job: 'build linux' },
    });
    expect(artifacts).toMatchObject({ fileName: null, size: 3 });
    expect(await text(artifacts.stream)).toBe('zip');
  });
});
