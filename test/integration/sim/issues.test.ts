import { describe, expect, it } from 'vitest';
import { DOCS, type Loose, SECRET, useSimulator, WEB } from './support.js';

const s = useSimulator();

const issues = (query = {}, as: 'alice' | 'bob' | 'eve' | 'root' = 'alice') =>
  s.all(`/projects/${WEB}/issues`, { query, as });

describe('issue lists', () => {
  it('pages the project list: 20 by default, X-* headers and Link', async () => {
    const res = await s.get(`/projects/${WEB}/issues`);
    expect(res.status).toBe(200);
    expect(res.data).toHaveLength(20);
    expect(Number(res.headers.get('x-total'))).toBeGreaterThan(25);
    expect(res.headers.get('x-total-pages')).toBe('2');
    const page2 = await s.get(`/projects/${WEB}/issues`, { query: { page: 2 } });
    expect(page2.headers.get('x-prev-page')).toBe('1');
    expect(page2.headers.get('x-next-page')).toBe('');
    expect(page2.headers.get('link')).toContain('rel="prev"');
    const big = await s.get(`/projects/${WEB}/issues`, { query: { per_page: 500 } });
    expect(big.headers.get('x-per-page')).toBe('100');
  });

  it('filters by state, labels (and No Label), milestone, iids[], author, assignee and search', async () => {
    expect((await issues({ state: 'closed' })).every((i) => i.state === 'closed')).toBe(true);
    expect((await issues({ state: 'opened' })).every((i) => i.state === 'opened')).toBe(true);
    const bugsFrontend = await issues({ labels: 'bug,frontend' });
    expect(bugsFrontend.length).toBeGreaterThan(0);
    expect(bugsFrontend.every((i) => i.labels.includes('bug') && i.labels.includes('frontend'))).toBe(true);
    const created = await s.post(`/projects/${WEB}/issues`, { form: { title: 'No labels here' } });
    for (const none of ['No+Label', 'No Label']) {
      const unlabeled = await issues({ labels: none });
      expect(unlabeled.map((i) => i.iid)).toEqual([created.data.iid]);
    }
    expect((await issues({ milestone: 'v1.4' })).every((i) => i.milestone?.title === 'v1.4')).toBe(true);
    expect((await issues({ milestone: 'No Milestone' })).every((i) => i.milestone === null)).toBe(true);
    expect((await issues({ iids: [1, 4] })).map((i) => i.iid).sort()).toEqual([1, 4]);
    const byEve = await issues({ author_id: 4 });
    expect(byEve.length).toBeGreaterThan(0);
    expect(byEve.every((i) => i.author.username === 'eve')).toBe(true);
    const toBob = await issues({ assignee_id: 3 });
    expect(toBob.every((i) => i.assignees.some((a: Loose) => a.username === 'bob'))).toBe(true);
    const search = await issues({ search: 'CAFÉ' });
    expect(search.map((i) => i.title)).toEqual(['Search results ignore accents (café vs cafe)']);
  });

  it('filters by creation time and orders by created_at or updated_at', async () => {
    const recent = await issues({ created_after: '2026-03-01T10:00:00Z' });
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((i) => i.created_at >= '2026-03-01T10:00:00')).toBe(true);
    const older = await issues({ created_before: '2026-02-20' });
    expect(older.every((i) => i.created_at <= '2026-02-20T00:00:00.000Z')).toBe(true);
    const asc = await issues({ order_by: 'updated_at', sort: 'asc' });
    const times = asc.map((i) => i.updated_at);
    expect(times).toEqual([...times].sort());
    expect((await s.get(`/projects/${WEB}/issues`, { query: { created_after: 'yesterday' } })).status).toBe(400);
    expect((await s.get(`/projects/${WEB}/issues`, { query: { order_by: 'title' } })).status).toBe(400);
    expect((await s.get(`/projects/${WEB}/issues`, { query: { state: 'merged' } })).status).toBe(400);
  });

  it("GET /issues defaults to the caller's own issues in every state; scope widens it", async () => {
    const mine = await s.all('/issues', { as: 'eve' });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((i) => i.author.username === 'eve')).toBe(true);
    expect(new Set(mine.map((i) => i.state))).toEqual(new Set(['opened', 'closed']));
    const assigned = await s.all('/issues', { as: 'bob', query: { scope: 'assigned-to-me' } });
    expect(assigned.every((i) => i.assignees.some((a: Loose) => a.username === 'bob'))).toBe(true);
    const underscored = await s.all('/issues', { as: 'bob', query: { scope: 'assigned_to_me' } });
    expect(underscored).toEqual(assigned);
    const all = await s.all('/issues', { as: 'eve', query: { scope: 'all' } });
    expect(all.some((i) => i.project_id !== all[0].project_id)).toBe(true);
    expect((await s.get('/issues', { query: { scope: 'everything' } })).status).toBe(400);
  });

  it('lists group issues across the projects the caller can see', async () => {
    const alice = await s.all('/groups/demo/issues', { as: 'alice' });
    const eve = await s.all('/groups/demo/issues', { as: 'eve' });
    expect(new Set(alice.map((i) => i.project_id)).size).toBe(3);
    expect(new Set(eve.map((i) => i.project_id)).size).toBe(2);
    expect((await s.get('/groups/nope/issues')).status).toBe(404);
    const byId = await s.all('/groups/1/issues', { as: 'alice' });
    expect(byId.length).toBe(alice.length);
  });

  it('hides confidential issues from non-members and private projects entirely', async () => {
    const all = await issues({}, 'alice');
    const confidential = all.find((i) => i.confidential);
    expect(confidential).toBeDefined();
    expect((await issues({}, 'eve')).some((i) => i.confidential)).toBe(false);
    expect((await s.get(`/projects/${WEB}/issues/${confidential.iid}`, { as: 'eve' })).status).toBe(404);
    expect((await s.get(`/projects/${WEB}/issues/${confidential.iid}`, { as: 'bob' })).status).toBe(200);
    expect((await s.get(`/projects/${SECRET}/issues`, { as: 'eve' })).status).toBe(404);
  });
});

