import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { buttonOf, call, confirmText, useCiBot, WEB } from '../ci/harness.js';

// The issue card and every one of its buttons, end to end: what the card shows, the exact calls each
// click makes and whose token it carries (always the clicker's), and the card redrawn in place after.

const h = useCiBot();

const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);
const DAY = 86_400_000;

describe('an issue card', () => {
  it('shows the issue linked, its state, people, labels, milestone, due date, votes, time and age', async () => {
    const seen = await h.ask('alice', 'issue demo/web#4', /Cart total/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues/4`, 'alice'),
      call('GET', `${WEB}/issues/4/time_stats`, 'alice'),
    ]);
    expect(seen.message.ephemeral).toBe(true);
    expect(seen.text).toContain(':large_green_circle: #4 · Cart total is off by one cent for some EUR prices');
    expect(seen.text).toContain(
      `*<${h.sim.url}/demo/web/issues/4|demo/web#4>* Cart total is off by one cent for some EUR prices`,
    );
    expect(seen.text).toContain('_Three mugs at €19.99 give a cart total of €59.96;');
    expect(seen.text).toContain('*State*\n:large_green_circle: open');
    expect(seen.text).toContain('*Author*\nBob Brown (@bob)');
    expect(seen.text).toContain('*Assignees*\n@alice');
    expect(seen.text).toContain('*Labels*\n`backend` `bug`');
    expect(seen.text).toMatch(/\*Milestone\*\n<http:[^|]+\|v1\.4>|\*Milestone\*\nv1\.4/);
    expect(seen.text).toContain('*Due*\n2026-03-05 · in 3 days');
    expect(seen.text).toContain('*Votes*\n:thumbsup: 2 · :thumbsdown: 0');
    expect(seen.text).toContain('*Time*\nestimate *3h 30m* · spent *1h*');
    expect(seen.text).toContain(
      'demo/web · created 24 Feb 2026, 11:00 · 6 days ago · updated 24 Feb 2026, 11:00 · 6 days ago',
    );
    expect(labels(seen.message)).toEqual(['Close', 'Unsubscribe', 'Add todo', '👍 2', 'Delete', 'Open in GitLab']);
    expect(buttonOf(seen, /^Open in GitLab$/).url).toBe(`${h.sim.url}/demo/web/issues/4`);
    expect(confirmText(buttonOf(seen, /^Delete$/))).toBe(
      'Delete issue demo/web#4 “Cart total is off by one cent for some EUR prices”? It is gone for good, with its comments. This cannot be undone.',
    );
    for (const b of buttonsOf(seen.message)) if (b.text !== 'Delete') expect(b.confirm).toBeUndefined();
    expectWithinLimits(seen.it);
  });

  it('marks a confidential issue, and a due date that has passed in red', async () => {
    h.clock.advance(3 * DAY);
    const seen = await h.ask('alice', 'issue demo/web#7', /Session tokens/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues/7`, 'alice'),
      call('GET', `${WEB}/issues/7/time_stats`, 'alice'),
    ]);
    expect(seen.text).toContain('Session tokens appear in the access log · :lock: confidential');
    expect(seen.text).toContain('*Due*\n:red_circle: 2026-03-03 · *overdue* by 2 days');
    expect(seen.text).toContain('*Time*\nno estimate · nothing spent');
  });

  it('shows a closed issue with Reopen, and no overdue mark', async () => {
    const seen = await h.ask('alice', 'issue demo/web#1', /Product images/);
    expect(seen.text).toContain(':large_purple_circle: #1 · Product images load slowly on 3G');
    expect(seen.text).toContain('*State*\n:large_purple_circle: closed');
    expect(labels(seen.message)).toEqual(['Reopen', 'Unsubscribe', 'Add todo', '👍', 'Delete', 'Open in GitLab']);
  });

  it('opens from demo/web#4, from #4 with a channel default, and from a pasted issue URL', async () => {
    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0ISSUECARD' });
    const from = h.calls().length;
    await h.ask('alice', 'issue #4', /Cart total/, { channel: 'C0ISSUECARD' });
    await h.ask('alice', `issue ${h.sim.url}/demo/web/-/issues/4`, /Cart total/);
    await h.ask('alice', `issue ${h.sim.url}/demo/docs/issues/2`, /Screenshots/);
    await h.ask('alice', 'issue view demo/web#4', /Cart total/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/issues/4`, 'alice'),
      call('GET', `${WEB}/issues/4/time_stats`, 'alice'),
      call('GET', `${WEB}/issues/4`, 'alice'),
      call('GET', `${WEB}/issues/4/time_stats`, 'alice'),
      call('GET', '/api/v4/projects/demo%2Fdocs/issues/2', 'alice'),
      call('GET', '/api/v4/projects/demo%2Fdocs/issues/2/time_stats', 'alice'),
      call('GET', `${WEB}/issues/4`, 'alice'),
      call('GET', `${WEB}/issues/4/time_stats`, 'alice'),
    ]);
    const which = await h.ask('alice', 'issue #4', /Which project\?/, { channel: 'C0NODEFAULT' });
    expect(which.text).toContain('/gl use group/project');
    expect(h.calls(from + 8)).toEqual([]);
  });

  it('posts in the channel for everyone with --share', async () => {
    const seen = await h.ask('alice', 'issue demo/web#4 --share', /Cart total/);
    expect(seen.message).toMatchObject({ ephemeral: false, visibleTo: null, channel: 'C0TEST' });
  });

  it('tells eve that issues of demo/secret, and confidential ones, are not there for her', async () => {
    const secret = await h.ask('eve', 'issue demo/secret#1', /not found/);
    const confidential = await h.ask('eve', 'issue demo/web#7', /not found/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/projects/demo%2Fsecret/issues/1', 'eve', { status: 404 }),
      call('GET', `${WEB}/issues/7`, 'eve', { status: 404 }),
    ]);
    expect(secret.text).toContain('Issue demo/secret#1 was not found, or you have no access to it (404).');
    expect(confidential.text).toContain('Issue demo/web#7 was not found, or you have no access to it (404).');
    expect(secret.text).not.toContain('Rotate the payment provider');
  });

  it("refuses eve's click on a button of a demo/secret card someone shared", async () => {
    const shared = await h.ask('alice', 'issue demo/secret#1 --share', /Rotate the payment provider/);
    const from = h.calls().length;
    const refused = await h.press('eve', buttonOf(shared, /^Close$/), /not found/);
    expect(h.calls(from)).toEqual([call('GET', '/api/v4/projects/demo%2Fsecret/issues/1', 'eve', { status: 404 })]);
    expect(refused.text).toContain('Issue demo/secret#1 was not found, or you have no access to it (404).');
    expect(refused.message.key).not.toBe(shared.message.key);
    expect(refused.message.ephemeral).toBe(true);
  });
});

