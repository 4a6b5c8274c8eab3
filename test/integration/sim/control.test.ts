import { describe, expect, it } from 'vitest';
import { useSimulator, WEB } from './support.js';

const s = useSimulator();

describe('the request log', () => {
  it('records method, encoded path, parsed query and body, status and user, oldest first, without control calls', async () => {
    await s.get(`/projects/${WEB}/jobs`, { query: { scope: ['failed', 'manual'] } });
    await s.post('/todos/mark_as_done', { as: 'bob', form: { a: '1' } });
    await s.get('/todos', { as: null });
    await s.get('/__sim/requests');
    const log = await s.get('/__sim/requests');
    expect(log.status).toBe(200);
    expect(log.data).toHaveLength(3);
    const [a, b, c] = log.data;
    expect(a).toMatchObject({
      method: 'GET',
      path: '/api/v4/projects/demo%2Fweb/jobs',
      status: 200,
      user: 'alice',
      body: null,
    });
    expect(a.query.scope).toEqual(['failed', 'manual']);
    expect(b).toMatchObject({
      method: 'POST',
      path: '/api/v4/todos/mark_as_done',
      status: 204,
      user: 'bob',
      body: { a: '1' },
    });
    expect(c).toMatchObject({ method: 'GET', status: 401, user: null });
    expect(a.seq).toBeLessThan(b.seq);
  });

  it('is the same list that requests() gives in-process', async () => {
    await s.get('/user');
    expect(
      s
        .sim()
        .requests()
        .map((e) => e.path),
    ).toEqual(['/api/v4/user']);
  });

  it('parses JSON bodies and keeps a single name=a as a string', async () => {
    await s.get(`/projects/${WEB}/jobs`, { query: { scope: 'failed' } });
    await s.post(`/projects/${WEB}/issues`, { json: { title: 'From JSON', labels: ['bug', 'ux'] } });
    const [first, second] = s.sim().requests();
    expect(first?.query).toEqual({ scope: 'failed' });
    expect(second?.body).toEqual({ title: 'From JSON', labels: ['bug', 'ux'] });
  });
});

describe('reset', () => {
  it('restores the data set and clears the log', async () => {
    const before = await s.all(`/projects/${WEB}/issues`);
    const created = await s.post(`/projects/${WEB}/issues`, { as: 'root', form: { title: 'temporary' } });
    expect(created.status).toBe(201);
    expect(await s.all(`/projects/${WEB}/issues`)).toHaveLength(before.length + 1);
    const res = await s.post('/__sim/reset');
    expect(res.status).toBe(200);
    expect(await s.all(`/projects/${WEB}/issues`)).toHaveLength(before.length);
    expect((await s.get('/__sim/requests')).data).toHaveLength(1);
  });
});

