import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../src/gitlab/errors.js';
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

describe('todos', () => {
  it('lists todos with every filter', async () => {
    h.server.enqueue({ body: example('todos/01-get-list-todos') });
    const page = await h.client.todos.list({
      action: 'marked',
      author_id: 1,
      project_id: 2,
      state: 'pending',
      type: 'MergeRequest',
      per_page: 100,
    });
    expectRequest(h.only(), {
      method: 'GET',
      path: '/todos',
      query: {
        action: 'marked',
        author_id: '1',
        project_id: '2',
        state: 'pending',
        type: 'MergeRequest',
        per_page: '100',
      },
    });
    expect(page.items.map((todo) => todo.id)).toEqual([102, 98]);
    expect(page.items[0]?.project.path_with_namespace).toBe('gitlab-org/gitlab-ce');
  });

  it('marks one todo done', async () => {
    h.server.enqueue({ status: 201, body: example('todos/02-post-mark-todo-done') });
    const todo = await h.client.todos.markDone(130);
    expectRequest(h.only(), { method: 'POST', path: '/todos/130/mark_as_done' });
    expect(todo.state).toBe('done');
  });

  it('marks all todos done (204)', async () => {
    h.server.enqueue({ status: 204 });
    await expect(h.client.todos.markAllDone()).resolves.toBeUndefined();
    expectRequest(h.only(), { method: 'POST', path: '/todos/mark_as_done' });
  });
});

describe('events', () => {
  const filters = {
    action: 'created',
    target_type: 'issue',
    after: '2017-01-31',
    before: '2017-03-01',
    sort: 'asc',
  } as const;

  it('lists the current user’s events with filters', async () => {
    h.server.enqueue({ body: example('events/01-get-list-current-user-events') });
    const page = await h.client.events.listForCurrentUser({ ...filters, page: 2 });
    expectRequest(h.only(), { method: 'GET', path: '/events', query: { ...filters, page: '2' } });
    expect(page.items[0]).toMatchObject({ action_name: 'opened', target_id: 160, author_username: 'user3' });
  });

  it('lists a user’s events by username', async () => {
    h.server.enqueue({ body: example('events/02-get-list-user-events') });
    const page = await h.client.events.listForUser('root', { sort: 'desc' });
    expectRequest(h.only(), { method: 'GET', path: '/users/root/events', query: { sort: 'desc' } });
    expect(page.items).toHaveLength(4);
  });

  it('lists a user’s events by id', async () => {
    h.server.enqueue({ body: [] });
    await h.client.events.listForUser(25);
    expectRequest(h.only(), { method: 'GET', path: '/users/25/events' });
  });

  it('says an unknown user is not found', async () => {
    h.server.enqueue({ status: 404, body: { message: '404 User Not Found' } });
    await expect(h.client.events.listForUser('nobody')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists a project’s events', async () => {
    h.server.enqueue({ body: example('events/03-get-list-project-events') });
    const page = await h.client.events.listForProject('demo/web', filters);
    expectRequest(h.only(), { method: 'GET', path: '/projects/demo%2Fweb/events', query: { ...filters } });
    expect(page.items[2]?.note?.noteable_iid).toBe(377);
    expect(page.items[2]).not.toHaveProperty('data');
  });
});

describe('keys, projects and users', () => {
  it('gets a key with its owner', async () => {
    h.server.enqueue({ body: example('keys/01-get-key-with-user') });
    const key = await h.client.keys.get(1);
    expectRequest(h.only(), { method: 'GET', path: '/keys/1' });
    expect(key).toMatchObject({ id: 1, title: 'Sample key 25', user: { username: 'john_smith', name: 'John Smith' } });
  });

  it('gets a project by path, to check it and learn its id', async () => {
    const project = {
      id: 3,
      name: 'web',
      name_with_namespace: 'demo / web',
      path: 'web',
      path_with_namespace: 'demo/web',
      default_branch: 'main',
      visibility: 'public',
      web_url: 'http://x/demo/web',
    };
    h.server.enqueue({ body: project });
    await expect(h.client.projects.get('demo/web')).resolves.toEqual(project);
    expectRequest(h.only(), { method: 'GET', path: '/projects/demo%2Fweb' });
  });

  it('gets a project by id', async () => {
    h.server.enqueue({ status: 404, body: { message: '404 Project Not Found' } });
    await expect(h.client.projects.get(99)).rejects.toBeInstanceOf(NotFoundError);
    expectRequest(h.only(), { method: 'GET', path: '/projects/99' });
  });

  it('finds a user by username', async () => {
    const user = {
      id: 2,
      username: 'alice',
      name: 'Alice',
      state: 'active',
      avatar_url: null,
      web_url: 'http://x/alice',
    };
    h.server.enqueue({ body: [user] });
    await expect(h.client.users.findByUsername('alice')).resolves.toEqual(user);
    expectRequest(h.only(), { method: 'GET', path: '/users', query: { username: 'alice' } });
  });

  it('gives null for a username nobody has', async () => {
    h.server.enqueue({ body: [] });
    await expect(h.client.users.findByUsername('ghost')).resolves.toBeNull();
  });
});