describe('card buttons act as the person who clicks', () => {
  it("closes with bob's token from a card alice shared, and redraws it in place", async () => {
    const shared = await h.ask('alice', 'issue demo/web#2 --share', /Search should suggest/);
    const from = h.calls().length;
    const closed = await h.press('bob', buttonOf(shared, /^Close$/), /Closed by/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/issues/2`, 'bob'),
      call('GET', `${WEB}/issues/2/time_stats`, 'bob'),
      call('PUT', `${WEB}/issues/2`, 'bob', { body: { state_event: 'close' } }),
    ]);
    expect(closed.message.key).toBe(shared.message.key);
    expect(closed.message.version).toBe(2);
    expect(closed.text).toContain('Closed by <@U0BOB> · issue demo/web#2');
    expect(closed.text).toContain('*State*\n:large_purple_circle: closed');
    expect(labels(closed.message)[0]).toBe('Reopen');

    const reopened = await h.press('alice', buttonOf(closed, /^Reopen$/), /Reopened by/);
    expect(h.calls(from + 3)).toEqual([
      call('GET', `${WEB}/issues/2`, 'alice'),
      call('GET', `${WEB}/issues/2/time_stats`, 'alice'),
      call('PUT', `${WEB}/issues/2`, 'alice', { body: { state_event: 'reopen' } }),
    ]);
    expect(reopened.text).toContain('Reopened by <@U0ALICE> · issue demo/web#2');
    expect(labels(reopened.message)[0]).toBe('Close');
    expectWithinLimits(reopened.it);
  });

  it('says who closed it already when Close is clicked on an old card, and redraws it as it is now', async () => {
    const shared = await h.ask('alice', 'issue demo/web#2 --share', /Search should suggest/);
    await h.ask('bob', 'issue close demo/web#2', /Closed by/);
    const from = h.calls().length;
    const stale = await h.press('alice', buttonOf(shared, /^Close$/), /Already closed/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/issues/2`, 'alice'),
      call('GET', `${WEB}/issues/2/time_stats`, 'alice'),
      call('GET', `${WEB}/events`, 'alice', { query: { action: 'closed', target_type: 'issue', per_page: '100' } }),
    ]);
    expect(stale.text).toContain('Already closed by @bob. Nothing was changed.');
    expect(stale.text).not.toContain('Closed by <@U0ALICE>');
    expect(stale.message.key).toBe(shared.message.key);
    expect(stale.text).toContain('*State*\n:large_purple_circle: closed');
    expect(labels(stale.message)[0]).toBe('Reopen');
  });

  it('says "already subscribed" (a 304) and shows Unsubscribe for the person who clicked', async () => {
    const shared = await h.ask('eve', 'issue demo/web#9 --share', /Document the release/);
    expect(labels(shared.message)[1]).toBe('Subscribe');
    const from = h.calls().length;
    const same = await h.press('alice', buttonOf(shared, /^Subscribe$/), /Already subscribed/);
    expect(h.calls(from)).toEqual([
      call('POST', `${WEB}/issues/9/subscribe`, 'alice', { status: 304 }),
      call('GET', `${WEB}/issues/9`, 'alice'),
      call('GET', `${WEB}/issues/9/time_stats`, 'alice'),
    ]);
    expect(same.text).toContain('Already subscribed: you get its notifications. Nothing was changed.');
    expect(same.text).not.toMatch(/error|refused|\(304\)/i);
    expect(same.message.key).toBe(shared.message.key);
    expect(labels(same.message)[1]).toBe('Unsubscribe');

    const eveCard = await h.ask('eve', 'issue demo/web#9', /Document the release/);
    const eve = await h.press('eve', buttonOf(eveCard, /^Subscribe$/), /Subscribed by/);
    expect(h.calls(from + 5)).toEqual([
      call('POST', `${WEB}/issues/9/subscribe`, 'eve', { status: 201 }),
      call('GET', `${WEB}/issues/9/time_stats`, 'eve'),
    ]);
    expect(eve.text).toContain('Subscribed by <@U0EVE> · issue demo/web#9');
    expect(labels(eve.message)[1]).toBe('Unsubscribe');
    const off = await h.press('eve', buttonOf(eve, /^Unsubscribe$/), /Unsubscribed by/);
    expect(h.calls(from + 7)).toEqual([
      call('POST', `${WEB}/issues/9/unsubscribe`, 'eve', { status: 201 }),
      call('GET', `${WEB}/issues/9/time_stats`, 'eve'),
    ]);
    expect(labels(off.message)[1]).toBe('Subscribe');
  });

  it('adds a todo for the clicker, and says so when it is there already', async () => {
    const card = await h.ask('bob', 'issue demo/web#9', /Document the release/);
    const from = h.calls().length;
    const added = await h.press('bob', buttonOf(card, /^Add todo$/), /Added to the todos by/);
    expect(h.calls(from)).toEqual([
      call('POST', `${WEB}/issues/9/todo`, 'bob', { status: 201 }),
      call('GET', `${WEB}/issues/9/time_stats`, 'bob'),
    ]);
    expect(added.text).toContain('Added to the todos by <@U0BOB> · issue demo/web#9');
    const again = await h.press('bob', buttonOf(added, /^Add todo$/), /Already on your todo list/);
    expect(h.calls(from + 2)).toEqual([
      call('POST', `${WEB}/issues/9/todo`, 'bob', { status: 304 }),
      call('GET', `${WEB}/issues/9`, 'bob'),
      call('GET', `${WEB}/issues/9/time_stats`, 'bob'),
    ]);
    expect(again.text).toContain('Already on your todo list. Nothing was changed.');
    const todos = (await (await h.api('bob', 'todos')).json()) as { target: { iid: number }; action_name: string }[];
    expect(todos.filter((t) => t.target.iid === 9 && t.action_name === 'marked')).toHaveLength(1);
  });

  it('gives a 👍 as the clicker, and a second click takes it back, as a Slack reaction does', async () => {
    const shared = await h.ask('alice', 'issue demo/web#2 --share', /Search should suggest/);
    expect(labels(shared.message)).toContain('👍 1');
    const from = h.calls().length;
    const up = await h.press('bob', buttonOf(shared, /^👍/), /given by/);
    expect(h.calls(from)).toEqual([
      call('POST', `${WEB}/issues/2/award_emoji`, 'bob', { body: { name: 'thumbsup' }, status: 201 }),
      call('GET', `${WEB}/issues/2`, 'bob'),
      call('GET', `${WEB}/issues/2/time_stats`, 'bob'),
    ]);
    expect(up.text).toContain(':thumbsup: given by <@U0BOB> · issue demo/web#2');
    expect(up.text).toContain('*Votes*\n:thumbsup: 2 · :thumbsdown: 0');
    expect(labels(up.message)).toContain('👍 2');

    const again = await h.press('bob', buttonOf(up, /^👍/), /taken back/);
    const calls = h.calls(from + 3);
    expect(calls.slice(0, 4)).toEqual([
      call('POST', `${WEB}/issues/2/award_emoji`, 'bob', { body: { name: 'thumbsup' }, status: 404 }),
      call('GET', `${WEB}/issues/2`, 'bob'),
      call('GET', `${WEB}/issues/2/time_stats`, 'bob'),
      call('GET', `${WEB}/issues/2/award_emoji`, 'bob', { query: { per_page: '100' } }),
    ]);
    expect(calls.slice(4).map((c) => [c.method, c.user, c.status])).toEqual([['DELETE', 'bob', 204]]);
    expect(again.text).toContain(':thumbsup: taken back by <@U0BOB> · issue demo/web#2');
    expect(again.message.key).toBe(shared.message.key);
    expect(again.text).toContain('*Votes*\n:thumbsup: 1 · :thumbsdown: 0');
    expect(labels(again.message)).toContain('👍 1');
  });

  it('says a 👍 on your own issue is not possible', async () => {
    const card = await h.ask('eve', 'issue demo/web#3', /Checkout button/);
    const from = h.calls().length;
    const own = await h.press('eve', buttonOf(card, /^👍/), /your own issue/);
    expect(h.calls(from)).toEqual([
      call('POST', `${WEB}/issues/3/award_emoji`, 'eve', { body: { name: 'thumbsup' }, status: 404 }),
      call('GET', `${WEB}/issues/3`, 'eve'),
      call('GET', `${WEB}/issues/3/time_stats`, 'eve'),
      call('GET', `${WEB}/issues/3/award_emoji`, 'eve', { query: { per_page: '100' } }),
    ]);
    expect(own.text).toContain('You cannot give a :thumbsup: to your own issue. Nothing was changed.');
  });

  it('deletes only for those who may, after the confirmation, and says who deleted it', async () => {
    const shared = await h.ask('alice', 'issue demo/web#9 --share', /Document the release/);
    const from = h.calls().length;
    const refused = await h.press('bob', buttonOf(shared, /^Delete$/), /may not delete/);
    expect(h.calls(from)).toEqual([call('DELETE', `${WEB}/issues/9`, 'bob', { status: 403 })]);
    expect(refused.text).toContain(
      'Issue demo/web#9: you may not delete it: only owners of the project and administrators can (403).',
    );
    expect(refused.message.key).not.toBe(shared.message.key);

    const deleted = await h.press('alice', buttonOf(shared, /^Delete$/), /was deleted by/);
    expect(h.calls(from + 1)).toEqual([call('DELETE', `${WEB}/issues/9`, 'alice', { status: 204 })]);
    expect(deleted.message.key).toBe(shared.message.key);
    expect(deleted.text).toContain(':wastebasket: Issue demo/web#9 was deleted by <@U0ALICE>.');
    expect(buttonsOf(deleted.message)).toEqual([]);
    expect((await h.api('alice', 'projects/demo%2Fweb/issues/9')).status).toBe(404);
  });
});