describe('one issue', () => {
  it('answers the Issue entity with subscribed and _links built from the Host header', async () => {
    const res = await s.get(`/projects/${WEB}/issues/4`, { as: 'eve' });
    expect(res.status).toBe(200);
    const base = s.sim().url;
    expect(res.data).toMatchObject({ iid: 4, subscribed: false, web_url: `${base}/demo/web/issues/4` });
    expect(res.data._links.self).toBe(`${base}/api/v4/projects/${res.data.project_id}/issues/4`);
    expect(res.data.upvotes).toBe(2);
    expect((await s.get(`/projects/${WEB}/issues/4`, { as: 'alice' })).data.subscribed).toBe(true);
    const viaLocalhost = await fetch(`${base.replace('127.0.0.1', 'localhost')}/api/v4/projects/${WEB}/issues/4`, {
      headers: { 'PRIVATE-TOKEN': 'sim-alice-token' },
    });
    expect(((await viaLocalhost.json()) as Loose).web_url).toBe(
      `${base.replace('127.0.0.1', 'localhost')}/demo/web/issues/4`,
    );
    expect((await s.get(`/projects/${WEB}/issues/999`)).data).toEqual({ message: '404 Issue Not Found' });
  });
});

describe('creating and editing issues', () => {
  it('creates an issue (201) with labels, assignees, milestone, due date and confidentiality', async () => {
    const res = await s.post(`/projects/${WEB}/issues`, {
      as: 'bob',
      form: {
        title: 'Issues with auth',
        labels: 'bug,new-label',
        assignee_ids: [2],
        milestone_id: 2,
        due_date: '2026-12-01',
        confidential: true,
      },
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      title: 'Issues with auth',
      state: 'opened',
      labels: ['bug', 'new-label'],
      confidential: true,
      due_date: '2026-12-01',
      created_at: '2026-03-02T10:00:00.000Z',
      subscribed: true,
    });
    expect(res.data.assignee.username).toBe('alice');
    expect(res.data.milestone.title).toBe('v1.4');
    const todos = await s.get('/todos', { as: 'alice', query: { type: 'Issue', action: 'assigned' } });
    expect(todos.data.some((t: Loose) => t.target.iid === res.data.iid)).toBe(true);
  });

  it('lets only owners and admins set created_at, ignoring it for others', async () => {
    const owner = await s.post(`/projects/${WEB}/issues`, {
      form: { title: 'Backdated', created_at: '2025-01-01T00:00:00Z' },
    });
    expect(owner.data.created_at).toBe('2025-01-01T00:00:00.000Z');
    const dev = await s.post(`/projects/${WEB}/issues`, {
      as: 'bob',
      form: { title: 'Backdated', created_at: '2025-01-01T00:00:00Z' },
    });
    expect(dev.data.created_at).toBe('2026-03-02T10:00:00.000Z');
  });

  it('opens a follow-up issue from a merge request discussion', async () => {
    const res = await s.post(`/projects/${WEB}/issues`, { form: { merge_request_to_resolve_discussions_of: 4 } });
    expect(res.status).toBe(201);
    expect(res.data.title).toBe('Follow-up from "Upgrade to webpack 5"');
    expect(res.data.description).toContain('needs a rebase');
  });

  it('refuses an issue without a title (400) and lets anyone open issues in a public project', async () => {
    const res = await s.post(`/projects/${WEB}/issues`, { form: { description: 'no title' } });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: 'title is missing' });
    expect((await s.post(`/projects/${WEB}/issues`, { as: 'eve', form: { title: 'From a visitor' } })).status).toBe(
      201,
    );
    expect((await s.post(`/projects/${SECRET}/issues`, { as: 'eve', form: { title: 'x' } })).status).toBe(404);
  });

  it('edits an issue (200); with no attribute it answers 400; strangers get 403', async () => {
    const res = await s.put(`/projects/${WEB}/issues/9`, {
      json: { title: 'Document the release process (v2)', labels: [] },
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      title: 'Document the release process (v2)',
      labels: [],
      updated_at: '2026-03-02T10:00:00.000Z',
    });
    const none = await s.put(`/projects/${WEB}/issues/9`);
    expect(none.status).toBe(400);
    expect(none.data.error).toContain('at least one parameter must be provided');
    expect((await s.put(`/projects/${WEB}/issues/9`, { as: 'eve', form: { title: 'mine now' } })).status).toBe(403);
    expect((await s.put(`/projects/${WEB}/issues/17`, { as: 'eve', form: { title: 'Wishlist, please' } })).status).toBe(
      200,
    );
  });

  it('closes and reopens through state_event, recording events', async () => {
    const closed = await s.put(`/projects/${WEB}/issues/2`, { form: { state_event: 'close' } });
    expect(closed.data.state).toBe('closed');
    const reopened = await s.put(`/projects/${WEB}/issues/2`, { form: { state_event: 'reopen' } });
    expect(reopened.data.state).toBe('opened');
    const events = await s.get(`/projects/${WEB}/events`, { query: { target_type: 'issue', per_page: 2 } });
    expect(events.data.map((e: Loose) => e.action_name)).toEqual(['opened', 'closed']);
    expect((await s.put(`/projects/${WEB}/issues/2`, { form: { state_event: 'explode' } })).status).toBe(400);
  });

  it('lets only owners and admins set updated_at', async () => {
    const owner = await s.put(`/projects/${WEB}/issues/2`, {
      form: { title: 't', updated_at: '2026-01-01T00:00:00Z' },
    });
    expect(owner.data.updated_at).toBe('2026-01-01T00:00:00.000Z');
    const dev = await s.put(`/projects/${WEB}/issues/2`, {
      as: 'bob',
      form: { title: 't', updated_at: '2026-01-01T00:00:00Z' },
    });
    expect(dev.data.updated_at).toBe('2026-03-02T10:00:00.000Z');
  });
});