describe('faults', () => {
  it('answers 429 with Retry-After while set, and normally once cleared with {}', async () => {
    const set = await s.post('/__sim/faults', { json: { errorRate: 1, errorStatus: 429, retryAfter: 1 } });
    expect(set.status).toBe(200);
    const limited = await s.get('/todos');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.data).toEqual({ message: '429 Too Many Requests' });
    await s.post('/__sim/faults', { json: {} });
    expect((await s.get('/todos')).status).toBe(200);
    expect(
      s
        .sim()
        .requests()
        .map((e) => e.status),
    ).toEqual([429, 200]);
  });

  it('spreads an error rate evenly over the calls, with the chosen status', async () => {
    s.sim().setFaults({ errorRate: 0.5, errorStatus: 503 });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await s.get('/user')).status);
    expect(statuses).toEqual([200, 503, 200, 503, 200, 503]);
  });

  it('still answers with latency set', async () => {
    s.sim().setFaults({ latencyMs: 5 });
    expect((await s.get('/user')).status).toBe(200);
  });

  it('sends GitLab’s RateLimit-* headers per user and minute with a rate limit set, and none without', async () => {
    expect((await s.get('/user')).headers.get('ratelimit-limit')).toBeNull();
    await s.post('/__sim/faults', { json: { rateLimit: 100 } });
    const first = (await s.get('/user')).headers;
    const second = (await s.get('/user')).headers;
    expect(first.get('ratelimit-limit')).toBe('100');
    expect(Number(first.get('ratelimit-remaining')) - Number(second.get('ratelimit-remaining'))).toBe(1);
    expect(Number(second.get('ratelimit-reset')) % 60).toBe(0);
    expect((await s.post('/__sim/faults', { json: { rateLimit: 0 } })).status).toBe(400);
  });

  it('refuses an error rate outside 0..1', async () => {
    const res = await s.post('/__sim/faults', { json: { errorRate: 2 } });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: 'errorRate is invalid' });
  });

  it('takes several error statuses in turn, with Retry-After on the 429s and 503s', async () => {
    const set = await s.post('/__sim/faults', {
      json: { errorRate: 1, errorStatuses: [500, 429, 503], retryAfter: 2 },
    });
    expect(set.status).toBe(200);
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const r = await s.get('/user');
      answers.push([r.status, r.headers.get('retry-after')]);
    }
    expect(answers).toEqual([
      [500, null],
      [429, '2'],
      [503, '2'],
      [500, null],
    ]);
  });

  it('refuses an empty or out-of-range list of error statuses', async () => {
    for (const errorStatuses of [[], [200], 'x']) {
      const res = await s.post('/__sim/faults', { json: { errorRate: 1, errorStatuses } });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: 'errorStatuses is invalid' });
    }
    expect((await s.get('/user')).status).toBe(200);
  });

  it('answers pages of pageSize items whatever per_page asks, as a server ignoring it would', async () => {
    s.sim().setFaults({ pageSize: 3 });
    const page = await s.get(`/projects/${WEB}/jobs`, { query: { per_page: '1' } });
    expect(page.data).toHaveLength(3);
    expect(page.headers.get('x-per-page')).toBe('3');
  });

  it('answers normally with latency spikes set', async () => {
    s.sim().setFaults({ spikeRate: 0.5, spikeMs: 5 });
    for (let i = 0; i < 2; i++) expect((await s.get('/user')).status).toBe(200);
  });

  it('is cleared by a reset', async () => {
    s.sim().setFaults({ errorRate: 1, errorStatus: 500 });
    await s.post('/__sim/reset');
    expect((await s.get('/user')).status).toBe(200);
  });
});

describe('revoke', () => {
  it("makes one user's token answer 401 on every route until restored, and logs those calls without a user", async () => {
    const set = await s.post('/__sim/revoke', { as: null, json: { username: 'alice' } });
    expect(set.status).toBe(200);
    expect(set.data).toEqual({ username: 'alice', revoked: true });
    for (const answer of [
      await s.get('/user'),
      await s.get(`/projects/${WEB}`),
      await s.get(`/projects/${WEB}/jobs`),
      await s.post(`/projects/${WEB}/issues`, { form: { title: 'never made' } }),
      await s.get('/todos', { as: null, headers: { Authorization: 'Bearer sim-alice-token' } }),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.data).toEqual({ message: '401 Unauthorized' });
    }
    expect((await s.get('/user', { as: 'bob' })).status).toBe(200);
    const restored = await s.post('/__sim/revoke', { as: null, json: { username: 'alice', restore: true } });
    expect(restored.data).toEqual({ username: 'alice', revoked: false });
    expect((await s.get('/user')).data.username).toBe('alice');
    expect(
      s
        .sim()
        .requests()
        .map((e) => [e.status, e.user]),
    ).toEqual([
      [401, null],
      [401, null],
      [401, null],
      [401, null],
      [401, null],
      [200, 'bob'],
      [200, 'alice'],
    ]);
    const issues = await s.all(`/projects/${WEB}/issues`, { query: { search: 'never made' } });
    expect(issues).toEqual([]);
  });

  it('is undone by a reset, and available in-process', async () => {
    s.sim().revoke('bob');
    expect((await s.get('/user', { as: 'bob' })).status).toBe(401);
    await s.post('/__sim/reset');
    expect((await s.get('/user', { as: 'bob' })).status).toBe(200);
    s.sim().revoke('bob');
    s.sim().revoke('bob', { restore: true });
    expect((await s.get('/user', { as: 'bob' })).status).toBe(200);
  });

  it('answers 404 for an unknown user and 400 without a username or with a bad restore, changing nothing', async () => {
    const unknown = await s.post('/__sim/revoke', { as: null, json: { username: 'mallory' } });
    expect(unknown.status).toBe(404);
    expect(unknown.data).toEqual({ message: '404 User Not Found' });
    const none = await s.post('/__sim/revoke', { as: null, json: {} });
    expect(none.status).toBe(400);
    expect(none.data).toEqual({ error: 'username is missing' });
    const badRestore = await s.post('/__sim/revoke', { as: null, json: { username: 'alice', restore: 'maybe' } });
    expect(badRestore.status).toBe(400);
    expect(badRestore.data).toEqual({ error: 'restore is invalid' });
    expect((await s.get('/user')).status).toBe(200);
    expect(s.sim().requests()).toHaveLength(1);
  });
});

