import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, RateLimitedError, ResponseShapeError, UnavailableError } from '../../../src/gitlab/errors.js';
import { listAll } from '../../../src/gitlab/paginate.js';
import { example } from './support/examples.js';
import { expectRequest, type Harness, startHarness, TOKEN } from './support/harness.js';
import { type RecordingServer, startRecordingServer } from './support/recording-server.js';

const issues = example('issues/03-get-list-project-issues') as Record<string, unknown>[];
const issueNumbered = (id: number) => ({ ...issues[0], id, iid: id });
const pipelineBasic = (example('pipelines/01-get-list-pipelines') as unknown[])[0];

let h: Harness;
let other: RecordingServer | undefined;

afterEach(async () => {
  await h?.close();
  await other?.close();
  other = undefined;
});

describe('pagination over HTTP', () => {
  it('follows three pages with listAll, by Link on one page and X-Next-Page on the next, never needing X-Total', async () => {
    h = await startHarness();
    h.server.setHandler((request) => {
      const page = Number(request.query.page);
      const base = `${h.server.url}/api/v4/projects/demo%2Fweb/issues?per_page=1`;
      const headers: Record<string, string> = { 'x-page': String(page), 'x-per-page': '1' };
      if (page === 1) headers.link = `<${base}&page=2>; rel="next", <${base}&page=1>; rel="first"`;
      if (page === 2) headers['x-next-page'] = '3';
      if (page === 3) headers['x-next-page'] = '';
      return { body: [issueNumbered(page * 10)], headers };
    });

    const result = await listAll((page) => h.client.issues.listForProject('demo/web', { page, per_page: 1 }));

    expect(result.items.map((issue) => issue.id)).toEqual([10, 20, 30]);
    expect(result.truncated).toBe(false);
    expect(h.server.requests.map((request) => request.query)).toEqual([
      { page: '1', per_page: '1' },
      { page: '2', per_page: '1' },
      { page: '3', per_page: '1' },
    ]);
    for (const request of h.server.requests) expect(request.path).toBe('/api/v4/projects/demo%2Fweb/issues');
  });

  it('stops at the page cap and says so', async () => {
    h = await startHarness();
    h.server.setHandler((request) => ({
      body: [issueNumbered(Number(request.query.page))],
      headers: { 'x-next-page': String(Number(request.query.page) + 1) },
    }));
    const result = await listAll((page) => h.client.issues.listAll({ page }), { maxPages: 2 });
    expect(result).toMatchObject({ truncated: true, pagesFetched: 2 });
    expect(h.server.requests).toHaveLength(2);
  });
});

