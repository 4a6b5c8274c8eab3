import { describe, expect, it } from 'vitest';
import type { Event, Todo } from '../../../src/gitlab/schemas.js';
import type { Digest } from '../../../src/store/digest-store.js';
import type { CardContext } from '../../../src/views/common.js';
import { buildDigestCard, buildDigestRunning } from '../../../src/views/digest-cards.js';
import { buildEventsDigest, buildTodosDigest } from '../../../src/views/digest-posts.js';
import { findLimitViolations } from '../../../src/views/limits.js';
import { done, noticeBlocks } from '../../../src/views/notice.js';
import { messageText } from '../../support/slack-driver.js';

// A posted digest stays one message inside Slack's limits however much happened: the oldest lines give way to
// an "…and N more" line with a link, and every string from the server is escaped.

const SERVER = 'https://gitlab.example.com';

const digest = (o: Partial<Digest> = {}): Digest => ({
  id: 7,
  teamId: 'T',
  ownerId: 'U0ALICE',
  channelId: 'C0ONE',
  inDm: false,
  kind: 'project_events',
  project: { id: 1, path: 'demo/web' },
  user: null,
  action: null,
  targetType: null,
  environment: null,
  cron: '0 9 * * *',
  tz: 'Europe/Berlin',
  active: true,
  pausedReason: null,
  pausedBy: null,
  createdAt: new Date('2026-03-01T00:00:00Z'),
  lastRunAt: null,
  lastResult: null,
  lastItems: null,
  lastPostTs: null,
  nextRunAt: null,
  cursor: { at: '2026-03-01T00:00:00.000Z', keys: [] },
  ...o,
});

function opened(i: number, title = `Issue number ${i} with a title long enough to take some room in a line`): Event {
  return {
    title: null,
    project_id: 1,
    action_name: 'opened',
    target_id: 1000 + i,
    target_iid: i,
    target_type: 'Issue',
    author_id: 2,
    target_title: title,
    created_at: new Date(Date.parse('2026-03-01T01:00:00Z') + i * 60_000).toISOString(),
    author_username: 'bob',
  };
}

const span = { since: new Date('2026-03-01T00:00:00Z'), until: new Date('2026-03-02T08:00:00Z') };