describe('deleting issues', () => {
  it('lets owners and admins delete (204), others get 403, then it is gone (404)', async () => {
    expect((await s.del(`/projects/${WEB}/issues/3`, { as: 'bob' })).status).toBe(403);
    const res = await s.del(`/projects/${WEB}/issues/3`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.get(`/projects/${WEB}/issues/3`)).status).toBe(404);
    expect((await s.del(`/projects/${WEB}/issues/5`, { as: 'root' })).status).toBe(204);
  });
});

describe('moving issues', () => {
  it('moves an issue (201) carrying labels and milestone by name, and closes the old one', async () => {
    const docs = (await s.get(`/projects/${DOCS}`)).data;
    const res = await s.post(`/projects/${WEB}/issues/9/move`, { form: { to_project_id: docs.id } });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      project_id: docs.id,
      title: 'Document the release process',
      labels: ['documentation'],
    });
    expect(res.data.web_url).toMatch(/\/demo\/docs\/issues\/\d+$/);
    const withMilestone = await s.post(`/projects/${WEB}/issues/4/move`, { form: { to_project_id: docs.id } });
    expect(withMilestone.data.milestone.title).toBe('v1.4');
    expect(withMilestone.data.milestone.project_id).toBe(docs.id);
    expect(withMilestone.data.labels).toEqual(['bug']);
    expect((await s.get(`/projects/${WEB}/issues/9`)).data.state).toBe('closed');
  });

  it('refuses a move to the same project (400), to an unknown project (404), and without rights (400)', async () => {
    const web = (await s.get(`/projects/${WEB}`)).data;
    const same = await s.post(`/projects/${WEB}/issues/9/move`, { form: { to_project_id: web.id } });
    expect(same.status).toBe(400);
    expect(same.data).toEqual({ message: 'Cannot move issue to project it originates from!' });
    expect((await s.post(`/projects/${WEB}/issues/9/move`, { form: { to_project_id: 999 } })).status).toBe(404);
    const docs = (await s.get(`/projects/${DOCS}`)).data;
    expect(
      (await s.post(`/projects/${WEB}/issues/17/move`, { as: 'eve', form: { to_project_id: docs.id } })).status,
    ).toBe(400);
    const notNumber = await s.post(`/projects/${WEB}/issues/9/move`, { form: { to_project_id: 'demo/docs' } });
    expect(notNumber.data).toEqual({ error: 'to_project_id is invalid' });
  });
});

