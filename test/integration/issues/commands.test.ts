import { describe, expect, it } from 'vitest';
import { TEST_START } from '../../support/clock.js';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { buttonOf, call, useCiBot, WEB } from '../ci/harness.js';

// Every typed issue command but the lists and show, end to end: the exact calls (method, path,
// parameters, whose token) and what the person sees, including what is refused before any call.

const h = useCiBot();

const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);

let hour = 0;
/** Usernames are remembered ten minutes: a test that counts the look-ups runs an hour of its own. */
function forgetPeople() {
  hour += 1;
  h.clock.set(new Date(TEST_START.getTime() + hour * 3_600_000));
}

async function milestoneId(title: string): Promise<number> {
  const res = await h.api('alice', 'projects/demo%2Fweb/issues?state=all&per_page=100');
  const issues = (await res.json()) as { milestone: { id: number; title: string } | null }[];
  const m = issues.find((i) => i.milestone?.title === title)?.milestone;
  expect(m).toBeDefined();
  return m?.id as number;
}

describe('creating an issue', () => {
  it('creates one with every flag, as an ephemeral card with a Share button that posts it for everyone', async () => {
    const v15 = await milestoneId('v1.5');
    forgetPeople();
    const from = h.calls().length;
    const created = await h.ask(
      'alice',
      'issue create demo/web "Login fails on Safari" --description "Steps: open /login in Safari 17" --labels bug,ui --assignees bob,2 ' +
        `--milestone-id ${v15} --due 2026-12-01 --confidential --created-at 2026-01-05T09:00:00Z`,
      /Created by/,
    );
    expect(h.calls(from)).toEqual([
      call('GET', '/api/v4/users', 'alice', { query: { username: 'bob' } }),
      call('POST', `${WEB}/issues`, 'alice', {
        body: {
          title: 'Login fails on Safari',
          description: 'Steps: open /login in Safari 17',
          labels: 'bug,ui',
          assignee_ids: ['3', '2'],
          milestone_id: String(v15),
          due_date: '2026-12-01',
          confidential: 'true',
          created_at: '2026-01-05T09:00:00Z',
        },
        status: 201,
      }),
    ]);
    expect(created.message.ephemeral).toBe(true);
    expect(created.text).toContain(':large_green_circle: #32 · Login fails on Safari');
    expect(created.text).toContain('Created by <@U0ALICE> · issue demo/web#32');
    expect(created.text).toContain('Login fails on Safari · :lock: confidential');
    expect(created.text).toContain('*Assignees*\n@bob, @alice');
    expect(created.text).toContain('*Labels*\n`bug` `ui`');
    expect(created.text).toContain('*Due*\n2026-12-01 · in 274 days');
    expect(created.text).toContain('*Time*\nno estimate · nothing spent');
    expect(created.text).toMatch(/demo\/web · created \d{1,2} \w{3} 2026, \d\d:\d\d · 2 months ago/);
    expect(labels(created.message)).toEqual([
      'Close',
      'Unsubscribe',
      'Add todo',
      '👍',
      'Delete',
      'Share',
      'Open in GitLab',
    ]);

    // Issue 46: it is confidential, so Share asks first; only "Yes, share it" posts it.
    const asked = await h.press('alice', buttonOf(created, /^Share$/), /is confidential/);
    expect(asked.text).toContain('demo/web#32 is confidential: share its title and description in <#C0TEST>?');
    expect(asked.message).toMatchObject({ ephemeral: true, visibleTo: 'U0ALICE' });
    expect(labels(asked.message)).toEqual(['Yes, share it', 'Never mind']);
    const shared = await h.press('alice', buttonOf(asked, /^Yes, share it$/), /Login fails on Safari/);
    expect(h.calls(from + 4)).toEqual([
      call('GET', `${WEB}/issues/32`, 'alice'),
      call('GET', `${WEB}/issues/32/time_stats`, 'alice'),
    ]);
    expect(shared.message).toMatchObject({ ephemeral: false, visibleTo: null, channel: 'C0TEST' });
    expect(shared.message.key).not.toBe(created.message.key);
    expect(labels(shared.message)).not.toContain('Share');
    expectWithinLimits(shared.it);
  });

  it('names a follow-up issue after the merge request whose discussions it takes', async () => {
    const created = await h.ask('bob', 'issue create demo/web --resolve-mr !2', /Created by/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/issues`, 'bob', { body: { merge_request_to_resolve_discussions_of: '2' }, status: 201 }),
    ]);
    expect(created.text).toContain('Follow-up from');
  });

  it('says who it does not know, without creating anything', async () => {
    forgetPeople();
    const from = h.calls().length;
    const seen = await h.ask('alice', 'issue create demo/web "Typo" --assignees zed', /no user/);
    expect(h.calls(from)).toEqual([call('GET', '/api/v4/users', 'alice', { query: { username: 'zed' } })]);
    expect(seen.text).toContain('There is no user `@zed` on');
    expect(seen.text).toContain('Nothing was sent.');
  });

  it('tells eve she cannot create issues in demo/secret', async () => {
    const seen = await h.ask('eve', 'issue create demo/secret "Hello"', /not found/);
    expect(h.calls()).toEqual([
      call('POST', '/api/v4/projects/demo%2Fsecret/issues', 'eve', { body: { title: 'Hello' }, status: 404 }),
    ]);
    expect(seen.text).toContain('Project demo/secret was not found, or you have no access to it (404).');
  });
});

describe('the form for a new issue (no title given)', () => {
  it('opens once the project is known, filled in with the flags that were typed', async () => {
    const it = await h.command('alice', 'issue create demo/web --labels bug --confidential --due 2026-04-01');
    const opened = await it.waitFor((r) => r.method === 'views.open' && r.ok, 5000);
    expect(h.calls()).toEqual([call('GET', '/api/v4/projects/demo%2Fweb', 'alice')]);
    const view = opened?.view as Record<string, unknown> & { blocks: Record<string, unknown>[] };
    expect(view.callback_id).toBe('gl:modal:issue.create');
    expect(JSON.parse(String(view.private_metadata))).toEqual({ c: 'C0TEST', v: { p: 'demo/web' } });
    const inputs = view.blocks.filter((b) => b.type === 'input');
    expect(inputs.map((b) => b.block_id)).toEqual([
      'title',
      'description',
      'labels',
      'assignees',
      'due',
      'confidential',
    ]);
    expect(inputs.map((b) => (b.element as { type: string }).type)).toEqual([
      'plain_text_input',
      'plain_text_input',
      'plain_text_input',
      'plain_text_input',
      'datepicker',
      'checkboxes',
    ]);
    const element = (id: string) => inputs.find((b) => b.block_id === id)?.element as Record<string, unknown>;
    expect(element('labels').initial_value).toBe('bug');
    expect(element('due').initial_date).toBe('2026-04-01');
    expect(element('confidential').initial_options).toHaveLength(1);
    expect(it.text()).toContain('In demo/web');
    expectWithinLimits(it);
  });

  it('shows field errors in the form before anything is sent, then creates the issue and offers Share', async () => {
    forgetPeople();
    const it = await h.command('alice', 'issue create demo/web');
    const view = (await it.waitFor((r) => r.method === 'views.open' && r.ok, 5000))?.view as Record<string, unknown>;
    const from = h.calls().length;

    const blank = await h.bot.slack.submitView(PEOPLE.alice, view, {
      title: '   ',
      assignees: 'bob; alice',
      due: '2026-02-30',
    });
    expect(blank.ack.json).toEqual({
      response_action: 'errors',
      errors: {
        title: 'Give the issue a title.',
        assignees: '“bob;” is not a username or a user id. Separate names with commas.',
        due: 'Pick a date from the calendar.',
      },
    });
    expect(h.calls(from)).toEqual([]);

    const unknown = await h.bot.slack.submitView(PEOPLE.alice, view, {
      title: 'Search is slow',
      assignees: 'zed',
    });
    expect(unknown.ack.json).toEqual({
      response_action: 'errors',
      errors: { assignees: 'There is no user @zed on the server. Check the spelling, or give their numeric id.' },
    });
    expect(h.calls(from)).toEqual([call('GET', '/api/v4/users', 'alice', { query: { username: 'zed' } })]);

    const good = await h.bot.slack.submitView(PEOPLE.alice, view, {
      title: 'Search is slow',
      description: 'Takes 4 s for "mug".',
      labels: 'performance, backend, performance',
      assignees: '@bob, 2',
      due: '2026-03-20',
      confidential: 'yes',
    });
    expect(good.ack.status).toBe(200);
    expect(good.ack.json).toBeNull();
    const card = await good.waitForMessage((t) => /Created by/.test(t));
    expect(h.calls(from + 1)).toEqual([
      call('GET', '/api/v4/users', 'alice', { query: { username: 'bob' } }),
      call('POST', `${WEB}/issues`, 'alice', {
        body: {
          title: 'Search is slow',
          description: 'Takes 4 s for "mug".',
          labels: 'performance,backend',
          assignee_ids: ['3', '2'],
          due_date: '2026-03-20',
          confidential: 'true',
        },
        status: 201,
      }),
    ]);
    expect(card).toMatchObject({ ephemeral: true, visibleTo: 'U0ALICE', channel: 'C0TEST' });
    const text = JSON.stringify(card?.blocks);
    expect(text).toContain('Created by <@U0ALICE> · issue demo/web#32');
    expect(text).toContain(':lock: confidential');
    expect(buttonsOf(card as never).map((b) => b.text)).toContain('Share');
    expectWithinLimits(good);

    const asked = await h.press('alice', buttonOf(card as never, /^Share$/), /is confidential/);
    expect(asked.message).toMatchObject({ ephemeral: true });
    const shared = await h.press('alice', buttonOf(asked, /^Yes, share it$/), /Search is slow/);
    expect(shared.message).toMatchObject({ ephemeral: false, channel: 'C0TEST' });
  });

  it('refuses a form whose metadata was tampered with, without a call', async () => {
    const it = await h.command('alice', 'issue create demo/web');
    const view = (await it.waitFor((r) => r.method === 'views.open' && r.ok, 5000))?.view as Record<string, unknown>;
    const from = h.calls().length;
    const forged = { ...view, private_metadata: JSON.stringify({ c: 'C0TEST', v: { p: 'demo/../../admin' } }) };
    const sent = await h.bot.slack.submitView(PEOPLE.alice, forged, { title: 'Sneaky' });
    const told = await sent.waitForMessage((t) => /out of date/.test(t));
    expect(sent.ack.status).toBe(200);
    expect(told?.text).toContain('the form does not have the expected shape');
    expect(h.calls(from)).toEqual([]);
    expectWithinLimits(sent);
  });

  it('says a project that does not exist before any form is opened', async () => {
    const seen = await h.ask('alice', 'issue create demo/nope', /not found/);
    expect(h.calls()).toEqual([call('GET', '/api/v4/projects/demo%2Fnope', 'alice', { status: 404 })]);
    expect(seen.text).toContain('Project demo/nope was not found, or you have no access to it (404).');
    expect(seen.it.records((r) => r.method === 'views.open')).toEqual([]);
  });

  it('answers a failure after the form closed in the channel it was opened from', async () => {
    const it = await h.command('eve', 'issue create demo/web');
    const view = (await it.waitFor((r) => r.method === 'views.open' && r.ok, 5000))?.view as Record<string, unknown>;
    h.sim.revoke('eve');
    const from = h.calls().length;
    const sent = await h.bot.slack.submitView(PEOPLE.eve, view, { title: 'Broken link' });
    const told = await sent.waitForMessage((t) => /refused/.test(t));
    h.sim.revoke('eve', { restore: true });
    expect(h.calls(from)[0]).toEqual(
      call('POST', `${WEB}/issues`, null, { body: { title: 'Broken link' }, status: 401 }),
    );
    expect(told).toMatchObject({ ephemeral: true, visibleTo: 'U0EVE', channel: 'C0TEST' });
    expect(buttonsOf(told as never).map((b) => b.text)).toEqual(['Connect']);
    expectWithinLimits(sent);
    // eve connects again for the tests after this one
    const again = await h.bot.connect(PEOPLE.eve, 'sim-eve-token');
    expect(again.submission.ack.json).toMatchObject({ response_action: 'update' });
  });
});

describe('editing an issue', () => {
  it('sends every flag, takes labels off with --labels none, and shows the card with who changed it', async () => {
    const v15 = await milestoneId('v1.5');
    forgetPeople();
    const from = h.calls().length;
    const seen = await h.ask(
      'alice',
      `issue edit demo/web#6 --title "Dark mode (follow the system)" --description "As in macOS." --labels none --assignees bob ` +
        `--milestone-id ${v15} --due 2026-05-01 --confidential true --updated-at 2026-03-01T08:00:00Z`,
      /Updated by/,
    );
    expect(h.calls(from)).toEqual([
      call('GET', '/api/v4/users', 'alice', { query: { username: 'bob' } }),
      call('PUT', `${WEB}/issues/6`, 'alice', {
        body: {
          title: 'Dark mode (follow the system)',
          description: 'As in macOS.',
          labels: '',
          assignee_ids: ['3'],
          milestone_id: String(v15),
          due_date: '2026-05-01',
          confidential: 'true',
          updated_at: '2026-03-01T08:00:00Z',
        },
      }),
      call('GET', `${WEB}/issues/6/time_stats`, 'alice'),
    ]);
    expect(seen.text).toContain(':large_green_circle: #6 · Dark mode (follow the system)');
    expect(seen.text).toContain('*Labels*\n—');
    expect(seen.text).toContain('*Assignees*\n@bob');
    expect(seen.text).toContain(':lock: confidential');
    expect(seen.text).toContain('Updated by <@U0ALICE> · issue demo/web#6');

    const open = await h.ask('alice', 'issue edit demo/web#6 --confidential false', /Updated by/);
    expect(h.calls(from + 3)).toEqual([
      call('PUT', `${WEB}/issues/6`, 'alice', { body: { confidential: 'false' } }),
      call('GET', `${WEB}/issues/6/time_stats`, 'alice'),
    ]);
    expect(open.text).not.toContain(':lock:');
  });

  it('answers that a flag is needed, without a call', async () => {
    const seen = await h.ask('alice', 'issue edit demo/web#6', /Nothing to change/);
    expect(h.calls()).toEqual([]);
    expect(seen.text).toContain('`--title`');
  });

  it('says who may change an issue when the server refuses', async () => {
    const seen = await h.ask('eve', 'issue edit demo/web#2 --title "Mine now"', /may not change/);
    expect(h.calls()).toEqual([call('PUT', `${WEB}/issues/2`, 'eve', { body: { title: 'Mine now' }, status: 403 })]);
    expect(seen.text).toContain(
      'Issue demo/web#2: you may not change it: only its author, its assignees and members with the Reporter role can (403).',
    );
  });
});

