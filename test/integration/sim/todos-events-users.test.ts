import { describe, expect, it } from 'vitest';
import { type Loose, SECRET, useSimulator, WEB } from './support.js';

const s = useSimulator();

describe('todos', () => {
  it("lists the caller's pending todos with project, author and target", async () => {
    const res = await s.get('/todos');
    expect(res.status).toBe(200);
    expect(res.data.length).toBeGreaterThan(2);
    expect(res.data.every((t: Loose) => t.state === 'pending')).toBe(true);
    expect(new Set(res.data.map((t: Loose) => t.target_type))).toEqual(new Set(['Issue', 'MergeRequest']));
    const t = res.data[0];
    expect(t.project).toMatchObject({ path_with_namespace: 'demo/web', name_with_namespace: 'Demo / Web' });
    expect(t.target_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo\/web\//);
  });

  it('filters by action, author, project, state and type', async () => {
    const mentioned = await s.get('/todos', { query: { action: 'mentioned' } });
    expect(mentioned.data.every((t: Loose) => t.action_name === 'mentioned')).toBe(true);
    expect(mentioned.data[0].target_url).toContain('#note_');
    expect((await s.get('/todos', { query: { author_id: 3 } })).data.every((t: Loose) => t.author.id === 3)).toBe(true);
    expect((await s.get('/todos', { query: { project_id: 9999 } })).data).toEqual([]);
    expect((await s.get('/todos', { query: { state: 'done' } })).data.every((t: Loose) => t.state === 'done')).toBe(
      true,
    );
    expect(
      (await s.get('/todos', { query: { type: 'MergeRequest' } })).data.every(
        (t: Loose) => t.target_type === 'MergeRequest',
      ),
    ).toBe(true);
    expect((await s.get('/todos', { query: { type: 'Epic' } })).status).toBe(400);
  });

  it('marks one done (201) and 404 for someone else’s or an already done todo', async () => {
    const [first] = (await s.get('/todos')).data;
    expect((await s.post(`/todos/${first.id}/mark_as_done`, { as: 'bob' })).status).toBe(404);
    const res = await s.post(`/todos/${first.id}/mark_as_done`);
    expect(res.status).toBe(201);
    expect(res.data.state).toBe('done');
    expect((await s.post(`/todos/${first.id}/mark_as_done`)).status).toBe(404);
  });

  it('marks all done (204)', async () => {
    const res = await s.post('/todos/mark_as_done');
    expect(res.status).toBe(204);
    expect((await s.get('/todos')).data).toEqual([]);
    expect((await s.get('/todos', { as: 'bob' })).data.length).toBeGreaterThan(0);
  });
});

describe('events', () => {
  it('lists a project’s events newest first, with push_data on pushes and note on comments', async () => {
    const all = await s.all(`/projects/${WEB}/events`);
    expect(all.length).toBeGreaterThan(30);
    const times = all.map((e) => e.created_at);
    expect(times).toEqual([...times].sort().reverse());
    const push = all.find((e) => e.action_name === 'pushed to');
    expect(push.push_data).toMatchObject({
      ref_type: 'branch',
      commit_count: expect.any(Number),
      commit_to: expect.any(String),
    });
    expect(push.target_type).toBeNull();
    const note = all.find((e) => e.action_name === 'commented on');
    expect(note).toMatchObject({ target_type: 'Note' });
    expect(note.note).toMatchObject({
      id: note.target_id,
      body: expect.any(String),
      noteable_type: expect.any(String),
    });
    expect(all.some((e) => e.action_name === 'accepted')).toBe(true);
    expect(all.some((e) => e.action_name === 'closed')).toBe(true);
    expect(all.some((e) => e.action_name === 'opened')).toBe(true);
    expect(all.every((e) => e.author_username === e.author.username)).toBe(true);
  });

  it('filters by action, target_type, before/after dates and sorts ascending', async () => {
    const commented = await s.all(`/projects/${WEB}/events`, { query: { action: 'commented' } });
    expect(commented.every((e) => e.action_name === 'commented on')).toBe(true);
    const issues = await s.all(`/projects/${WEB}/events`, { query: { target_type: 'issue' } });
    expect(issues.every((e) => e.target_type === 'Issue')).toBe(true);
    const window = await s.all(`/projects/${WEB}/events`, { query: { after: '2026-02-25', before: '2026-03-01' } });
    expect(window.length).toBeGreaterThan(0);
    expect(window.every((e) => e.created_at > '2026-02-26' && e.created_at < '2026-03-01')).toBe(true);
    const asc = await s.all(`/projects/${WEB}/events`, { query: { sort: 'asc' } });
    expect(asc[0].created_at <= asc.at(-1).created_at).toBe(true);
    for (const query of [
      { action: 'danced' },
      { target_type: 'pipeline' },
      { before: 'tomorrow' },
      { sort: 'random' },
    ]) {
      expect((await s.get(`/projects/${WEB}/events`, { query })).status, JSON.stringify(query)).toBe(400);
    }
  });

  it("lists the caller's own events and a user's events by id or username", async () => {
    const mine = await s.all('/events', { as: 'bob' });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.author.username === 'bob')).toBe(true);
    const byName = await s.all('/users/alice/events', { as: 'bob' });
    const byId = await s.all('/users/2/events', { as: 'bob' });
    expect(byName).toEqual(byId);
    expect(byName.every((e) => e.author_id === 2)).toBe(true);
    expect((await s.get('/users/nobody/events')).data).toEqual({ message: '404 User Not Found' });
  });

  it("hides private projects' and confidential issues' events from those who may not see them", async () => {
    const secret = (await s.get(`/projects/${SECRET}`)).data.id;
    const aliceSees = await s.all('/users/alice/events', { as: 'alice' });
    const eveSees = await s.all('/users/alice/events', { as: 'eve' });
    expect(aliceSees.some((e) => e.project_id === secret)).toBe(true);
    expect(eveSees.some((e) => e.project_id === secret)).toBe(false);
    const confidential = (await s.all(`/projects/${WEB}/issues`)).find((i) => i.confidential);
    expect(
      eveSees
        .concat(await s.all(`/projects/${WEB}/events`, { as: 'eve' }))
        .some((e) => e.target_type === 'Issue' && e.target_id === confidential.id),
    ).toBe(false);
    expect((await s.get(`/projects/${SECRET}/events`, { as: 'eve' })).status).toBe(404);
  });
});

