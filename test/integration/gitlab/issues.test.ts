import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BadRequestError, ForbiddenError } from '../../../src/gitlab/errors.js';
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

const P = '/projects/demo%2Fweb/issues';

describe('issue lists', () => {
  it('lists the caller’s issues (GET /issues) with every list flag', async () => {
    h.server.enqueue({ body: example('issues/01-get-list-issues'), headers: { 'x-next-page': '2' } });
    const page = await h.client.issues.listAll({
      state: 'opened',
      labels: ['bug', 'ui'],
      milestone: 'v4.0',
      scope: 'assigned-to-me',
      author_id: 18,
      assignee_id: 1,
      iids: [6, 7],
      search: 'login page',
      order_by: 'updated_at',
      sort: 'asc',
      created_after: '2026-01-01',
      created_before: '2026-02-01T00:00:00Z',
      page: 1,
      per_page: 20,
    });
    expectRequest(h.only(), {
      method: 'GET',
      path: '/issues',
      query: {
        state: 'opened',
        labels: 'bug,ui',
        milestone: 'v4.0',
        scope: 'assigned-to-me',
        author_id: '18',
        assignee_id: '1',
        'iids[]': ['6', '7'],
        search: 'login page',
        order_by: 'updated_at',
        sort: 'asc',
        created_after: '2026-01-01',
        created_before: '2026-02-01T00:00:00Z',
        page: '1',
        per_page: '20',
      },
    });
    expect(page.nextPage).toBe(2);
    expect(page.items[0]).toMatchObject({ id: 76, iid: 6, upvotes: 0, downvotes: 0, due_date: '2016-07-22' });
  });

  it('lists a group’s issues, sending No Label for issues without labels', async () => {
    h.server.enqueue({ body: example('issues/02-get-list-group-issues') });
    const page = await h.client.issues.listForGroup('acme/platform', { labels: 'No Label' });
    expectRequest(h.only(), { method: 'GET', path: '/groups/acme%2Fplatform/issues', query: { labels: 'No Label' } });
    expect(page.items[0]?.assignees.map((user) => user.username)).toEqual(['lennie']);
  });

  it('lists a project’s issues', async () => {
    h.server.enqueue({ body: example('issues/03-get-list-project-issues') });
    const page = await h.client.issues.listForProject('demo/web', { state: 'closed' });
    expectRequest(h.only(), { method: 'GET', path: P, query: { state: 'closed' } });
    expect(page.items[0]?.state).toBe('closed');
  });
});

describe('one issue', () => {
  it('gets an issue', async () => {
    h.server.enqueue({ body: example('issues/04-get-single-issue') });
    const issue = await h.client.issues.get('demo/web', 41);
    expectRequest(h.only(), { method: 'GET', path: `${P}/41` });
    expect(issue).toMatchObject({ id: 41, subscribed: false, milestone: { title: 'v3.0' } });
  });

  it('creates an issue with arrays as name[] and labels comma-separated', async () => {
    h.server.enqueue({ status: 201, body: example('issues/05-post-create-issue') });
    const issue = await h.client.issues.create('demo/web', {
      title: 'Issues with auth',
      description: 'It breaks',
      labels: ['bug'],
      assignee_ids: [1, 2],
      milestone_id: 3,
      due_date: '2026-12-01',
      confidential: true,
      created_at: '2026-01-01T10:00:00Z',
      merge_request_to_resolve_discussions_of: 4,
      discussion_to_resolve: 'abc123',
    });
    expectRequest(h.only(), {
      method: 'POST',
      path: P,
      form: {
        title: 'Issues with auth',
        description: 'It breaks',
        labels: 'bug',
        'assignee_ids[]': ['1', '2'],
        milestone_id: '3',
        due_date: '2026-12-01',
        confidential: 'true',
        created_at: '2026-01-01T10:00:00Z',
        merge_request_to_resolve_discussions_of: '4',
        discussion_to_resolve: 'abc123',
      },
    });
    expect(issue).toMatchObject({ id: 84, iid: 14, labels: ['bug'], assignees: [], assignee: null });
  });

  it('edits an issue (closing it with state_event)', async () => {
    h.server.enqueue({ body: example('issues/06-put-edit-issue') });
    const issue = await h.client.issues.edit('demo/web', 85, {
      state_event: 'close',
      confidential: false,
      updated_at: '2026-01-02T00:00:00Z',
    });
    expectRequest(h.only(), {
      method: 'PUT',
      path: `${P}/85`,
      form: { state_event: 'close', confidential: 'false', updated_at: '2026-01-02T00:00:00Z' },
    });
    expect(issue.state).toBe('closed');
  });

  it('deletes an issue (204)', async () => {
    h.server.enqueue({ status: 204 });
    await expect(h.client.issues.remove('demo/web', 85)).resolves.toBeUndefined();
    expectRequest(h.only(), { method: 'DELETE', path: `${P}/85` });
  });

  it('moves an issue to another project by id', async () => {
    h.server.enqueue({ status: 201, body: example('issues/07-post-move-issue') });
    const issue = await h.client.issues.move('demo/web', 11, { to_project_id: 5 });
    expectRequest(h.only(), { method: 'POST', path: `${P}/11/move`, form: { to_project_id: '5' } });
    expect(issue.project_id).toBe(5);
  });

  it('reports a refused move as a bad request with the server’s words', async () => {
    h.server.enqueue({ status: 400, body: { message: 'Cannot move issue to project it originates from!' } });
    const error = await h.client.issues.move('demo/web', 11, { to_project_id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).serverMessage).toBe('Cannot move issue to project it originates from!');
  });
});