describe('more tokens for a user', () => {
  it('makes each added token authenticate as that user until a reset, and a revoke covers them', async () => {
    const res = await s.post('/__sim/tokens', {
      as: null,
      json: { username: 'bob', tokens: ['bench-token-000001', 'bench-token-000002'] },
    });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({ username: 'bob', tokens: 2 });
    const asAdded = (token: string) => s.get('/user', { as: null, headers: { 'PRIVATE-TOKEN': token } });
    expect((await asAdded('bench-token-000002')).data.username).toBe('bob');
    s.sim().revoke('bob');
    expect((await asAdded('bench-token-000001')).status).toBe(401);
    s.sim().revoke('bob', { restore: true });
    expect((await s.get('/user', { as: 'bob' })).data.username).toBe('bob');
    await s.post('/__sim/reset');
    expect((await asAdded('bench-token-000001')).status).toBe(401);
  });

  it('refuses a token of another user, a short one, an unknown user or none, adding nothing', async () => {
    const add = (json: object) => s.post('/__sim/tokens', { as: null, json });
    expect((await add({ username: 'bob', tokens: ['sim-alice-token', 'bench-token-000003'] })).status).toBe(409);
    expect((await add({ username: 'bob', tokens: ['short'] })).data).toEqual({ error: 'tokens is invalid' });
    expect((await add({ username: 'mallory', tokens: ['bench-token-000003'] })).status).toBe(404);
    expect((await add({ username: 'bob' })).data).toEqual({ error: 'tokens is missing' });
    const refused = await s.get('/user', { as: null, headers: { 'PRIVATE-TOKEN': 'bench-token-000003' } });
    expect(refused.status).toBe(401);
    expect((await s.get('/user')).data.username).toBe('alice');
  });
});

describe('adding a branch', () => {
  it('adds a branch of any name at the head of the default branch, on which pipelines can run', async () => {
    const res = await s.post('/__sim/branches', { json: { project: 'demo/web', name: '<!channel>' } });
    expect(res.status).toBe(201);
    const made = await s.post(`/projects/${WEB}/pipeline`, { form: { ref: '<!channel>' } });
    expect(made.status).toBe(201);
    expect(made.data.ref).toBe('<!channel>');
  });

  it('answers 404 for an unknown project and 400 without a name', async () => {
    expect((await s.post('/__sim/branches', { json: { project: 'no/such', name: 'x' } })).status).toBe(404);
    expect((await s.post('/__sim/branches', { json: { project: 'demo/web' } })).status).toBe(400);
  });
});

describe('editing a job', () => {
  it('overwrites the name, ref, status and trace the API answers with, and a reset undoes it', async () => {
    const res = await s.post('/__sim/jobs/8', {
      json: { name: '<!channel>', ref: '<!here>', status: 'weird<b>', trace: 'one\ntwo' },
    });
    expect(res.status).toBe(200);
    const job = await s.get(`/projects/${WEB}/jobs/8`);
    expect(job.data).toMatchObject({ name: '<!channel>', ref: '<!here>', status: 'weird<b>' });
    const trace = await fetch(`${s.sim().url}/api/v4/projects/${WEB}/jobs/8/trace`, {
      headers: { 'PRIVATE-TOKEN': 'sim-alice-token' },
    });
    expect(await trace.text()).toBe('one\ntwo');
    await s.post('/__sim/reset');
    expect((await s.get(`/projects/${WEB}/jobs/8`)).data.name).not.toBe('<!channel>');
  });

  it('answers 404 for an unknown job and 400 for a field that is not text, changing nothing', async () => {
    expect((await s.post('/__sim/jobs/99999', { json: { name: 'x' } })).status).toBe(404);
    const bad = await s.post('/__sim/jobs/8', { json: { name: 'kept', status: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.data).toEqual({ error: 'status is invalid' });
    expect((await s.get(`/projects/${WEB}/jobs/8`)).data.name).not.toBe('kept');
  });
});

describe('tick', () => {
  it('answers with the number of ticks so far', async () => {
    const res = await s.post('/__sim/tick');
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ ticks: 1 });
  });
});