describe('an events digest', () => {
  it('fits one message whatever happened, newest last, with the oldest summed up and linked', () => {
    const events = Array.from({ length: 2000 }, (_, i) => opened(i + 1));
    const m = buildEventsDigest({
      digest: digest(),
      events,
      projectPaths: new Map([[1, 'demo/web']]),
      serverUrl: SERVER,
      ...span,
      truncated: false,
    });
    expect(findLimitViolations(m)).toEqual([]);
    const text = messageText(m);
    const shown = [...text.matchAll(/\|#(\d+)>/g)].map((x) => Number(x[1]));
    expect(shown.at(-1)).toBe(2000);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(text).toContain(`…and ${2000 - shown.length} earlier: <${SERVER}/demo/web/activity|see all activity>`);
    expect(text).toContain('2000 events from <!date^');
  });

  it('says there were more than it read when the read stopped at its cap', () => {
    const m = buildEventsDigest({
      digest: digest(),
      events: [opened(1)],
      projectPaths: new Map([[1, 'demo/web']]),
      serverUrl: SERVER,
      ...span,
      truncated: true,
    });
    expect(messageText(m)).toContain('1 event+ from');
    expect(messageText(m)).toContain(
      '…and more earlier: <https://gitlab.example.com/demo/web/activity|see all activity>',
    );
  });

  it('escapes what the server sends and cuts what is too long', () => {
    const evil = opened(1, `<!channel> ${'x'.repeat(500)} <https://evil.example|click>`);
    const m = buildEventsDigest({
      digest: digest(),
      events: [{ ...evil, author_username: '<!here>' }],
      projectPaths: new Map([[1, 'demo/web']]),
      serverUrl: SERVER,
      ...span,
      truncated: false,
    });
    const text = messageText(m);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<!here>');
    expect(text).not.toContain('<https://evil.example');
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).toContain('…*');
  });

  it('groups a person’s events by project, with the project in each line', () => {
    const m = buildEventsDigest({
      digest: digest({ kind: 'user_events', project: null, user: { id: 3, username: 'bob' } }),
      events: [opened(1), { ...opened(2), project_id: 9 }],
      projectPaths: new Map([
        [1, 'demo/web'],
        [9, 'ops/infra'],
      ]),
      serverUrl: SERVER,
      ...span,
      truncated: false,
    });
    const text = messageText(m);
    expect(text).toContain(`<${SERVER}/demo/web/issues/1|demo/web#1>`);
    expect(text).toContain(`<${SERVER}/ops/infra/issues/2|ops/infra#2>`);
    expect(JSON.stringify(m.blocks)).toContain(`"url":"${SERVER}/users/bob/activity"`);
  });
});

function todo(i: number, project: string): Todo {
  return {
    id: i,
    project: {
      id: 1,
      name: project,
      name_with_namespace: project,
      path: project,
      path_with_namespace: project,
      web_url: `${SERVER}/${project}`,
    },
    author: { id: 3, username: 'bob', name: 'Bob', state: 'active' },
    action_name: 'assigned',
    target_type: 'Issue',
    target: {
      id: 100 + i,
      iid: i,
      project_id: 1,
      title: `Todo ${i}`,
      description: null,
      state: 'opened',
      created_at: '2026-03-01T00:00:00Z',
      updated_at: '2026-03-01T00:00:00Z',
      labels: [],
      milestone: null,
    },
    target_url: `${SERVER}/${project}/issues/${i}`,
    body: `Todo ${i}`,
    state: 'pending',
    created_at: '2026-03-01T00:00:00Z',
  } as unknown as Todo;
}

describe('a todos digest', () => {
  it('groups by project and keeps inside 50 blocks, with the rest summed up', () => {
    const todos = Array.from({ length: 90 }, (_, i) => todo(i + 1, ['demo/web', 'demo/api', 'ops/infra'][i % 3] ?? ''));
    const m = buildTodosDigest({
      digest: digest({ kind: 'todos' }),
      todos,
      truncated: false,
      serverUrl: SERVER,
      now: new Date('2026-03-02T08:00:00Z'),
      ownerName: 'alice',
    });
    expect(findLimitViolations(m)).toEqual([]);
    expect(m.blocks?.length).toBeLessThanOrEqual(50);
    const text = messageText(m);
    const shown = (text.match(/\[Done\]/g) ?? []).length;
    expect(shown).toBeGreaterThan(30);
    expect(text).toContain(`…and ${90 - shown} more: <${SERVER}/dashboard/todos|all your todos>`);
    expect(text).toContain(":ballot_box_with_check: @alice's pending todos");
  });

  it('asks before Mark all done, with the same question as the todo list', () => {
    const m = buildTodosDigest({
      digest: digest({ kind: 'todos' }),
      todos: [todo(1, 'demo/web')],
      truncated: false,
      serverUrl: SERVER,
      now: new Date('2026-03-02T08:00:00Z'),
      ownerName: 'alice',
    });
    const markAll = m.blocks
      ?.flatMap((b) => (b.type === 'actions' ? b.elements : []))
      .find((e) => e.type === 'button' && e.text.text === 'Mark all done') as { confirm?: { title: { text: string } } };
    expect(markAll?.confirm?.title.text).toBe('Mark all todos done?');
  });
});

describe('an events digest reads as people say it (issue 29, item 5)', () => {
  const at = (minute: number) => new Date(Date.parse('2026-03-01T01:00:00Z') + minute * 60_000).toISOString();
  const on = (o: Partial<Event>, minute: number, who = 'bob'): Event => ({
    title: null,
    project_id: 1,
    action_name: 'opened',
    target_id: 1016,
    target_iid: 16,
    target_type: 'Issue',
    author_id: 2,
    target_title: 'Checkout breaks on Safari',
    created_at: at(minute),
    author_username: who,
    ...o,
  });
  const comment = (minute: number, body: string, who = 'alice'): Event =>
    on(
      {
        action_name: 'commented on',
        target_type: 'Note',
        target_id: 500 + minute,
        target_iid: null,
        target_title: null,
        note: {
          id: 500 + minute,
          body,
          author: { id: 3, name: who, username: who, state: 'active' },
          created_at: at(minute),
          system: false,
          noteable_id: 1016,
          noteable_type: 'Issue',
          noteable_iid: 16,
        },
      },
      minute,
      who,
    );
  const text = (events: Event[], titles?: Map<string, string>) =>
    messageText(
      buildEventsDigest({
        digest: digest(),
        events,
        projectPaths: new Map([[1, 'demo/web']]),
        ...(titles ? { titles } : {}),
        serverUrl: SERVER,
        ...span,
        truncated: false,
      }),
    );

  it('gives a push row the range of commits it moved the branch over, short shas from the first push to the last', () => {
    const push = (minute: number, from: string, to: string, title: string): Event =>
      on(
        {
          action_name: 'pushed to',
          target_type: null,
          target_id: null,
          target_iid: null,
          target_title: null,
          push_data: {
            commit_count: 1,
            action: 'pushed',
            ref_type: 'branch',
            commit_from: from,
            commit_to: to,
            ref: 'main',
            commit_title: title,
          },
        } as Partial<Event>,
        minute,
      );
    const t = text([
      push(1, '1111111aaaaaaa', '2222222bbbbbbb', 'First'),
      push(2, '2222222bbbbbbb', '3333333ccccccc', 'Second'),
    ]);
    expect(t).toContain('@bob pushed 2 commits to <');
    expect(t).toContain('main> (`1111111…3333333`) (latest: “Second”)');
  });

  it('says "merged" for what the server calls "accepted", and "reopened" for an "opened" after a close', () => {
    const mr = on({ action_name: 'accepted', target_type: 'MergeRequest', target_iid: 7, target_title: 'Fix' }, 1);
    const t = text([mr, on({}, 2), on({ action_name: 'closed' }, 3, 'eve'), on({}, 4, 'eve')]);
    expect(t).toContain('!7> *Fix*: merged by @bob');
    expect(t).toContain('*Checkout breaks on Safari*: opened by @bob, closed by @eve, reopened by @eve');
    expect(t).not.toContain('accepted');
  });

  it('gives a group of comments the title of what they are on, and quotes the newest, linked to the note', () => {
    const t = text(
      [comment(1, 'First thought'), comment(2, 'Reproduced on iOS 17.\n\nSteps: <!channel> *open* the cart')],
      new Map([['1:Issue:16', 'Checkout breaks on Safari']]),
    );
    expect(t).toContain(
      `<${SERVER}/demo/web/issues/16|#16> *Checkout breaks on Safari*: 2 comments by @alice\n      ↳ @alice: <${SERVER}/demo/web/issues/16#note_502|“Reproduced on iOS 17. Steps: &lt;!channel&gt; *open* the cart”>`,
    );
    expect(t).not.toContain('<!channel>');
  });
});

describe('a digest card and its run', () => {
  const ctx = { now: new Date('2026-03-02T07:59:30Z'), timeZone: 'Europe/Berlin', serverUrl: SERVER };

  it('says a next run thirty seconds ahead is in under a minute, not "just now"', () => {
    const m = buildDigestCard(digest(), new Date('2026-03-02T08:00:00Z'), ctx as CardContext);
    expect(messageText(m)).toContain('2 Mar 2026, 09:00 · in under a minute');
    expect(messageText(m)).not.toContain('just now');
  });

  it('says what Run now posts for each kind: every pending todo, or what is new since the last run', () => {
    expect(buildDigestRunning(digest({ kind: 'todos', project: null })).text).toBe(
      'Running digest #7 (pending todos) now: it posts the pending todos in <#C0ONE>, if there are any.',
    );
    expect(buildDigestRunning(digest()).text).toBe(
      'Running digest #7 (events of demo/web) now: it posts in <#C0ONE> if there is anything new.',
    );
  });
});

describe('the line under a redrawn card', () => {
  it('marks what is gone for good with a wastebasket and what was done again with circling arrows', () => {
    expect(messageText({ text: '', blocks: noticeBlocks(done('erase', { actorId: 'U1' })) })).toContain(
      ':wastebasket: Erased by <@U1>',
    );
    expect(messageText({ text: '', blocks: noticeBlocks(done('retry', { actorId: 'U1' })) })).toContain(
      ':arrows_counterclockwise: Retried by <@U1>',
    );
  });
});
