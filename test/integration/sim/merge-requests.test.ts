import { describe, expect, it } from 'vitest';
import { type Loose, SECRET, useSimulator, WEB } from './support.js';

const s = useSimulator();

const mrs = (query = {}, as: 'alice' | 'bob' | 'eve' | 'root' = 'alice') =>
  s.all(`/projects/${WEB}/merge_requests`, { query, as });

async function mrWhere(pred: (m: Loose) => boolean) {
  const m = (await mrs()).find(pred);
  if (!m) throw new Error('no such merge request in the demo data set');
  return m;
}

const MR = (iid: number) => `/projects/${WEB}/merge_requests/${iid}`;

describe('merge request lists', () => {
  it('lists every state by default and filters by state, labels, milestone, iids, author, assignee', async () => {
    const all = await mrs();
    expect(new Set(all.map((m) => m.state))).toEqual(new Set(['opened', 'merged', 'closed']));
    expect((await mrs({ state: 'merged' })).every((m) => m.state === 'merged')).toBe(true);
    expect((await mrs({ labels: 'feature,frontend' })).every((m) => m.labels.includes('frontend'))).toBe(true);
    expect((await mrs({ milestone: 'v1.5' })).every((m) => m.milestone?.title === 'v1.5')).toBe(true);
    expect((await mrs({ iids: [2, 3] })).map((m) => m.iid).sort()).toEqual([2, 3]);
    expect((await mrs({ author_id: 3 })).every((m) => m.author.username === 'bob')).toBe(true);
    expect((await mrs({ assignee_id: 2 })).every((m) => m.assignee?.username === 'alice')).toBe(true);
    expect((await mrs({ created_before: '2026-02-25' })).every((m) => m.created_at < '2026-02-25')).toBe(true);
    expect((await s.get(`/projects/${WEB}/merge_requests`, { query: { state: 'open' } })).status).toBe(400);
  });

  it('answers view=simple with the short form', async () => {
    const res = await s.get(`/projects/${WEB}/merge_requests`, { query: { view: 'simple' } });
    expect(Object.keys(res.data[0]).sort()).toEqual(
      ['created_at', 'description', 'id', 'iid', 'project_id', 'state', 'title', 'updated_at', 'web_url'].sort(),
    );
  });

  it("GET /merge_requests defaults to the caller's own, scope=all shows every visible one", async () => {
    const mine = await s.all('/merge_requests', { as: 'bob' });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((m) => m.author.username === 'bob')).toBe(true);
    const assigned = await s.all('/merge_requests', { as: 'bob', query: { scope: 'assigned-to-me', state: 'opened' } });
    expect(assigned.every((m) => m.assignee.username === 'bob' && m.state === 'opened')).toBe(true);
    expect((await s.all('/merge_requests', { as: 'eve', query: { scope: 'all' } })).length).toBe((await mrs()).length);
  });
});

describe('one merge request and its parts', () => {
  it('answers the MergeRequest entity with subscribed', async () => {
    const res = await s.get(MR(3));
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ iid: 3, state: 'opened', merge_status: 'can_be_merged', subscribed: true });
    expect(res.data.web_url).toBe(`${s.sim().url}/demo/web/merge_requests/3`);
    expect((await s.get(MR(99))).data).toEqual({ message: '404 Merge Request Not Found' });
    expect((await s.get(`/projects/${SECRET}/merge_requests/1`, { as: 'eve' })).status).toBe(404);
  });

  it('lists commits, changes and closes_issues', async () => {
    const commits = await s.get(`${MR(3)}/commits`);
    expect(commits.data.map((c: Loose) => c.title)).toEqual([
      'Add regression test for EUR rounding',
      'Round each cart line before summing',
    ]);
    const changes = await s.get(`${MR(3)}/changes`);
    expect(changes.data.iid).toBe(3);
    expect(changes.data.changes[0]).toMatchObject({
      new_path: 'src/cart/totals.ts',
      diff: expect.stringContaining('@@'),
    });
    const closes = await s.get(`${MR(3)}/closes_issues`);
    expect(closes.data.map((i: Loose) => i.iid)).toEqual([4]);
  });

  it('lists diff versions without commits and diffs, and one version with them', async () => {
    const versions = await s.get(`${MR(2)}/versions`);
    expect(versions.status).toBe(200);
    expect(versions.data.length).toBe(2);
    for (const v of versions.data) {
      expect('commits' in v).toBe(false);
      expect('diffs' in v).toBe(false);
      expect(v.state).toBe('collected');
    }
    const one = await s.get(`${MR(2)}/versions/${versions.data[0].id}`);
    expect(one.data.commits).toHaveLength(2);
    expect(one.data.diffs.length).toBeGreaterThan(0);
    expect(one.data.head_commit_sha).toBe((await s.get(MR(2))).data.sha);
    expect((await s.get(`${MR(2)}/versions/424242`)).status).toBe(404);
  });
});