describe('closing, reopening and deleting', () => {
  it('closes and reopens, and says so when there is nothing to do', async () => {
    const closed = await h.ask('alice', 'issue close demo/web#2', /Closed by/);
    const again = await h.ask('alice', 'issue close demo/web#2', /Already closed/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues/2`, 'alice'),
      call('GET', `${WEB}/issues/2/time_stats`, 'alice'),
      call('PUT', `${WEB}/issues/2`, 'alice', { body: { state_event: 'close' } }),
      call('GET', `${WEB}/issues/2`, 'alice'),
      call('GET', `${WEB}/issues/2/time_stats`, 'alice'),
      call('GET', `${WEB}/events`, 'alice', { query: { action: 'closed', target_type: 'issue', per_page: '100' } }),
    ]);
    expect(closed.text).toContain('Closed by <@U0ALICE> · issue demo/web#2');
    expect(closed.text).toContain('*State*\n:large_purple_circle: closed');
    expect(again.text).toContain('Already closed by @alice. Nothing was changed.');

    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0WEBDEF' });
    const from = h.calls().length;
    const back = await h.ask('alice', 'issue reopen #2', /Reopened by/, { channel: 'C0WEBDEF' });
    const open = await h.ask('alice', 'issue reopen demo/web#2', /Already open/);
    const never = await h.ask('alice', 'issue reopen demo/web#4', /Already open/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/issues/2`, 'alice'),
      call('GET', `${WEB}/issues/2/time_stats`, 'alice'),
      call('PUT', `${WEB}/issues/2`, 'alice', { body: { state_event: 'reopen' } }),
      call('GET', `${WEB}/issues/2`, 'alice'),
      call('GET', `${WEB}/issues/2/time_stats`, 'alice'),
      call('GET', `${WEB}/events`, 'alice', { query: { action: 'reopened', target_type: 'issue', per_page: '100' } }),
      call('GET', `${WEB}/issues/4`, 'alice'),
      call('GET', `${WEB}/issues/4/time_stats`, 'alice'),
      call('GET', `${WEB}/events`, 'alice', { query: { action: 'reopened', target_type: 'issue', per_page: '100' } }),
    ]);
    expect(back.text).toContain('Reopened by <@U0ALICE> · issue demo/web#2');
    expect(open.text).toContain('Already open (reopened by @alice). Nothing was changed.');
    expect(never.text).toContain('Already open. Nothing was changed.');
  });

  it('says who may close an issue when the server refuses', async () => {
    const seen = await h.ask('eve', 'issue close demo/web#2', /may not close/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues/2`, 'eve'),
      call('GET', `${WEB}/issues/2/time_stats`, 'eve'),
      call('PUT', `${WEB}/issues/2`, 'eve', { body: { state_event: 'close' }, status: 403 }),
    ]);
    expect(seen.text).toContain('Issue demo/web#2: you may not close it');
  });

  it('asks before deleting; Yes deletes, Never mind removes the question', async () => {
    const prompt = await h.ask('alice', 'issue delete demo/web#9', /Delete issue demo\/web#9/);
    expect(h.calls()).toEqual([]);
    expect(prompt.text).toContain(
      'Delete issue demo/web#9? It is gone for good, with its comments. This cannot be undone.',
    );
    expect(labels(prompt.message)).toEqual(['Yes, delete issue #9', 'Never mind']);
    const deleted = await h.press('alice', buttonOf(prompt, /^Yes, delete/), /was deleted by/);
    expect(h.calls()).toEqual([call('DELETE', `${WEB}/issues/9`, 'alice', { status: 204 })]);
    expect(deleted.message.key).toBe(prompt.message.key);
    expect(deleted.text).toContain('Issue demo/web#9 was deleted by <@U0ALICE>.');

    const other = await h.ask('alice', 'issue delete demo/web#10', /Delete issue demo\/web#10/);
    const never = await h.click('alice', buttonOf(other, /^Never mind$/));
    await never.waitFor((r) => r.kind === 'response_url' && r.body.delete_original === true, 5000);
    expect(h.calls(1)).toEqual([]);
    expect(h.bot.fake.messages.get(other.message.key)?.deleted).toBe(true);
  });
});

describe('moving an issue', () => {
  it('resolves the path to its id first, moves it, and links the new issue', async () => {
    const seen = await h.ask('alice', 'issue move demo/web#5 demo/docs', /Moved by/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/projects/demo%2Fdocs', 'alice'),
      call('POST', `${WEB}/issues/5/move`, 'alice', { body: { to_project_id: '3' }, status: 201 }),
      call('GET', '/api/v4/projects/demo%2Fdocs/issues/5/time_stats', 'alice'),
    ]);
    expect(seen.text).toContain(
      `Moved by <@U0ALICE> · from demo/web#5 to <${h.sim.url}/demo/docs/issues/5|demo/docs#5>`,
    );
    expect(seen.text).toContain(':large_green_circle: #5 · Add order history page');
    expect(buttonOf(seen, /^Open in GitLab$/).url).toBe(`${h.sim.url}/demo/docs/issues/5`);
    expect(JSON.parse(buttonOf(seen, /^Close$/).value ?? '{}')).toEqual({ p: 'demo/docs', i: 5 });
    const old = (await (await h.api('alice', 'projects/demo%2Fweb/issues/5')).json()) as { state: string };
    expect(old.state).toBe('closed');
  });

  it('takes a numeric project id too', async () => {
    const seen = await h.ask('alice', 'issue move demo/web#5 3', /Moved by/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/projects/3', 'alice'),
      call('POST', `${WEB}/issues/5/move`, 'alice', { body: { to_project_id: '3' }, status: 201 }),
      call('GET', '/api/v4/projects/demo%2Fdocs/issues/5/time_stats', 'alice'),
    ]);
    expect(seen.text).toContain('to <');
  });

  it('refuses a path that names no project, before the move', async () => {
    const seen = await h.ask('alice', 'issue move demo/web#5 demo/nope', /was not moved/);
    expect(h.calls()).toEqual([call('GET', '/api/v4/projects/demo%2Fnope', 'alice', { status: 404 })]);
    expect(seen.text).toContain(
      'Issue demo/web#5 was not moved: there is no project `demo/nope`, or you have no access to it (404). Nothing was moved.',
    );
  });

  it('says the reason the server gives for refusing a move (400)', async () => {
    const same = await h.ask('alice', 'issue move demo/web#5 demo/web', /cannot be moved/);
    const eve = await h.ask('eve', 'issue move demo/web#5 demo/docs', /cannot be moved/);
    expect(h.calls()).toEqual([
      call('GET', WEB, 'alice'),
      call('POST', `${WEB}/issues/5/move`, 'alice', { body: { to_project_id: '1' }, status: 400 }),
      call('GET', '/api/v4/projects/demo%2Fdocs', 'eve'),
      call('POST', `${WEB}/issues/5/move`, 'eve', { body: { to_project_id: '3' }, status: 400 }),
    ]);
    expect(same.text).toContain(
      'Issue demo/web#5 cannot be moved (400). The server said: “Cannot move issue to project it originates from!”. Nothing was moved.',
    );
    expect(eve.text).toContain('“Cannot move issue due to insufficient permissions!”');
  });
});

