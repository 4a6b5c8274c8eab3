import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotAcceptableError, NotAllowedError, UnauthorizedError } from '../../../src/gitlab/errors.js';
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

const P = '/projects/demo%2Fweb/merge_requests';
const simple = {
  id: 1,
  iid: 1,
  project_id: 3,
  title: 'test1',
  description: null,
  state: 'opened',
  web_url: 'http://x/1',
};

describe('merge request lists', () => {
  it('lists the caller’s merge requests (GET /merge_requests) with the list flags', async () => {
    h.server.enqueue({ body: example('merge_requests/01-get-list-merge-requests') });
    const page = await h.client.mergeRequests.listAll({
      state: 'opened',
      order_by: 'created_at',
      sort: 'desc',
      milestone: 'v2.0',
      labels: ['bug', 'backend'],
      created_after: '2026-01-01',
      created_before: '2026-02-01',
      scope: 'all',
      author_id: 1,
      assignee_id: 2,
      page: 3,
      per_page: 10,
    });
    expectRequest(h.only(), {
      method: 'GET',
      path: '/merge_requests',
      query: {
        state: 'opened',
        order_by: 'created_at',
        sort: 'desc',
        milestone: 'v2.0',
        labels: 'bug,backend',
        created_after: '2026-01-01',
        created_before: '2026-02-01',
        scope: 'all',
        author_id: '1',
        assignee_id: '2',
        page: '3',
        per_page: '10',
      },
    });
    expect(page.items[0]).toMatchObject({ id: 1, merge_status: 'can_be_merged', author: { username: 'admin' } });
  });

  it('lists with view=simple and parses the reduced shape', async () => {
    h.server.enqueue({ body: [simple] });
    const page = await h.client.mergeRequests.listAll({ view: 'simple' });
    expectRequest(h.only(), { method: 'GET', path: '/merge_requests', query: { view: 'simple' } });
    expect(page.items).toEqual([simple]);
  });

  it('lists a project’s merge requests by iids[]', async () => {
    h.server.enqueue({ body: example('merge_requests/02-get-list-project-merge-requests') });
    const page = await h.client.mergeRequests.listForProject('demo/web', { iids: [1, 2], state: 'all' });
    expectRequest(h.only(), { method: 'GET', path: P, query: { 'iids[]': ['1', '2'], state: 'all' } });
    expect(page.items).toHaveLength(1);
  });

  it('lists a project’s merge requests in the simple view', async () => {
    h.server.enqueue({ body: [simple] });
    const page = await h.client.mergeRequests.listForProject(3, { view: 'simple' });
    expectRequest(h.only(), { method: 'GET', path: '/projects/3/merge_requests', query: { view: 'simple' } });
    expect(page.items[0]?.web_url).toBe('http://x/1');
  });
});

describe('one merge request', () => {
  it('gets a merge request', async () => {
    h.server.enqueue({ body: example('merge_requests/03-get-single-mr') });
    const mr = await h.client.mergeRequests.get('demo/web', 1);
    expectRequest(h.only(), { method: 'GET', path: `${P}/1` });
    expect(mr).toMatchObject({ iid: 1, state: 'merged', sha: '8888888888888888888888888888888888888888' });
  });

  it('creates a merge request', async () => {
    h.server.enqueue({ status: 201, body: example('merge_requests/06-post-create-mr') });
    const mr = await h.client.mergeRequests.create('demo/web', {
      source_branch: 'test1',
      target_branch: 'master',
      title: 'test1',
      description: 'fixed login page css paddings',
      assignee_id: 1,
      labels: ['ui'],
      milestone_id: 5,
      target_project_id: 4,
      remove_source_branch: true,
    });
    expectRequest(h.only(), {
      method: 'POST',
      path: P,
      form: {
        source_branch: 'test1',
        target_branch: 'master',
        title: 'test1',
        description: 'fixed login page css paddings',
        assignee_id: '1',
        labels: 'ui',
        milestone_id: '5',
        target_project_id: '4',
        remove_source_branch: 'true',
      },
    });
    expect(mr.source_branch).toBe('test1');
  });

  it('edits a merge request', async () => {
    h.server.enqueue({ body: example('merge_requests/07-put-update-mr') });
    const mr = await h.client.mergeRequests.edit('demo/web', 1, {
      description: 'description1',
      state_event: 'reopen',
      remove_source_branch: false,
    });
    expectRequest(h.only(), {
      method: 'PUT',
      path: `${P}/1`,
      form: { description: 'description1', state_event: 'reopen', remove_source_branch: 'false' },
    });
    expect(mr.description).toBe('description1');
    expect(mr.source_branch).toBeUndefined();
  });

  it('deletes a merge request (204)', async () => {
    h.server.enqueue({ status: 204 });
    await h.client.mergeRequests.remove('demo/web', 1);
    expectRequest(h.only(), { method: 'DELETE', path: `${P}/1` });
  });
});