describe('retries', () => {
  it('honours Retry-After: 1 on a 429 and then succeeds', async () => {
    h = await startHarness();
    h.server.enqueue(
      { status: 429, headers: { 'retry-after': '1' }, body: { message: '429 Too Many Requests' } },
      { body: example('jobs/03-get-single-job') },
    );
    const job = await h.client.jobs.get('demo/web', 8);
    expect(job.id).toBe(8);
    expect(h.delays).toEqual([1000]);
    expect(h.server.requests).toHaveLength(2);
  });

  it('spends each wait through the injected sleep before the next attempt', async () => {
    h = await startHarness({ retry: { baseDelayMs: 100 }, random: () => 1 });
    h.server.enqueue({ status: 503 }, { status: 429, headers: { 'retry-after': '3' } }, { body: [pipelineBasic] });
    await h.client.pipelines.list(1);
    expect(h.slept).toEqual([100, 3000]);
    expect(h.slept).toEqual(h.delays);
  });

  it('reads an HTTP-date Retry-After against the injected clock', async () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    h = await startHarness({ now: () => now });
    h.server.enqueue(
      { status: 503, headers: { 'retry-after': 'Sun, 01 Mar 2026 12:00:02 GMT' } },
      { body: example('jobs/03-get-single-job') },
    );
    await h.client.jobs.get(1, 8);
    expect(h.delays).toEqual([2000]);
  });

  it('retries a write on 429, and only once it is allowed to', async () => {
    h = await startHarness();
    h.server.enqueue(
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 201, body: example('jobs/05-post-retry-job') },
    );
    const job = await h.client.jobs.retry(1, 69);
    expect(job.status).toBe('pending');
    expect(h.delays).toEqual([2000]);
    expect(h.server.requests.map((request) => request.method)).toEqual(['POST', 'POST']);
  });

  it('fails at once with the rate-limited error when Retry-After exceeds the remaining budget', async () => {
    h = await startHarness({ retry: { maxTotalMs: 15_000 } });
    h.server.enqueue({ status: 429, headers: { 'retry-after': '60' }, body: { message: 'slow down' } });
    const error = await h.client.jobs.get(1, 8).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBe(60);
    // One request: the server's wait was not taken, which a view words differently from "retried and gave up".
    expect((error as RateLimitedError).attempts).toBe(1);
    expect((error as RateLimitedError).serverMessage).toBe('slow down');
    expect(h.delays).toEqual([]);
    expect(h.server.requests).toHaveLength(1);
  });

  it('gives up after the retry limit with the rate-limited error', async () => {
    h = await startHarness({ retry: { limit: 2 } });
    h.server.setHandler(() => ({ status: 429, headers: { 'retry-after': '1' } }));
    const error = await h.client.todos.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ attempts: 3, retryAfterSeconds: 1 });
    expect(h.server.requests).toHaveLength(3);
    expect(h.delays).toEqual([1000, 1000]);
  });

  it('retries a read on 502, 503 and 504 with exponential backoff and jitter, then succeeds', async () => {
    h = await startHarness({ retry: { baseDelayMs: 100, maxDelayMs: 300 }, random: () => 1 });
    h.server.enqueue({ status: 502 }, { status: 503 }, { status: 504 }, { body: [pipelineBasic] });
    const page = await h.client.pipelines.list(1);
    expect(page.items).toHaveLength(1);
    expect(h.server.requests).toHaveLength(4);
    // cap = min(maxDelay, base * 2^n); the wait is drawn from [cap/2, cap]: random() = 1 gives the cap.
    expect(h.delays).toEqual([100, 200, 300]);
  });

  it('draws the jittered wait from the lower half of the step when random() is 0', async () => {
    h = await startHarness({ retry: { baseDelayMs: 100 }, random: () => 0 });
    h.server.enqueue({ status: 503 }, { status: 503 }, { body: [pipelineBasic] });
    await h.client.pipelines.list(1);
    expect(h.delays).toEqual([50, 100]);
  });

  it('retries a read after a network error', async () => {
    h = await startHarness();
    h.server.enqueue({ destroy: true }, { body: example('jobs/03-get-single-job') });
    await expect(h.client.jobs.get(1, 8)).resolves.toMatchObject({ id: 8 });
    expect(h.server.requests).toHaveLength(2);
  });

  it('does not retry a write on a 502: exactly one request is seen', async () => {
    h = await startHarness();
    h.server.setHandler(() => ({ status: 502, body: '<html>Bad Gateway</html>' }));
    const error = await h.client.pipelines.create(1, { ref: 'main' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).status).toBe(502);
    expect((error as UnavailableError).serverMessage).toBeNull();
    expect(h.server.requests).toHaveLength(1);
    expect(h.delays).toEqual([]);
  });

  it('does not retry a write after a network error', async () => {
    h = await startHarness();
    h.server.setHandler(() => ({ destroy: true }));
    await expect(h.client.jobs.cancel(1, 2)).rejects.toBeInstanceOf(UnavailableError);
    expect(h.server.requests).toHaveLength(1);
  });

  it('does not retry a read on a plain 500 or any 4xx', async () => {
    h = await startHarness();
    h.server.enqueue({ status: 500 });
    await expect(h.client.jobs.get(1, 8)).rejects.toBeInstanceOf(UnavailableError);
    h.server.enqueue({ status: 404, body: { message: '404 Job Not Found' } });
    await expect(h.client.jobs.get(1, 8)).rejects.toBeInstanceOf(NotFoundError);
    expect(h.server.requests).toHaveLength(2);
  });

  it('stops retrying when the next wait would exceed the total budget', async () => {
    h = await startHarness({ retry: { maxTotalMs: 1000, baseDelayMs: 2000 } });
    h.server.setHandler(() => ({ status: 503 }));
    await expect(h.client.jobs.get(1, 8)).rejects.toBeInstanceOf(UnavailableError);
    expect(h.server.requests).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('fails with the unavailable error within the configured timeout when the server never answers', async () => {
    h = await startHarness({ timeoutMs: 150, retry: { limit: 0 } });
    h.server.setHandler(() => ({ hang: true }));
    const error = await h.client.jobs.get('demo/web', 8).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ status: null, method: 'GET', path: '/projects/demo%2Fweb/jobs/8' });
    expect((error as Error).message).toBe('GitLab did not answer GET /projects/demo%2Fweb/jobs/8 within 150 ms');
    expect(h.server.requests).toHaveLength(1);
  });

  it('retries a read that timed out, within the retry limit', async () => {
    h = await startHarness({ timeoutMs: 100, retry: { limit: 2 } });
    h.server.setHandler(() => ({ hang: true }));
    await expect(h.client.jobs.get(1, 8)).rejects.toBeInstanceOf(UnavailableError);
    expect(h.server.requests).toHaveLength(3);
    expect(h.delays).toHaveLength(2);
  });

  it('gives a retry only what is left of the total budget', async () => {
    // The clock moves only when the server sees a request: the first answer costs 1200 ms of a 2000 ms budget.
    let clock = 0;
    h = await startHarness({
      timeoutMs: 1000,
      retry: { limit: 1, maxTotalMs: 2000, baseDelayMs: 100 },
      now: () => clock,
    });
    h.server.setHandler(() => {
      clock += 1200;
      return h.server.requests.length === 1 ? { status: 503 } : { hang: true };
    });
    const error = await h.client.jobs.get(1, 8).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    // 2000 - 1200 spent - 75 waited (the 100 ms step with random() = 0.5) leaves 725 ms for the second attempt.
    expect(h.delays).toEqual([75]);
    expect((error as Error).message).toBe('GitLab did not answer GET /projects/1/jobs/8 within 725 ms');
    expect(h.server.requests).toHaveLength(2);
  });

  it('never gives one attempt more than the whole budget', async () => {
    h = await startHarness({ timeoutMs: 5000, retry: { limit: 0, maxTotalMs: 150 } });
    h.server.setHandler(() => ({ hang: true }));
    const error = await h.client.jobs.get(1, 8).catch((e: unknown) => e);
    expect((error as Error).message).toBe('GitLab did not answer GET /projects/1/jobs/8 within 150 ms');
  });

  it('bounds the wait for the headers of a download too, and retries it as a read', async () => {
    h = await startHarness({ timeoutMs: 100, retry: { limit: 1 } });
    h.server.setHandler(() => ({ hang: true }));
    const error = await h.client.jobs.artifacts(1, 8).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as Error).message).toBe('GitLab did not answer GET /projects/1/jobs/8/artifacts within 100 ms');
    expect(h.server.requests).toHaveLength(2);
  });
});