describe('users, keys and projects', () => {
  it('answers the current user and finds users by username', async () => {
    const me = await s.get('/user', { as: 'bob' });
    expect(me.data).toMatchObject({ id: 3, username: 'bob', name: 'Bob Brown', email: 'bob@demo.example' });
    const found = await s.get('/users', { query: { username: 'alice' } });
    expect(found.data).toEqual([
      {
        id: 2,
        name: 'Alice Anders',
        username: 'alice',
        state: 'active',
        avatar_url: expect.any(String),
        web_url: `${s.sim().url}/alice`,
      },
    ]);
    expect((await s.get('/users', { query: { username: 'nobody' } })).data).toEqual([]);
    expect((await s.get('/users/alice')).data.bio).toBe('Tech lead of the web shop.');
    expect((await s.get('/users/404404')).status).toBe(404);
  });

  it('shows a key with its owner to admins only (403), 404 for unknown keys', async () => {
    const key = await s.get('/keys/1', { as: 'root' });
    expect(key.status).toBe(200);
    expect(key.data).toMatchObject({ id: 1, key: expect.stringMatching(/^ssh-ed25519 /), can_push: false });
    expect(key.data.user).toMatchObject({
      username: 'alice',
      email: 'alice@demo.example',
      identities: [],
      two_factor_enabled: false,
    });
    expect((await s.get('/keys/1', { as: 'alice' })).status).toBe(403);
    expect((await s.get('/keys/999', { as: 'root' })).status).toBe(404);
  });

  it('answers a project by path or id, 404 when unknown or private to the caller', async () => {
    const web = await s.get(`/projects/${WEB}`);
    expect(web.data).toMatchObject({
      name: 'Web',
      path: 'web',
      path_with_namespace: 'demo/web',
      name_with_namespace: 'Demo / Web',
      default_branch: 'main',
      visibility: 'public',
      web_url: `${s.sim().url}/demo/web`,
      namespace: { path: 'demo', kind: 'group' },
    });
    expect((await s.get(`/projects/${web.data.id}`)).data.id).toBe(web.data.id);
    expect((await s.get(`/projects/${SECRET}`, { as: 'eve' })).data).toEqual({ message: '404 Project Not Found' });
    expect((await s.get(`/projects/${SECRET}`, { as: 'root' })).status).toBe(200);
    expect((await s.get('/projects/demo%2Fmissing')).status).toBe(404);
  });
});
