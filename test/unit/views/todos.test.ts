import { describe, expect, it } from 'vitest';
import { type Todo, TodoSchema } from '../../../src/gitlab/schemas.js';
import { findLimitViolations } from '../../../src/views/limits.js';
import { toMrkdwn } from '../../../src/views/mrkdwn.js';
import { buildTodoList, todoRow, todoWhy } from '../../../src/views/todos.js';

// Todo rows and lists as digests and the Home tab reuse them: why each is a todo, its Done button (with the
// list and owner it belongs to), and a page of long todos within Slack's limits.

const SERVER = 'https://gl.example.com';
const NOW = new Date('2026-03-02T10:00:00Z');
const user = (username: string) => ({ id: 3, name: username, username, state: 'active' });

function todo(fields: Record<string, unknown> = {}): Todo {
  const title = (fields.title as string | undefined) ?? 'Cart total is off';
  return TodoSchema.parse({
    id: 7,
    project: { id: 1, name: 'Web', name_with_namespace: 'Demo / Web', path: 'web', path_with_namespace: 'demo/web' },
    author: user('bob'),
    action_name: 'assigned',
    target_type: 'Issue',
    target: {
      id: 104,
      iid: 4,
      project_id: 1,
      title,
      description: null,
      state: 'opened',
      created_at: '2026-02-01T00:00:00Z',
      updated_at: '2026-02-01T00:00:00Z',
      labels: [],
      milestone: null,
      author: user('bob'),
    },
    target_url: `${SERVER}/demo/web/issues/4`,
    body: title,
    state: 'pending',
    created_at: '2026-03-02T07:00:00Z',
    ...fields,
  });
}

type Section = { text: { text: string }; accessory?: { text: { text: string }; value: string; action_id: string } };

describe('todoWhy', () => {
  it.each([
    ['assigned', 'Assigned to you by @bob'],
    ['mentioned', 'Mentioned by @bob'],
    ['directly_addressed', 'Addressed to you by @bob'],
    ['marked', 'Added by @bob'],
    ['approval_required', 'Approval asked by @bob'],
    ['build_failed', 'Build failed · @bob'],
    ['unmergeable', 'Can no longer be merged · @bob'],
    ['review_requested', 'Review requested · @bob'],
  ])('says why a todo is there (%s)', (action, words) => {
    expect(toMrkdwn(todoWhy({ action_name: action, author: user('bob') }))).toBe(words);
  });
});

describe('todoRow', () => {
  it('links what the todo is about, says why, who and when, and carries Done with its list and owner', () => {
    const row = todoRow(todo(), {
      serverUrl: SERVER,
      now: NOW,
      place: { query: 'todos --type Issue', page: 2 },
      owner: 'U0ALICE',
      slot: 3,
    }) as Section;
    expect(row.text.text).toBe(
      `*<${SERVER}/demo/web/issues/4|demo/web#4>* Cart total is off\nAssigned to you by @bob · 2 Mar 2026, 07:00 UTC · 3 hours ago`,
    );
    expect(row.accessory?.text.text).toBe('Done');
    expect(row.accessory?.action_id).toBe('gl:todo.done#3');
    expect(JSON.parse(row.accessory?.value ?? '')).toEqual({ t: 7, o: 'U0ALICE', q: 'todos --type Issue', n: 2 });
  });

  it('quotes the comment that made a mention a todo, on one line', () => {
    const row = todoRow(todo({ action_name: 'mentioned', body: '@alice look\nhere <!channel>' }), {
      serverUrl: SERVER,
      now: NOW,
    }) as Section;
    expect(row.text.text).toContain('\n_“@alice look here &lt;!channel&gt;”_');
    expect(JSON.parse(row.accessory?.value ?? '')).toEqual({ t: 7 });
  });

  it('writes short references for rows grouped under their project, and has no Done once done', () => {
    const row = todoRow(todo({ state: 'done' }), { serverUrl: SERVER, now: NOW, short: true }) as Section;
    expect(row.text.text).toMatch(/^:white_check_mark: \*<[^|]+\|#4>\*/);
    expect(row.accessory).toBeUndefined();
  });

  it('reads merge request and commit todos', () => {
    const mr = todoRow(
      todo({
        target_type: 'MergeRequest',
        target: {
          ...todo().target,
          iid: 3,
          target_branch: 'main',
          upvotes: 0,
          downvotes: 0,
          assignee: null,
          source_project_id: 1,
          target_project_id: 1,
          work_in_progress: false,
          merge_when_pipeline_succeeds: false,
          merge_status: 'can_be_merged',
        },
      }),
      { serverUrl: SERVER, now: NOW },
    ) as Section;
    expect(mr.text.text).toContain('|demo/web!3>*');
    const commit = todoRow(
      todo({
        action_name: 'build_failed',
        target_type: 'Commit',
        target: {
          id: 'a'.repeat(40),
          short_id: 'aaaaaaaa',
          title: 'Fix',
          message: 'Fix',
          author_name: 'Bob',
          author_email: 'bob@example.com',
          created_at: '2026-03-01T00:00:00Z',
        },
        body: 'Fix',
      }),
      { serverUrl: SERVER, now: NOW },
    ) as Section;
    expect(commit.text.text).toContain('|demo/web@aaaaaaaa>* Fix\nBuild failed · @bob');
  });
});

describe('buildTodoList', () => {
  const ctx = { serverUrl: SERVER, now: NOW, timeZone: 'UTC' };

  it('ends with Mark all done and its own Next page, both carrying the owner', () => {
    const m = buildTodoList(
      [todo()],
      { page: 1, nextPage: 2, total: 2 },
      {
        title: 'Your todos',
        filters: '',
        place: { query: 'todos --per-page 1', page: 1 },
        ctx,
        owner: 'U0ALICE',
        pending: true,
      },
    );
    const last = m.blocks?.at(-1) as { elements: { text: { text: string }; value: string; action_id: string }[] };
    expect(last.elements.map((e) => [e.text.text, e.action_id, JSON.parse(e.value)])).toEqual([
      ['Mark all done', 'gl:todo.doneAll', { o: 'U0ALICE', q: 'todos --per-page 1', n: 1 }],
      ['Next page', 'gl:todo.page', { o: 'U0ALICE', q: 'todos --per-page 1', n: 2 }],
    ]);
    expect(JSON.stringify(m.blocks)).not.toContain('gl:list.page');
  });

  it('fits 40 long todos within Slack’s limits', () => {
    const long = todo({ title: 'x'.repeat(3000), action_name: 'mentioned', body: 'y'.repeat(3000) });
    const m = buildTodoList(
      Array.from({ length: 40 }, () => long),
      { page: 1, nextPage: 2, total: 100 },
      {
        title: 'Your todos',
        filters: 'Filters: --type Issue',
        place: { query: `todos ${'--type Issue '.repeat(90)}`, page: 1 },
        ctx,
        owner: 'U0ALICE',
        pending: true,
      },
    );
    expect(findLimitViolations(m)).toEqual([]);
  });
});