describe('authentication', () => {
  it('answers 401 without a token, with an unknown token, and accepts a Bearer token', async () => {
    const none = await s.get('/user', { as: null });
    expect(none.status).toBe(401);
    expect(none.data).toEqual({ message: '401 Unauthorized' });
    const unknown = await s.get('/user', { as: null, headers: { 'PRIVATE-TOKEN': 'glpat-nope' } });
    expect(unknown.status).toBe(401);
    const bearer = await s.get('/user', { as: null, headers: { Authorization: 'Bearer sim-bob-token' } });
    expect(bearer.status).toBe(200);
    expect(bearer.data.username).toBe('bob');
  });

  it('answers 404 for a route the API does not have', async () => {
    const res = await s.get('/no/such/route');
    expect(res.status).toBe(404);
    expect(res.data).toEqual({ error: '404 Not Found' });
  });

  it('answers 400 to a malformed JSON body', async () => {
    const bad = await fetch(`${s.sim().url}/api/v4/projects/${WEB}/issues`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': 'sim-alice-token', 'content-type': 'application/json' },
      body: '{"title":',
    });
    expect(bad.status).toBe(400);
  });
});

describe('push', () => {
  const mr = async (iid: number) => (await s.get(`/projects/${WEB}/merge_requests/${iid}`)).data;

  it("moves an open merge request's head to a new commit with a new diff version, so a merge pinned to the old head answers 409", async () => {
    const before = await mr(3);
    const versionsBefore = (await s.get(`/projects/${WEB}/merge_requests/3/versions`)).data;
    const pushed = await s.post('/__sim/push', {
      as: null,
      json: {
        project: 'demo/web',
        branch: 'fix/currency-rounding',
        username: 'bob',
        files: ['src/cart/tax.ts'],
        lines: 3,
      },
    });
    expect(pushed.status).toBe(200);
    const after = await mr(3);
    expect(after.sha).toBe(pushed.data.sha);
    expect(after.sha).not.toBe(before.sha);
    const commits = (await s.get(`/projects/${WEB}/merge_requests/3/commits`)).data;
    expect(commits[0]).toMatchObject({
      id: pushed.data.sha,
      title: 'Update src/cart/tax.ts',
      author_name: 'Bob Brown',
    });
    const versions = (await s.get(`/projects/${WEB}/merge_requests/3/versions`)).data;
    expect(versions).toHaveLength(versionsBefore.length + 1);
    expect(versions[0].head_commit_sha).toBe(pushed.data.sha);
    const changes = (await s.get(`/projects/${WEB}/merge_requests/3/changes`)).data.changes;
    const tax = changes.find((c: { new_path: string }) => c.new_path === 'src/cart/tax.ts');
    expect(tax.diff.split('\n').filter((l: string) => l.startsWith('+') && !l.startsWith('+++'))).toHaveLength(3);

    const stale = await s.put(`/projects/${WEB}/merge_requests/3/merge`, { form: { sha: before.sha } });
    expect(stale.status).toBe(409);
    expect((await mr(3)).state).toBe('opened');
  });

  it('makes an open merge request into the pushed branch conflicting when both change a file: a merge answers 405', async () => {
    expect((await mr(3)).merge_status).toBe('can_be_merged');
    const pushed = await s.post('/__sim/push', {
      as: null,
      json: { project: 'demo/web', branch: 'main', username: 'alice', files: ['src/cart/totals.ts'] },
    });
    expect(pushed.status).toBe(200);
    expect((await mr(3)).merge_status).toBe('cannot_be_merged');
    expect((await mr(7)).merge_status).toBe('can_be_merged');
    expect((await s.put(`/projects/${WEB}/merge_requests/3/merge`)).status).toBe(405);
    const events = (await s.get(`/projects/${WEB}/events`, { query: { action: 'pushed' } })).data;
    expect(events[0].push_data).toMatchObject({ ref: 'main', commit_to: pushed.data.sha });
  });

  it('is available in-process, and refuses an unknown project, user or branch or bad sizes, changing nothing', async () => {
    const { sha } = s.sim().push({ project: 'demo/web', branch: 'feature/order-history', username: 'alice' });
    expect((await mr(7)).sha).toBe(sha);
    const refused = [
      await s.post('/__sim/push', { as: null, json: { project: 'demo/nope', branch: 'main', username: 'bob' } }),
      await s.post('/__sim/push', { as: null, json: { project: 'demo/web', branch: 'main', username: 'mallory' } }),
      await s.post('/__sim/push', { as: null, json: { project: 'demo/web', branch: 'no-such', username: 'bob' } }),
      await s.post('/__sim/push', {
        as: null,
        json: { project: 'demo/web', branch: 'main', username: 'bob', lines: 0 },
      }),
      await s.post('/__sim/push', { as: null, json: { project: 'demo/web', username: 'bob' } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([404, 404, 400, 400, 400]);
    expect((await mr(7)).sha).toBe(sha);
  });
});
