import { describe, expect, it } from 'vitest';
import { type Event, EventSchema } from '../../../src/gitlab/schemas.js';
import { buildEventList, type EventContext, eventLine, eventSentence } from '../../../src/views/events.js';
import { findLimitViolations } from '../../../src/views/limits.js';
import { toMrkdwn } from '../../../src/views/mrkdwn.js';

// Events as sentences: every action a 9.5 server names (in the past tense, without an event id), the older
// spellings of the docs, pushes of branches and tags, comments on each kind of thing, and what is escaped.

const SERVER = 'https://gl.example.com';
const NOW = new Date('2026-03-02T10:00:00Z');
const here: EventContext = { serverUrl: SERVER, now: NOW, projects: new Map([[1, 'demo/web']]), here: 1 };
const elsewhere: EventContext = { ...here, here: null };

/** An event as a 9.5 server sends it (no id), through the client's schema. */
function event(fields: Record<string, unknown>): Event {
  return EventSchema.parse({
    title: null,
    project_id: 1,
    action_name: 'opened',
    target_id: null,
    target_iid: null,
    target_type: null,
    author_id: 2,
    target_title: null,
    created_at: '2026-03-02T08:00:00Z',
    author: { id: 2, name: 'Alice', username: 'alice', state: 'active', web_url: `${SERVER}/alice` },
    author_username: 'alice',
    ...fields,
  });
}

const say = (e: Event, c: EventContext = here) => toMrkdwn(eventSentence(e, c));
/** The sentence without link targets. */
const read = (e: Event, c: EventContext = here) => say(e, c).replace(/<[^>|]+\|([^>]+)>/g, '$1');

const push = (action: string, ref: string, o: Record<string, unknown> = {}) =>
  event({
    action_name: action === 'created' ? 'pushed new' : action === 'removed' ? 'deleted' : 'pushed to',
    push_data: {
      commit_count: 1,
      action,
      ref_type: 'branch',
      commit_from: null,
      commit_to: 'abc',
      ref,
      commit_title: 'Fix rounding',
      ...o,
    },
  });