describe('merging', () => {
  it('merges pinned to a sha with the contract’s parameters', async () => {
    h.server.enqueue({ body: example('merge_requests/08-put-accept-mr') });
    const mr = await h.client.mergeRequests.merge('demo/web', 1, {
      sha: '8888888888888888888888888888888888888888',
      merge_commit_message: 'Ship it',
      should_remove_source_branch: true,
      merge_when_pipeline_succeeds: false,
    });
    expectRequest(h.only(), {
      method: 'PUT',
      path: `${P}/1/merge`,
      form: {
        sha: '8888888888888888888888888888888888888888',
        merge_commit_message: 'Ship it',
        should_remove_source_branch: 'true',
        merge_when_pipeline_succeeds: 'false',
      },
    });
    expect(mr).toMatchObject({ state: 'merged', merge_commit_sha: '9999999999999999999999999999999999999999' });
  });

  it.each([
    [405, NotAllowedError, 'Method Not Allowed'],
    [406, NotAcceptableError, 'Branch cannot be merged'],
    [409, ConflictError, 'SHA does not match HEAD of source branch: 1234'],
    [401, UnauthorizedError, '401 Unauthorized'],
  ] as const)('reports %i from merge as %o', async (status, type, message) => {
    h.server.enqueue({ status, body: { message } });
    const error = await h.client.mergeRequests.merge('demo/web', 1, { sha: 'abc' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect((error as Error & { serverMessage: string }).serverMessage).toBe(message);
    expect(h.server.requests).toHaveLength(1);
  });
});

describe('cancelling merge when pipeline succeeds', () => {
  const route = `${P}/1/cancel_merge_when_pipeline_succeeds`;

  it('sends PUT and returns the merge request when the server follows the contract', async () => {
    h.server.enqueue({ body: example('merge_requests/09-put-cancel-merge-when-pipeline-succeeds') });
    const mr = await h.client.mergeRequests.cancelMergeWhenPipelineSucceeds('demo/web', 1);
    expectRequest(h.only(), { method: 'PUT', path: route });
    expect(mr?.iid).toBe(1);
  });

  it.each([404, 405])('falls back to POST once after %i and accepts 9.5’s status hash', async (status) => {
    h.server.enqueue({ status, body: { error: `${status} Not Found` } }, { status: 201, body: { status: 'success' } });
    const mr = await h.client.mergeRequests.cancelMergeWhenPipelineSucceeds('demo/web', 1);
    expect(mr).toBeNull();
    expect(h.server.requests).toHaveLength(2);
    expectRequest(h.server.requests[0]!, { method: 'PUT', path: route });
    expectRequest(h.server.requests[1]!, { method: 'POST', path: route });
  });

  it('turns 9.5’s 201 error hash into a NotAcceptableError', async () => {
    h.server.enqueue(
      { status: 405 },
      { status: 201, body: { message: "Can't cancel the automatic merge", status: 'error', http_status: 406 } },
    );
    const error = await h.client.mergeRequests.cancelMergeWhenPipelineSucceeds('demo/web', 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAcceptableError);
    expect(error).toMatchObject({
      status: 406,
      method: 'POST',
      path: route,
      serverMessage: "Can't cancel the automatic merge",
    });
  });

  it('keeps the PUT’s answer when POST has no route either (already merged or closed)', async () => {
    h.server.enqueue(
      { status: 405, body: { message: '405 Method Not Allowed' } },
      { status: 404, body: { error: '404 Not Found' } },
    );
    const error = await h.client.mergeRequests.cancelMergeWhenPipelineSucceeds('demo/web', 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAllowedError);
    expect(error).toMatchObject({ method: 'PUT', serverMessage: '405 Method Not Allowed' });
    expect(h.server.requests.map((request) => request.method)).toEqual(['PUT', 'POST']);
  });

  it('does not fall back on other errors: 406 not set to merge when the pipeline succeeds', async () => {
    h.server.enqueue({ status: 406, body: { message: '406 Not Acceptable' } });
    await expect(h.client.mergeRequests.cancelMergeWhenPipelineSucceeds('demo/web', 1)).rejects.toBeInstanceOf(
      NotAcceptableError,
    );
    expect(h.server.requests).toHaveLength(1);
  });

  it('reports the POST’s own error after a fallback (401 may not cancel)', async () => {
    h.server.enqueue({ status: 405 }, { status: 401, body: { message: '401 Unauthorized' } });
    await expect(h.client.mergeRequests.cancelMergeWhenPipelineSucceeds('demo/web', 1)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });
});

describe('what a merge request contains', () => {
  it('lists its commits', async () => {
    h.server.enqueue({ body: example('merge_requests/04-get-mr-commits') });
    const page = await h.client.mergeRequests.commits('demo/web', 1);
    expectRequest(h.only(), { method: 'GET', path: `${P}/1/commits` });
    expect(page.items.map((commit) => commit.short_id)).toEqual(['ed899a2f4b5', '6104942438c']);
  });

  it('reads its changes', async () => {
    h.server.enqueue({ body: example('merge_requests/05-get-mr-changes') });
    const mr = await h.client.mergeRequests.changes('demo/web', 1);
    expectRequest(h.only(), { method: 'GET', path: `${P}/1/changes` });
    expect(mr.changes[0]).toMatchObject({ old_path: 'VERSION', diff: expect.stringContaining('+1.9.8') });
  });

  it('lists its versions', async () => {
    h.server.enqueue({ body: example('merge_requests/15-get-mr-versions') });
    const page = await h.client.mergeRequests.versions('demo/web', 1);
    expectRequest(h.only(), { method: 'GET', path: `${P}/1/versions` });
    expect(page.items.map((version) => version.id)).toEqual([110, 108]);
  });

  it('reads one version with commits and diffs', async () => {
    h.server.enqueue({ body: example('merge_requests/16-get-mr-version') });
    const version = await h.client.mergeRequests.version('demo/web', 1, 110);
    expectRequest(h.only(), { method: 'GET', path: `${P}/1/versions/110` });
    expect(version.commits).toHaveLength(3);
    expect(version.diffs[0]?.new_file).toBe(true);
  });

  it('lists the issues it closes', async () => {
    h.server.enqueue({ body: example('merge_requests/10-get-closes-issues') });
    const page = await h.client.mergeRequests.closesIssues('demo/web', 1);
    expectRequest(h.only(), { method: 'GET', path: `${P}/1/closes_issues` });
    expect(page.items[0]).toMatchObject({ id: 76, iid: 6 });
  });

  it('lists the external-tracker issues it closes', async () => {
    h.server.enqueue({ body: example('merge_requests/11-get-closes-issues-external-tracker') });
    const page = await h.client.mergeRequests.closesIssues('demo/web', 1);
    expect(page.items).toEqual([{ id: 'PROJECT-123', title: 'Title of this issue' }]);
  });
});

describe('merge request subscriptions and todos', () => {
  it('subscribes, and is unchanged when already subscribed', async () => {
    h.server.enqueue({ status: 201, body: example('merge_requests/12-post-subscribe-mr') }, { status: 304 });
    const first = await h.client.mergeRequests.subscribe('demo/web', 17);
    const second = await h.client.mergeRequests.subscribe('demo/web', 17);
    expectRequest(h.server.requests[0]!, { method: 'POST', path: `${P}/17/subscribe` });
    expect(first.changed && first.value.subscribed).toBe(true);
    expect(second).toEqual({ changed: false });
  });

  it('unsubscribes', async () => {
    h.server.enqueue({ status: 201, body: example('merge_requests/13-post-unsubscribe-mr') });
    const result = await h.client.mergeRequests.unsubscribe('demo/web', 17);
    expectRequest(h.only(), { method: 'POST', path: `${P}/17/unsubscribe` });
    expect(result.changed && result.value.subscribed).toBe(false);
  });

  it('adds a todo', async () => {
    h.server.enqueue({ status: 201, body: example('merge_requests/14-post-create-todo-mr') });
    const result = await h.client.mergeRequests.createTodo('demo/web', 27);
    expectRequest(h.only(), { method: 'POST', path: `${P}/27/todo` });
    if (!result.changed || result.value.target_type !== 'MergeRequest')
      throw new Error('expected a merge request todo');
    expect(result.value.target.iid).toBe(7);
  });

  it('answers unchanged when the todo exists', async () => {
    h.server.enqueue({ status: 304 });
    await expect(h.client.mergeRequests.createTodo('demo/web', 27)).resolves.toEqual({ changed: false });
  });
});

describe('merge request time tracking', () => {
  it('sets the estimate', async () => {
    h.server.enqueue({ body: example('merge_requests/17-post-time-estimate') });
    const stats = await h.client.mergeRequests.setTimeEstimate('demo/web', 1, '3h30m');
    expectRequest(h.only(), { method: 'POST', path: `${P}/1/time_estimate`, form: { duration: '3h30m' } });
    expect(stats.time_estimate).toBe(12600);
  });

  it('resets the estimate', async () => {
    h.server.enqueue({ body: example('merge_requests/18-post-reset-time-estimate') });
    const stats = await h.client.mergeRequests.resetTimeEstimate('demo/web', 1);
    expectRequest(h.only(), { method: 'POST', path: `${P}/1/reset_time_estimate` });
    expect(stats.human_time_estimate).toBeNull();
  });

  it('adds spent time', async () => {
    h.server.enqueue({ status: 201, body: example('merge_requests/19-post-add-spent-time') });
    const stats = await h.client.mergeRequests.addSpentTime('demo/web', 1, '1h');
    expectRequest(h.only(), { method: 'POST', path: `${P}/1/add_spent_time`, form: { duration: '1h' } });
    expect(stats.human_total_time_spent).toBe('1h');
  });

  it('resets spent time', async () => {
    h.server.enqueue({ body: example('merge_requests/20-post-reset-spent-time') });
    const stats = await h.client.mergeRequests.resetSpentTime('demo/web', 1);
    expectRequest(h.only(), { method: 'POST', path: `${P}/1/reset_spent_time` });
    expect(stats.total_time_spent).toBe(0);
  });

  it('reads the time stats', async () => {
    h.server.enqueue({ body: example('merge_requests/21-get-time-stats') });
    const stats = await h.client.mergeRequests.timeStats('demo/web', 1);
    expectRequest(h.only(), { method: 'GET', path: `${P}/1/time_stats` });
    expect(stats.time_estimate).toBe(7200);
  });
});
