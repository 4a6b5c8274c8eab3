import { describe, expect, it } from 'vitest';
import { ShortcutIds } from '../../../src/ids.js';
import { call, useApp, WEB } from '../../support/app-harness.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import { expectWithinLimits, findSurfaceProblems } from '../../support/slack-checks.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';

// "Create issue" on a message in a channel the bot cannot post in (a private channel it was not invited to): the
// form asks for the project (the channel has no default), and the answer the thread cannot take goes to the person
// alone, saying why. Its own file: Slack's refusal of the bot's post is what this test is about, which the
// harness of useBot() counts as a failure.

const app = useApp({ connected: ['alice'] });

const requests = (from = 0) =>
  app.sim
    .requests()
    .slice(from)
    .map(({ method, path, query, body, user, status }) => ({ method, path, query, body, user, status }));

describe('"Create issue" where the bot cannot post', () => {
  it('asks for the project where the channel has none, and answers privately saying why', async () => {
    const { slack, fake } = app.bot;
    fake.refusePosts('C0PRIVATE', 'not_in_channel');
    const posted = slack.writeMessage(PEOPLE.bob, { channel: 'C0PRIVATE', text: 'Search ignores accents' });
    const opening = await slack.shortcut(PEOPLE.alice, ShortcutIds.issueFromMessage, posted);
    const opened = await opening.waitFor((r) => r.method === 'views.open' && r.ok, 5000);
    const view = opened?.view as Record<string, unknown> & { blocks: Record<string, unknown>[] };
    expect(view.blocks.filter((b) => b.type === 'input').map((b) => b.block_id)).toEqual([
      'project',
      'title',
      'description',
      'labels',
      'assignees',
      'due',
      'confidential',
    ]);
    expect(JSON.parse(String(view.private_metadata)).v).toEqual({ th: posted.ts });
    expectWithinLimits(opening);

    const wrong = await slack.submitView(PEOPLE.alice, view, { project: 'demo/nope' });
    expect(wrong.ack.json).toEqual({
      response_action: 'errors',
      errors: { project: 'There is no project demo/nope, or you have no access to it.' },
    });
    const bad = await slack.submitView(PEOPLE.alice, view, { project: '../x' });
    expect(bad.ack.json).toEqual({
      response_action: 'errors',
      errors: { project: '“../x” is not a project path: give it like group/project.' },
    });

    const from = app.sim.requests().length;
    const sent = await slack.submitView(PEOPLE.alice, view, { project: 'demo/web' });
    const told = await sent.waitForMessage((t) => /not a member/.test(t));
    expect(requests(from)).toEqual([
      call('GET', '/api/v4/projects/demo%2Fweb', 'alice'),
      call('POST', `${WEB}/issues`, 'alice', {
        body: { title: 'Search ignores accents', description: expect.stringContaining('\n\nFrom Slack: https://') },
        status: 201,
      }),
    ]);
    expect(sent.records((r) => r.method === 'chat.postMessage').map((r) => [r.ok, r.error])).toEqual([
      [false, 'not_in_channel'],
    ]);
    // Through the shortcut's response_url: Slack shows it in the channel, to alice alone.
    expect(told).toMatchObject({ ephemeral: true, visibleTo: 'U0ALICE', channel: 'C0PRIVATE', source: 'response_url' });
    const text = messageText(told as FakeMessage);
    expect(text).toContain("I can't post in <#C0PRIVATE>: I'm not a member of it.");
    expect(text).toMatch(/Issue `demo\/web#\d+` \*<[^|]+\|Search ignores accents>\* created by <@U0ALICE>/);
    expect(sent.violations()).toEqual([]);
    // Everything else the person was shown was taken by Slack and reads cleanly.
    expect(findSurfaceProblems(sent.records((r) => r.method !== 'chat.postMessage'))).toEqual([]);
    fake.refusePosts('C0PRIVATE', null);
  });

  it('answers ephemerally when the form was sent after its response_url expired', async () => {
    const { slack, fake } = app.bot;
    fake.refusePosts('C0PRIVATE', 'not_in_channel');
    const posted = slack.writeMessage(PEOPLE.bob, { channel: 'C0PRIVATE', text: 'Filters reset on reload' });
    const opening = await slack.shortcut(PEOPLE.alice, ShortcutIds.issueFromMessage, posted);
    const opened = await opening.waitFor((r) => r.method === 'views.open' && r.ok, 5000);
    app.clock.advance(31 * 60 * 1000);
    const sent = await slack.submitView(PEOPLE.alice, opened?.view as Record<string, unknown>, { project: 'demo/web' });
    const told = await sent.waitForMessage((t) => /not a member/.test(t));
    expect(told).toMatchObject({ ephemeral: true, visibleTo: 'U0ALICE', source: 'chat.postEphemeral' });
    expect(messageText(told as FakeMessage)).toMatch(/\|Filters reset on reload>\* created by <@U0ALICE>/);
    expect(sent.records((r) => r.kind === 'response_url')).toEqual([]);
    fake.refusePosts('C0PRIVATE', null);
  });
});