describe('creating, editing, closing and deleting', () => {
  it('creates a merge request from an existing branch (201) with its commits and a version', async () => {
    const res = await s.post(`/projects/${WEB}/merge_requests`, {
      as: 'bob',
      form: {
        source_branch: 'feature/i18n-de',
        target_branch: 'main',
        title: 'Add German translation',
        assignee_id: 2,
        labels: 'feature',
        remove_source_branch: true,
      },
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      title: 'Add German translation',
      state: 'opened',
      force_remove_source_branch: true,
      labels: ['feature'],
    });
    expect(res.data.assignee.username).toBe('alice');
    const commits = await s.get(`${MR(res.data.iid)}/commits`);
    expect(commits.data.map((c: Loose) => c.title)).toEqual(['Add German translations']);
    expect((await s.get(`${MR(res.data.iid)}/versions`)).data).toHaveLength(1);
    const dup = await s.post(`/projects/${WEB}/merge_requests`, {
      as: 'bob',
      form: { source_branch: 'feature/i18n-de', target_branch: 'main', title: 'Again' },
    });
    expect(dup.status).toBe(409);
  });

  it('refuses missing fields (400), unknown branches (400) and non-developers (403)', async () => {
    expect(
      (await s.post(`/projects/${WEB}/merge_requests`, { form: { source_branch: 'x', target_branch: 'main' } })).data,
    ).toEqual({ error: 'title is missing' });
    expect(
      (
        await s.post(`/projects/${WEB}/merge_requests`, {
          form: { source_branch: 'nope', target_branch: 'main', title: 't' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await s.post(`/projects/${WEB}/merge_requests`, {
          form: { source_branch: 'main', target_branch: 'main', title: 't' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await s.post(`/projects/${WEB}/merge_requests`, {
          as: 'eve',
          form: { source_branch: 'feature/i18n-de', target_branch: 'main', title: 't' },
        })
      ).status,
    ).toBe(403);
  });

  it('edits (200), needs at least one attribute (400), refuses strangers (403)', async () => {
    const res = await s.put(MR(7), { form: { title: 'Add order history page (paginated)', milestone_id: 2 } });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ title: 'Add order history page (paginated)' });
    expect(res.data.milestone.title).toBe('v1.4');
    const none = await s.put(MR(7));
    expect(none.status).toBe(400);
    expect(none.data.error).toContain('at least one parameter must be provided');
    expect((await s.put(MR(7), { as: 'eve', form: { title: 'x' } })).status).toBe(403);
  });

  it('closes and reopens through state_event', async () => {
    expect((await s.put(MR(7), { form: { state_event: 'close' } })).data.state).toBe('closed');
    expect((await s.put(MR(7), { form: { state_event: 'reopen' } })).data.state).toBe('opened');
    const events = await s.get(`/projects/${WEB}/events`, { query: { target_type: 'merge_request', per_page: 2 } });
    expect(events.data.map((e: Loose) => e.action_name)).toEqual(['opened', 'closed']);
  });

  it('lets owners delete (204), others get 403', async () => {
    expect((await s.del(MR(6), { as: 'bob' })).status).toBe(403);
    expect((await s.del(MR(6))).status).toBe(204);
    expect((await s.get(MR(6))).status).toBe(404);
  });
});

describe('merging', () => {
  it('merges a mergeable merge request (200), fills merge_commit_sha and closes the issue it names', async () => {
    const mr = await s.get(MR(3));
    const res = await s.put(`${MR(3)}/merge`, { form: { sha: mr.data.sha, should_remove_source_branch: true } });
    expect(res.status).toBe(200);
    expect(res.data.state).toBe('merged');
    expect(res.data.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect((await s.get(`/projects/${WEB}/issues/4`)).data.state).toBe('closed');
    const events = await s.get(`/projects/${WEB}/events`, { query: { action: 'merged', per_page: 1 } });
    expect(events.data[0]).toMatchObject({ action_name: 'accepted', target_iid: 3 });
  });

  it('answers 406 for merged or closed ones, 405 for conflicts and work in progress, 409 for a moved head, 401 without rights', async () => {
    const merged = await mrWhere((m) => m.state === 'merged');
    expect((await s.put(`${MR(merged.iid)}/merge`)).status).toBe(406);
    const closed = await mrWhere((m) => m.state === 'closed');
    expect((await s.put(`${MR(closed.iid)}/merge`)).status).toBe(406);
    const conflicting = await mrWhere((m) => m.merge_status === 'cannot_be_merged');
    const c = await s.put(`${MR(conflicting.iid)}/merge`);
    expect(c.status).toBe(405);
    expect(c.data).toEqual({ message: '405 Method Not Allowed' });
    const wip = await mrWhere((m) => m.work_in_progress);
    expect((await s.put(`${MR(wip.iid)}/merge`)).status).toBe(405);
    const moved = await s.put(`${MR(3)}/merge`, { form: { sha: 'f'.repeat(40) } });
    expect(moved.status).toBe(409);
    expect(moved.data.message).toContain('SHA does not match HEAD of source branch');
    expect((await s.put(`${MR(3)}/merge`, { as: 'eve' })).status).toBe(401);
  });

  it('sets merge when pipeline succeeds while the head pipeline runs, and cancels it with PUT (200, then 406)', async () => {
    const set = await s.put(`${MR(2)}/cancel_merge_when_pipeline_succeeds`);
    expect(set.status).toBe(200);
    expect(set.data.merge_when_pipeline_succeeds).toBe(false);
    const again = await s.put(`${MR(2)}/cancel_merge_when_pipeline_succeeds`);
    expect(again.status).toBe(406);
    const mwps = await s.put(`${MR(2)}/merge`, { form: { merge_when_pipeline_succeeds: true } });
    expect(mwps.status).toBe(200);
    expect(mwps.data).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });
    expect((await s.put(`${MR(2)}/cancel_merge_when_pipeline_succeeds`, { as: 'eve' })).status).toBe(401);
    const merged = await mrWhere((m) => m.state === 'merged');
    expect((await s.put(`${MR(merged.iid)}/cancel_merge_when_pipeline_succeeds`)).status).toBe(405);
  });

  it('makes a pipeline run at the head of an open merge request’s branch its head pipeline, so merging waits for it', async () => {
    const mr = (await s.get(MR(7))).data;
    const run = await s.post(`/projects/${WEB}/pipeline`, { form: { ref: mr.source_branch } });
    expect(run.status).toBe(201);
    expect(run.data.sha).toBe(mr.sha);
    const waits = await s.put(`${MR(7)}/merge`, { form: { merge_when_pipeline_succeeds: true } });
    expect(waits.data).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });
  });

  it('merges at once when asked to wait for a pipeline that is not running', async () => {
    const res = await s.put(`${MR(7)}/merge`, { form: { merge_when_pipeline_succeeds: true } });
    expect(res.data.state).toBe('merged');
  });

  it('cancels through POST as 9.5 routes it: 201 with the service result', async () => {
    const ok = await s.post(`${MR(2)}/cancel_merge_when_pipeline_succeeds`);
    expect(ok.status).toBe(201);
    expect(ok.data).toEqual({ status: 'success' });
    const notSet = await s.post(`${MR(2)}/cancel_merge_when_pipeline_succeeds`);
    expect(notSet.status).toBe(201);
    expect(notSet.data).toEqual({ message: "Can't cancel the automatic merge", status: 'error', http_status: 406 });
    expect((await s.post(`${MR(2)}/cancel_merge_when_pipeline_succeeds`, { as: 'eve' })).status).toBe(401);
  });
});

describe('subscriptions, todos and time tracking on merge requests', () => {
  it('subscribes and unsubscribes with 201 / 304, adds a todo with 201 / 304', async () => {
    expect((await s.post(`${MR(3)}/subscribe`, { as: 'eve' })).status).toBe(201);
    expect((await s.post(`${MR(3)}/subscribe`, { as: 'eve' })).status).toBe(304);
    expect((await s.post(`${MR(3)}/unsubscribe`, { as: 'eve' })).status).toBe(201);
    expect((await s.post(`${MR(3)}/unsubscribe`, { as: 'eve' })).status).toBe(304);
    const todo = await s.post(`${MR(3)}/todo`, { as: 'eve' });
    expect(todo.status).toBe(201);
    expect(todo.data).toMatchObject({ target_type: 'MergeRequest', action_name: 'marked' });
    expect((await s.post(`${MR(3)}/todo`, { as: 'eve' })).status).toBe(304);
  });

  it('tracks time with the same statuses as issues', async () => {
    expect((await s.post(`${MR(3)}/time_estimate`, { form: { duration: '3h30m' } })).data.human_time_estimate).toBe(
      '3h 30m',
    );
    const spent = await s.post(`${MR(3)}/add_spent_time`, { form: { duration: '1h' } });
    expect(spent.status).toBe(201);
    expect(spent.data.human_total_time_spent).toBe('1h');
    expect((await s.get(`${MR(3)}/time_stats`)).data).toEqual({
      time_estimate: 12_600,
      total_time_spent: 3_600,
      human_time_estimate: '3h 30m',
      human_total_time_spent: '1h',
    });
    expect((await s.post(`${MR(3)}/reset_time_estimate`)).status).toBe(200);
    expect((await s.post(`${MR(3)}/reset_spent_time`)).data.total_time_spent).toBe(0);
    expect((await s.post(`${MR(3)}/time_estimate`, { as: 'eve', form: { duration: '1h' } })).status).toBe(403);
  });
});
