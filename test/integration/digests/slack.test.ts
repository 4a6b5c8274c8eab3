import { describe, expect, it } from 'vitest';
import { useApp } from '../../support/app-harness.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE, QUICK_SLACK } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// What Slack answers to a digest's post: a rate limit is waited out and the post retried (never dropped), and a
// channel the bot may not post in pauses the digest and tells its owner by DM, with nothing of the feed lost.
// (These answers are failures on purpose, so this file takes the app without the checks of useBot that forbid
// them.)

const h = useApp({ digests: { timer: 'manual' }, slackTiming: QUICK_SLACK, connected: ['alice'] });
const { clock } = h;

async function digestIn(channel: string): Promise<number> {
  clock.advance(60_000);
  const it = await h.bot.slack.command(PEOPLE.alice, 'digest events demo/web', { channel });
  const m = await it.waitForMessage((t) => /Digest #\d+/.test(t));
  return Number(/Digest #(\d+)/.exec(m ? messageText(m) : '')?.[1]);
}

async function openIssue(title: string) {
  const res = await fetch(`${h.sim.url}/api/v4/projects/demo%2Fweb/issues`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': TOKENS.bob, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ title }).toString(),
  });
  expect(res.status).toBe(201);
}

const postsIn = (channel: string): FakeMessage[] =>
  [...h.bot.fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral);

describe('Slack’s answers to a digest’s post', () => {
  it('a rate limit is waited out and the post retried, so the digest is posted once', async () => {
    const id = await digestIn('C0DGSL1');
    clock.advance(60_000);
    await openIssue('Posted despite the rate limit');
    const from = h.bot.fake.lastSeq;
    // Retry-After: 0 keeps the wait test-sized (Bolt's client sleeps whole seconds for real).
    h.bot.fake.rateLimit('chat.postMessage', { times: 1, retryAfter: 0 });
    expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'posted', items: 1 });
    const tries = h.bot.fake.since(from, (r) => r.method === 'chat.postMessage');
    expect(tries.map((r) => r.error ?? 'ok')).toEqual(['ratelimited', 'ok']);
    expect(
      postsIn('C0DGSL1')
        .map(messageText)
        .join('\n')
        .match(/Posted despite the rate limit/g),
    ).toHaveLength(1);
  });

  it('a channel the bot may not post in pauses the digest and tells its owner once; after a resume nothing is lost', async () => {
    const id = await digestIn('C0DGSL2');
    clock.advance(60_000);
    await openIssue('Waiting for the channel');
    h.bot.fake.refusePosts('C0DGSL2', 'not_in_channel');
    expect(await h.bot.bot.digests.run(id)).toEqual({ kind: 'paused', reason: 'channel' });
    const dms = postsIn('D0ALICE').map(messageText);
    expect(dms.at(-1)).toContain(
      `Digest #${id} (events of demo/web) is paused: Slack refused to post in <#C0DGSL2> (\`not_in_channel\`). Invite the bot there, then resume it with \`/gl digest resume ${id}\`.`,
    );
    expect(h.bot.bot.digests.isArmed(id)).toBe(false);
    expect(await h.bot.bot.digests.run(id)).toEqual({ kind: 'paused', reason: 'channel' });
    expect(postsIn('D0ALICE')).toHaveLength(dms.length);

    h.bot.fake.refusePosts('C0DGSL2', null);
    const resumed = await h.bot.slack.command(PEOPLE.alice, `digest resume ${id}`, { channel: 'C0DGSL2' });
    expect(await resumed.waitForMessage((t) => /Resumed by/.test(t))).not.toBeNull();
    expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'posted', items: 1 });
    expect(messageText(postsIn('C0DGSL2')[0] as FakeMessage)).toContain('*Waiting for the channel*: opened by @bob');
  });
});