describe('subscriptions and todos', () => {
  it('subscribes and unsubscribes, and a 304 reads as "already subscribed", not as an error', async () => {
    const already = await h.ask('alice', 'issue subscribe demo/web#4', /Already subscribed/);
    const off = await h.ask('alice', 'issue unsubscribe demo/web#4', /Unsubscribed by/);
    const offAgain = await h.ask('alice', 'issue unsub demo/web#4', /Not subscribed/);
    const on = await h.ask('alice', 'issue watch demo/web#4', /Subscribed by/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/issues/4/subscribe`, 'alice', { status: 304 }),
      call('GET', `${WEB}/issues/4`, 'alice'),
      call('GET', `${WEB}/issues/4/time_stats`, 'alice'),
      call('POST', `${WEB}/issues/4/unsubscribe`, 'alice', { status: 201 }),
      call('GET', `${WEB}/issues/4/time_stats`, 'alice'),
      call('POST', `${WEB}/issues/4/unsubscribe`, 'alice', { status: 304 }),
      call('GET', `${WEB}/issues/4`, 'alice'),
      call('GET', `${WEB}/issues/4/time_stats`, 'alice'),
      call('POST', `${WEB}/issues/4/subscribe`, 'alice', { status: 201 }),
      call('GET', `${WEB}/issues/4/time_stats`, 'alice'),
    ]);
    expect(already.text).toContain('Already subscribed: you get its notifications. Nothing was changed.');
    expect(already.text).not.toMatch(/:no_entry:|:warning:|\(304\)/);
    expect(off.text).toContain('Unsubscribed by <@U0ALICE> · issue demo/web#4');
    expect(offAgain.text).toContain('Not subscribed: you get no notifications of it. Nothing was changed.');
    expect(on.text).toContain('Subscribed by <@U0ALICE> · issue demo/web#4');
  });

  it('adds a todo, and says when it is there already', async () => {
    const added = await h.ask('eve', 'issue todo demo/web#2', /Added to the todos/);
    const again = await h.ask('eve', 'issue todo demo/web#2', /Already on your todo list/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/issues/2/todo`, 'eve', { status: 201 }),
      call('GET', `${WEB}/issues/2/time_stats`, 'eve'),
      call('POST', `${WEB}/issues/2/todo`, 'eve', { status: 304 }),
      call('GET', `${WEB}/issues/2`, 'eve'),
      call('GET', `${WEB}/issues/2/time_stats`, 'eve'),
    ]);
    expect(added.text).toContain('Added to the todos by <@U0EVE> · issue demo/web#2');
    expect(again.text).toContain('Already on your todo list. Nothing was changed.');
  });
});