describe('issue subscriptions and todos', () => {
  it('subscribes (201 → changed, with the issue)', async () => {
    h.server.enqueue({ status: 201, body: example('issues/08-post-subscribe-issue') });
    const result = await h.client.issues.subscribe('demo/web', 11);
    expectRequest(h.only(), { method: 'POST', path: `${P}/11/subscribe` });
    expect(result.changed && result.value.iid).toBe(11);
  });

  it('subscribing when already subscribed answers unchanged (304)', async () => {
    h.server.enqueue({ status: 304 });
    await expect(h.client.issues.subscribe('demo/web', 11)).resolves.toEqual({ changed: false });
  });

  it('unsubscribes, and a second time is unchanged', async () => {
    h.server.enqueue({ status: 201, body: example('issues/08-post-subscribe-issue') }, { status: 304 });
    const first = await h.client.issues.unsubscribe('demo/web', 11);
    const second = await h.client.issues.unsubscribe('demo/web', 11);
    expectRequest(h.server.requests[0]!, { method: 'POST', path: `${P}/11/unsubscribe` });
    expect(first.changed).toBe(true);
    expect(second).toEqual({ changed: false });
  });

  it('adds a todo, and answers unchanged when one exists', async () => {
    h.server.enqueue({ status: 201, body: example('issues/09-post-create-todo-issue') }, { status: 304 });
    const created = await h.client.issues.createTodo('demo/web', 93);
    const again = await h.client.issues.createTodo('demo/web', 93);
    expectRequest(h.server.requests[0]!, { method: 'POST', path: `${P}/93/todo` });
    if (!created.changed) throw new Error('expected a new todo');
    expect(created.value).toMatchObject({ id: 112, target_type: 'Issue', action_name: 'marked', state: 'pending' });
    expect(again).toEqual({ changed: false });
  });
});

describe('issue time tracking', () => {
  it('sets the estimate with a duration', async () => {
    h.server.enqueue({ body: example('issues/10-post-time-estimate') });
    const stats = await h.client.issues.setTimeEstimate('demo/web', 1, '3h30m');
    expectRequest(h.only(), { method: 'POST', path: `${P}/1/time_estimate`, form: { duration: '3h30m' } });
    expect(stats).toEqual({
      human_time_estimate: '3h 30m',
      human_total_time_spent: null,
      time_estimate: 12600,
      total_time_spent: 0,
    });
  });

  it('resets the estimate', async () => {
    h.server.enqueue({ body: example('issues/11-post-reset-time-estimate') });
    const stats = await h.client.issues.resetTimeEstimate('demo/web', 1);
    expectRequest(h.only(), { method: 'POST', path: `${P}/1/reset_time_estimate` });
    expect(stats.time_estimate).toBe(0);
  });

  it('adds spent time', async () => {
    h.server.enqueue({ status: 201, body: example('issues/12-post-add-spent-time') });
    const stats = await h.client.issues.addSpentTime('demo/web', 1, '1h');
    expectRequest(h.only(), { method: 'POST', path: `${P}/1/add_spent_time`, form: { duration: '1h' } });
    expect(stats.total_time_spent).toBe(3600);
  });

  it('reports a bad duration as a bad request', async () => {
    h.server.enqueue({ status: 400, body: { message: 'Invalid duration' } });
    await expect(h.client.issues.addSpentTime('demo/web', 1, 'soon')).rejects.toBeInstanceOf(BadRequestError);
  });

  it('resets spent time', async () => {
    h.server.enqueue({ body: example('issues/13-post-reset-spent-time') });
    const stats = await h.client.issues.resetSpentTime('demo/web', 1);
    expectRequest(h.only(), { method: 'POST', path: `${P}/1/reset_spent_time` });
    expect(stats.total_time_spent).toBe(0);
  });

  it('reads the time stats', async () => {
    h.server.enqueue({ body: example('issues/14-get-time-stats') });
    const stats = await h.client.issues.timeStats('demo/web', 1);
    expectRequest(h.only(), { method: 'GET', path: `${P}/1/time_stats` });
    expect(stats).toMatchObject({ human_time_estimate: '2h', human_total_time_spent: '1h' });
  });
});

describe('what is known about an issue', () => {
  it('lists the merge requests that close it', async () => {
    h.server.enqueue({ body: example('issues/15-get-closed-by') });
    const page = await h.client.issues.closedBy('demo/web', 11, { per_page: 5 });
    expectRequest(h.only(), { method: 'GET', path: `${P}/11/closed_by`, query: { per_page: '5' } });
    expect(page.items[0]).toMatchObject({ id: 6471, iid: 6432, source_branch: 'feature.custom-highlighting' });
  });

  it('reads the user agent detail', async () => {
    h.server.enqueue({ body: example('issues/16-get-user-agent-detail') });
    const detail = await h.client.issues.userAgentDetail('demo/web', 11);
    expectRequest(h.only(), { method: 'GET', path: `${P}/11/user_agent_detail` });
    expect(detail).toEqual({ user_agent: 'AppleWebKit/537.36', ip_address: '127.0.0.1', akismet_submitted: false });
  });

  it('says the user agent detail is for admins only (403)', async () => {
    h.server.enqueue({ status: 403, body: { message: '403 Forbidden' } });
    await expect(h.client.issues.userAgentDetail('demo/web', 11)).rejects.toBeInstanceOf(ForbiddenError);
  });
});