describe('the wire', () => {
  it('sends reads with query parameters and no body, and writes as form fields', async () => {
    h = await startHarness();
    h.server.enqueue(
      { body: [pipelineBasic] },
      { status: 201, body: example('pipeline_schedules/03-post-create-schedule') },
    );
    await h.client.pipelines.list('a/b', { yaml_errors: true, ref: 'feature/x', name: undefined });
    await h.client.schedules.create('a/b', {
      description: 'Build packages',
      ref: 'main',
      cron: '0 1 * * 5',
      active: false,
    });
    const [read, write] = h.server.requests;
    expectRequest(read!, {
      method: 'GET',
      path: '/projects/a%2Fb/pipelines',
      query: { yaml_errors: 'true', ref: 'feature/x' },
    });
    expectRequest(write!, {
      method: 'POST',
      path: '/projects/a%2Fb/pipeline_schedules',
      form: { description: 'Build packages', ref: 'main', cron: '0 1 * * 5', active: 'false' },
    });
  });

  it('exposes the RateLimit headers on each result and as lastRateLimit', async () => {
    h = await startHarness();
    expect(h.transport.lastRateLimit).toBeNull();
    h.server.enqueue({
      body: [],
      headers: {
        'ratelimit-limit': '600',
        'ratelimit-remaining': '17',
        'ratelimit-reset': '1767225600',
        'ratelimit-observed': '583',
      },
    });
    const response = await h.transport.request({ method: 'GET', path: 'todos', token: TOKEN });
    const expected = { limit: 600, remaining: 17, reset: 1767225600, observed: 583 };
    expect(response.rateLimit).toEqual(expected);
    expect(h.transport.lastRateLimit).toEqual(expected);

    h.server.enqueue({ body: [] });
    const plain = await h.transport.request({ method: 'GET', path: 'todos', token: TOKEN });
    expect(plain.rateLimit).toBeNull();
    expect(h.transport.lastRateLimit).toEqual(expected);
  });

  it('turns a 2xx body that is not JSON into a response-shape error', async () => {
    h = await startHarness();
    h.server.enqueue({ body: '<html>login</html>' });
    const error = await h.client.jobs.get(1, 8).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as Error).message).toContain('the body is not JSON');
  });

  it('turns a body the schema rejects into a response-shape error naming the field', async () => {
    h = await startHarness();
    h.server.enqueue({ body: { ...(example('jobs/03-get-single-job') as object), id: 'eight' } });
    const error = await h.client.jobs.get(1, 8).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error).toMatchObject({ status: 200, path: '/projects/1/jobs/8' });
    expect((error as ResponseShapeError).issues[0]).toMatch(/^id: /);
  });

  it('keeps the token on a same-origin redirect and drops it on a redirect to another origin', async () => {
    h = await startHarness();
    other = await startRecordingServer();
    other.enqueue({ body: 'zip bytes', headers: { 'content-length': '9', 'content-type': 'application/zip' } });
    h.server.enqueue(
      { status: 302, headers: { location: '/api/v4/moved' } },
      { status: 302, headers: { location: `${other.url}/bucket/artifacts.zip` } },
    );
    const artifacts = await h.client.jobs.artifacts(1, 8);
    artifacts.stream.destroy();
    expect(h.server.requests.map((request) => request.headers['private-token'])).toEqual([TOKEN, TOKEN]);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]?.headers['private-token']).toBeUndefined();
    expect(artifacts.size).toBe(9);
  });

  it('writes one debug line per attempt with method, path, status and duration', async () => {
    h = await startHarness();
    h.server.enqueue({ status: 503 }, { body: example('jobs/03-get-single-job') });
    await h.client.jobs.get('demo/web', 8);
    const lines = h.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((line) => line.msg === 'gitlab request');
    expect(requests).toHaveLength(2);
    expect(requests.map((line) => line.status)).toEqual([503, 200]);
    for (const line of requests) {
      expect(line).toMatchObject({ level: 'debug', method: 'GET', path: '/projects/demo%2Fweb/jobs/8' });
      expect(typeof line.ms).toBe('number');
    }
    expect(lines.some((line) => line.msg === 'gitlab retry')).toBe(true);
  });
});