describe('eventSentence', () => {
  it('reads issue and merge request events as "@alice opened issue #12 *Title*", "@alice merged !3 *Title*"', () => {
    const issue = event({ target_type: 'Issue', target_id: 112, target_iid: 12, target_title: 'Title' });
    const mr = event({
      action_name: 'accepted',
      target_type: 'MergeRequest',
      target_id: 203,
      target_iid: 3,
      target_title: 'Title',
    });
    expect(read(issue)).toBe('@alice opened issue #12 *Title*');
    expect(say(issue)).toBe(`<${SERVER}/alice|@alice> opened issue <${SERVER}/demo/web/issues/12|#12> *Title*`);
    expect(read(mr)).toBe('@alice merged !3 *Title*');
    expect(say(mr)).toContain(`<${SERVER}/demo/web/merge_requests/3|!3>`);
    expect(read(event({ action_name: 'closed', target_type: 'Issue', target_iid: 5, target_title: 'T' }))).toBe(
      '@alice closed issue #5 *T*',
    );
  });

  it('writes references with their project outside the list’s own project, and unlinked when its path is unknown', () => {
    const issue = event({ target_type: 'Issue', target_iid: 12, target_title: 'Title' });
    expect(read(issue, elsewhere)).toBe('@alice opened issue demo/web#12 *Title*');
    const unknown = event({ project_id: 9, target_type: 'MergeRequest', target_iid: 3, target_title: 'T' });
    expect(say(unknown, elsewhere)).toBe(`<${SERVER}/alice|@alice> opened project 9!3 *T*`);
  });

  it('reads pushes: how many commits to a branch and its range, a new branch or tag, a deleted branch, with the commit', () => {
    expect(read(push('pushed', 'main'))).toBe('@alice pushed 1 commit to main · _Fix rounding_');
    expect(say(push('pushed', 'feature/x'))).toContain(`<${SERVER}/demo/web/commits/feature/x|feature/x>`);
    expect(read(push('pushed', 'main', { commit_count: 4, commit_from: 'a1b2c3d4e5', commit_to: 'e4f5a6b7c8' }))).toBe(
      '@alice pushed 4 commits to main (`a1b2c3d…e4f5a6b`) · _Fix rounding_',
    );
    expect(read(push('pushed', 'main', { commit_to: 'e4f5a6b7c8' }))).toContain('to main (`e4f5a6b`)');
    expect(read(push('pushed', 'main', { commit_to: '<!here>' }))).toBe(
      '@alice pushed 1 commit to main · _Fix rounding_',
    );
    expect(read(push('created', 'feature/x'))).toBe('@alice pushed new branch feature/x · _Fix rounding_');
    expect(say(push('created', 'v1.0', { ref_type: 'tag' }))).toContain(
      `pushed new tag <${SERVER}/demo/web/tags/v1.0|v1.0>`,
    );
    expect(read(push('removed', 'old', { commit_title: null, commit_to: null }))).toBe('@alice deleted branch old');
    expect(read(push('pushed', 'main'), elsewhere)).toBe('@alice pushed 1 commit to main in demo/web · _Fix rounding_');
  });

  it('reads comments by what they were on and what they said: "@eve commented on !2: “Looks good”", an issue, a snippet, a commit', () => {
    const note = (noteable_type: string, extra: Record<string, unknown>) =>
      event({
        action_name: 'commented on',
        target_type: 'Note',
        target_id: 302,
        author: { id: 5, name: 'Eve', username: 'eve', state: 'active' },
        author_username: 'eve',
        note: {
          id: 302,
          body: 'Looks good',
          author: { id: 5, name: 'Eve', username: 'eve', state: 'active' },
          created_at: '2026-03-02T08:00:00Z',
          system: false,
          noteable_id: 202,
          noteable_type,
          ...extra,
        },
      });
    expect(read(note('MergeRequest', { noteable_iid: 2 }))).toBe('@eve commented on !2: “Looks good”');
    expect(say(note('MergeRequest', { noteable_iid: 2 }))).toContain(
      `<${SERVER}/demo/web/merge_requests/2#note_302|!2>`,
    );
    expect(read(note('Issue', { noteable_iid: 4 }))).toBe('@eve commented on issue #4: “Looks good”');
    expect(read(note('Snippet', { noteable_id: 7, noteable_iid: null }))).toBe(
      '@eve commented on snippet $7: “Looks good”',
    );
    expect(read(note('Commit', { noteable_id: null }))).toBe('@eve commented on a commit: “Looks good”');
    expect(read(event({ action_name: 'commented on', target_type: 'Note', target_id: 9 }))).toBe(
      '@alice commented on a comment',
    );
  });

  it('reads the older spellings: "pushed", "commented", "created" and "merged"', () => {
    expect(read(push('pushed', 'main'))).toBe(read({ ...push('pushed', 'main'), action_name: 'pushed' }));
    expect(read(event({ action_name: 'commented', target_type: 'Note', target_id: 1 }))).toBe(
      '@alice commented on a comment',
    );
    expect(read(event({ action_name: 'created', target_type: 'Issue', target_iid: 1, target_title: 'T' }))).toBe(
      '@alice opened issue #1 *T*',
    );
    expect(read(event({ action_name: 'merged', target_type: 'MergeRequest', target_iid: 1, target_title: 'T' }))).toBe(
      '@alice merged !1 *T*',
    );
    expect(read(event({ action_name: 'pushed' }))).toBe('@alice pushed to demo/web');
  });

  it('reads project events: created, joined, left', () => {
    expect(read(event({ action_name: 'created' }))).toBe('@alice created project demo/web');
    expect(read(event({ action_name: 'joined' }))).toBe('@alice joined demo/web');
    expect(read(event({ action_name: 'left' }))).toBe('@alice left demo/web');
    expect(read(event({ action_name: 'joined', project_id: null }))).toBe('@alice joined');
  });

  it('reads snippets, milestones and kinds it does not know', () => {
    expect(read(event({ target_type: 'Snippet', target_id: 2, target_title: 'Repro' }))).toBe(
      '@alice opened snippet $2 *Repro*',
    );
    expect(read(event({ action_name: 'closed', target_type: 'Milestone', target_iid: 3, target_title: 'v1.0' }))).toBe(
      '@alice closed milestone *v1.0*',
    );
    expect(
      read(event({ action_name: 'opened', target_type: 'WikiPage::Meta', target_id: 4, target_title: 'Home' })),
    ).toBe('@alice opened wiki page *Home*');
  });

  it('names the author from author_username, or by id, when the server sends no author object', () => {
    const bare = { ...event({ target_type: 'Issue', target_iid: 1, target_title: 'T' }), author: undefined };
    expect(read(bare)).toBe('@alice opened issue #1 *T*');
    expect(read({ ...bare, author_username: undefined })).toBe('user 2 opened issue #1 *T*');
  });

  it('escapes titles, refs and names from the server', () => {
    const e = event({ target_type: 'Issue', target_iid: 1, target_title: '<!channel> & <@U123>' });
    expect(say(e)).toContain('*&lt;!channel&gt; &amp; &lt;@U123&gt;*');
    const ref = push('pushed', 'x<y>|z');
    expect(say(ref)).not.toMatch(/<[^>]*x<y/);
  });
});