describe('subscriptions and todos', () => {
  it('subscribes (201), then 304; unsubscribes (201), then 304', async () => {
    const sub = await s.post(`/projects/${WEB}/issues/2/subscribe`, { as: 'eve' });
    expect(sub.status).toBe(201);
    expect(sub.data.subscribed).toBe(true);
    const again = await s.post(`/projects/${WEB}/issues/2/subscribe`, { as: 'eve' });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await s.post(`/projects/${WEB}/issues/2/unsubscribe`, { as: 'eve' })).status).toBe(201);
    expect((await s.post(`/projects/${WEB}/issues/2/unsubscribe`, { as: 'eve' })).status).toBe(304);
  });

  it('adds a todo (201, the Todo entity), then 304', async () => {
    const res = await s.post(`/projects/${WEB}/issues/2/todo`, { as: 'eve' });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ action_name: 'marked', target_type: 'Issue', state: 'pending' });
    expect(res.data.target.iid).toBe(2);
    expect(res.data.project.path_with_namespace).toBe('demo/web');
    expect((await s.post(`/projects/${WEB}/issues/2/todo`, { as: 'eve' })).status).toBe(304);
  });
});

describe('time tracking', () => {
  it('sets, adds, reads and resets durations in the human format', async () => {
    const base = `/projects/${WEB}/issues/2`;
    const est = await s.post(`${base}/time_estimate`, { form: { duration: '1w 2d 3h30m' } });
    expect(est.status).toBe(200);
    expect(est.data).toEqual({
      time_estimate: 214_200,
      total_time_spent: 0,
      human_time_estimate: '1w 2d 3h 30m',
      human_total_time_spent: null,
    });
    const spent = await s.post(`${base}/add_spent_time`, { query: { duration: '1mo' } });
    expect(spent.status).toBe(201);
    expect(spent.data.human_total_time_spent).toBe('1mo');
    const less = await s.post(`${base}/add_spent_time`, { form: { duration: '-3w' } });
    expect(less.data).toMatchObject({ total_time_spent: 144_000, human_total_time_spent: '1w' });
    expect((await s.get(`${base}/time_stats`)).data.total_time_spent).toBe(144_000);
    const tooMuch = await s.post(`${base}/add_spent_time`, { form: { duration: '-2w' } });
    expect(tooMuch.status).toBe(400);
    expect((await s.post(`${base}/reset_spent_time`)).data.total_time_spent).toBe(0);
    const reset = await s.post(`${base}/reset_time_estimate`);
    expect(reset.status).toBe(200);
    expect(reset.data).toEqual({
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    });
  });

  it('refuses bad or missing durations (400) and strangers (403)', async () => {
    const base = `/projects/${WEB}/issues/2`;
    expect((await s.post(`${base}/time_estimate`, { form: { duration: 'soon' } })).status).toBe(400);
    expect((await s.post(`${base}/time_estimate`)).data).toEqual({ error: 'duration is missing' });
    expect((await s.post(`${base}/time_estimate`, { as: 'eve', form: { duration: '1h' } })).status).toBe(403);
    expect((await s.get(`${base}/time_stats`, { as: 'eve' })).status).toBe(200);
  });
});

describe('closed_by and user_agent_detail', () => {
  it('lists the merge requests whose description closes the issue', async () => {
    const res = await s.get(`/projects/${WEB}/issues/4/closed_by`);
    expect(res.status).toBe(200);
    expect(res.data.map((m: Loose) => m.title)).toEqual(['Fix currency rounding in cart totals']);
    expect((await s.get(`/projects/${WEB}/issues/1/closed_by`)).data).toEqual([]);
  });

  it('shows user agent details to admins only (403), 404 when there are none', async () => {
    const res = await s.get(`/projects/${WEB}/issues/4/user_agent_detail`, { as: 'root' });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      user_agent: expect.stringContaining('Mozilla'),
      ip_address: expect.any(String),
      akismet_submitted: false,
    });
    expect((await s.get(`/projects/${WEB}/issues/4/user_agent_detail`, { as: 'alice' })).status).toBe(403);
    expect((await s.get(`/projects/${WEB}/issues/9/user_agent_detail`, { as: 'root' })).status).toBe(404);
  });
});