describe('time tracking', () => {
  it('sets and resets the estimate and the time spent, in GitLab’s human form', async () => {
    const estimate = await h.ask('alice', 'issue estimate demo/web#4 1mo 2w 3d 4h 30m', /Estimate set/);
    const spend = await h.ask('alice', 'issue spend demo/web#4 3h30m', /Time logged/);
    const less = await h.ask('alice', 'issue spend demo/web#4 -30m', /Time logged/);
    const time = await h.ask('alice', 'issue time demo/web#4', /Time tracking/);
    const noEstimate = await h.ask('alice', 'issue reset-estimate demo/web#4', /Estimate reset/);
    const noSpent = await h.ask('alice', 'issue reset-spent demo/web#4', /Spent time reset/);
    const T = `${WEB}/issues/4`;
    expect(h.calls()).toEqual([
      call('POST', `${T}/time_estimate`, 'alice', { body: { duration: '1mo 2w 3d 4h 30m' } }),
      call('POST', `${T}/add_spent_time`, 'alice', { body: { duration: '3h 30m' }, status: 201 }),
      call('POST', `${T}/add_spent_time`, 'alice', { body: { duration: '-30m' }, status: 201 }),
      call('GET', `${T}/time_stats`, 'alice'),
      call('POST', `${T}/reset_time_estimate`, 'alice'),
      call('POST', `${T}/reset_spent_time`, 'alice'),
    ]);
    expect(estimate.text).toContain(`:stopwatch: *Time tracking of <${h.sim.url}/demo/web/issues/4|demo/web#4>*`);
    expect(estimate.text).toContain('*Estimate*\n1mo 2w 3d 4h 30m');
    expect(estimate.text).toContain('Estimate set by <@U0ALICE> · 1mo 2w 3d 4h 30m on issue demo/web#4');
    expect(spend.text).toContain('*Spent*\n4h 30m');
    expect(less.text).toContain('*Spent*\n4h');
    expect(less.text).toContain('Time logged by <@U0ALICE> · -30m on issue demo/web#4');
    expect(time.text).toContain('*Estimate*\n1mo 2w 3d 4h 30m');
    expect(time.text).toContain('*Spent*\n4h');
    expect(time.text).not.toContain(' by <@');
    expect(noEstimate.text).toContain('*Estimate*\nnone');
    expect(noSpent.text).toContain('*Spent*\nnothing yet');
    expectWithinLimits(noSpent.it);
  });

  it('checks a duration before any call', async () => {
    const bad = await h.ask('alice', 'issue estimate demo/web#4 3x', /unknown unit/);
    const none = await h.ask('alice', 'issue spend demo/web#4', /Usage/);
    expect(h.calls()).toEqual([]);
    expect(bad.text).toContain('`3x` has an unknown unit `x`');
    expect(none.text).toContain('issue spend');
  });

  it('says what the server refused', async () => {
    const eve = await h.ask('eve', 'issue estimate demo/web#4 1h', /may not track time/);
    const tooMuch = await h.ask('alice', 'issue spend demo/web#4 -1w', /refused/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/issues/4/time_estimate`, 'eve', { body: { duration: '1h' }, status: 403 }),
      call('POST', `${WEB}/issues/4/add_spent_time`, 'alice', { body: { duration: '-1w' }, status: 400 }),
    ]);
    expect(eve.text).toContain('Issue demo/web#4: you may not track time on it');
    expect(tooMuch.text).toContain('The server refused to change the time tracking of Issue demo/web#4 (400).');
    expect(tooMuch.text).toContain('Time to subtract exceeds the total time spent');
  });
});

describe('closed-by and user-agent detail', () => {
  it('lists the merge requests that close an issue, linked, or says there are none', async () => {
    const some = await h.ask('alice', 'issue closed-by demo/web#2', /Merge requests that close/);
    const none = await h.ask('alice', 'issue closed-by demo/web#9', /No merge request closes/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues/2/closed_by`, 'alice', { query: { per_page: '40' } }),
      call('GET', `${WEB}/issues/9/closed_by`, 'alice', { query: { per_page: '40' } }),
    ]);
    expect(some.text).toContain(
      `:large_green_circle: *<${h.sim.url}/demo/web/merge_requests/2|!2>* Add search suggestions dropdown · opened · @bob · \`feature/search-suggestions\` → \`main\``,
    );
    expect(none.text).toContain('No merge request closes demo/web#9 when merged.');
  });

  it('shows an administrator the user agent, IP and whether it came through the API', async () => {
    await h.api('root', 'projects/demo%2Fweb/issues', { method: 'POST', form: { title: 'By script' } });
    const from = h.calls().length;
    const browser = await h.ask('root', 'issue agent demo/web#2', /was created/);
    const api = await h.ask('root', 'issue user-agent demo/web#32', /was created/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/issues/2/user_agent_detail`, 'root'),
      call('GET', `${WEB}/issues/32/user_agent_detail`, 'root'),
    ]);
    expect(browser.text).toContain('*Through*\na web browser');
    expect(browser.text).toContain('*IP address*\n`203.0.113.24`');
    expect(browser.text).toContain('*Submitted to Akismet*\nno');
    expect(api.text).toContain('*Through*\nthe API (or another non-browser client)');
  });

  it('says that it needs an administrator (403), and when nothing was recorded (404)', async () => {
    const alice = await h.ask('alice', 'issue agent demo/web#2', /administrators/);
    const nothing = await h.ask('root', 'issue agent demo/web#9', /no user agent/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues/2/user_agent_detail`, 'alice', { status: 403 }),
      call('GET', `${WEB}/issues/9/user_agent_detail`, 'root', { status: 404 }),
    ]);
    expect(alice.text).toContain('Only administrators can see how Issue demo/web#2 was created (403)');
    expect(nothing.text).toContain(
      'Issue demo/web#9 was not found, or the server recorded no user agent for it (404).',
    );
  });
});