describe('eventLine and buildEventList', () => {
  it('adds when, and leaves it out of an event that carries no time', () => {
    const e = event({ target_type: 'Issue', target_iid: 1, target_title: 'T' });
    expect(toMrkdwn(eventLine(e, here))).toMatch(/\*T\* · \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC · 2 hours ago$/);
    expect(toMrkdwn(eventLine({ ...e, created_at: undefined }, here))).toMatch(/\*T\*$/);
  });

  it('fits a page of long events within Slack’s limits, one row each', () => {
    const long = 'x'.repeat(5000);
    const events = Array.from({ length: 40 }, (_, i) =>
      event({ target_type: 'Issue', target_iid: i + 1, target_title: long }),
    );
    const m = buildEventList(
      events,
      { page: 1, nextPage: 2, total: 100 },
      {
        title: 'Events in demo/web',
        filters: '',
        place: { query: 'events demo/web', page: 1 },
        ctx: here,
      },
    );
    expect(findLimitViolations(m)).toEqual([]);
    expect(m.text).toBe('Events in demo/web: 40 shown');
  });
});

describe('an event list reads as people say it (issue 29, item 5)', () => {
  it('calls an "opened" of something closed before it in view a reopen, and "accepted" a merge', () => {
    const issue = (action_name: string, created_at: string) =>
      event({ action_name, target_type: 'Issue', target_id: 116, target_iid: 16, target_title: 'T', created_at });
    const mr = event({ action_name: 'accepted', target_type: 'MergeRequest', target_iid: 7, target_title: 'M' });
    const list = buildEventList(
      [
        issue('opened', '2026-03-02T09:00:00Z'),
        mr,
        issue('closed', '2026-03-02T08:30:00Z'),
        issue('opened', '2026-03-01T08:00:00Z'),
      ],
      { page: 1, nextPage: null, total: null },
      { title: 'Events', filters: '', place: null, ctx: here },
    );
    const text = JSON.stringify(list.blocks).replace(/<[^>|]+\|([^>]+)>/g, '$1');
    expect(text).toContain('@alice reopened issue #16 *T*');
    expect(text).toContain('@alice closed issue #16 *T*');
    expect(text).toContain('@alice opened issue #16 *T*');
    expect(text).toContain('@alice merged !7 *M*');
    expect(text).not.toContain('accepted');
  });
});