describe('work turns', () => {
  it('hands an answer to its caller only after the turn it waited for', async () => {
    const turns: (() => void)[] = [];
    h = await startHarness({ nextTurn: () => new Promise<void>((resolve) => turns.push(resolve)) });
    h.server.enqueue({ body: issueNumbered(7) });

    let answered = false;
    const call = h.client.issues.get('demo/web', 7).then((issue) => {
      answered = true;
      return issue;
    });
    await expect.poll(() => turns.length).toBe(1); // the answer is in, waiting for its turn
    expect(answered).toBe(false);
    turns[0]?.();

    expect((await call).id).toBe(7);
    expect(h.server.requests).toHaveLength(1);
  });

  it('tells the turn how many other calls are still outstanding, so that a lone answer need not wait', async () => {
    const told: number[] = [];
    h = await startHarness({
      nextTurn: async (others: number) => {
        told.push(others);
      },
    });
    h.server.enqueue({ body: issueNumbered(7) });
    h.server.enqueue({ body: issueNumbered(8) });
    await Promise.all([h.client.issues.get('demo/web', 7), h.client.issues.get('demo/web', 8)]);
    expect(told).toEqual([1, 0]);
    await h.client.issues.get('demo/web', 7).catch(() => null);
    expect(told.at(-1)).toBe(0);
  });

  it('decodes a JSON answer only once its turn has come: a body that is not JSON fails then, not before', async () => {
    const turns: (() => void)[] = [];
    h = await startHarness({ nextTurn: () => new Promise<void>((resolve) => turns.push(resolve)) });
    h.server.enqueue({ body: '<html>login</html>' });

    let failed = false;
    const call = h.client.issues.get('demo/web', 7).catch((e: unknown) => {
      failed = true;
      return e;
    });
    await expect.poll(() => turns.length).toBe(1); // the bytes are in, waiting for their turn
    expect(failed).toBe(false);
    turns[0]?.();

    const error = await call;
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error).toMatchObject({ status: 200, path: '/projects/demo%2Fweb/issues/7' });
    expect((error as Error).message).toContain('the body is not JSON');
  });
});
