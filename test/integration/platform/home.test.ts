import { describe, expect, it } from 'vitest';
import { useApp } from '../../support/app-harness.js';
import { PEOPLE, QUICK_SLACK } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

const app = useApp({ slackTiming: QUICK_SLACK });

describe('App Home', () => {
  it('shows a person who is not connected a Connect button, and a connected one since when', async () => {
    const first = await app.bot.slack.event({
      type: 'app_home_opened',
      user: PEOPLE.carol.id,
      channel: 'D0CAROL',
      tab: 'home',
    });
    expect(first.ack.status).toBe(200);
    const published = await first.waitFor((r) => r.method === 'views.publish');
    expect(published?.ok).toBe(true);
    expect(published?.body.user_id).toBe(PEOPLE.carol.id);
    expect(JSON.stringify(published?.view)).toMatch(/not connected yet[\s\S]*"Connect"/);

    await app.bot.connect(PEOPLE.alice, TOKENS.alice);
    const second = await app.bot.slack.event({
      type: 'app_home_opened',
      user: PEOPLE.alice.id,
      channel: 'D0ALICE',
      tab: 'home',
    });
    const view = await second.waitFor((r) => r.method === 'views.publish');
    expect(JSON.stringify(view?.view)).toMatch(/Connected to/);
    expect(JSON.stringify(view?.view)).not.toMatch(/"Connect"/);
  });

  it('publishes the home tab when Slack rate-limits the first tries: the client waits Retry-After and retries', async () => {
    app.bot.fake.rateLimit('views.publish', { times: 2, retryAfter: 0 });
    const seq = app.bot.fake.lastSeq;
    const opened = await app.bot.slack.event({
      type: 'app_home_opened',
      user: PEOPLE.carol.id,
      channel: 'D0CAROL',
      tab: 'home',
    });
    expect(opened.ack.status).toBe(200);
    expect(await opened.waitFor((r) => r.method === 'views.publish' && r.ok, 10_000)).not.toBeNull();
    expect(
      app.bot.fake
        .since(seq)
        .filter((r) => r.method === 'views.publish')
        .map((r) => r.error ?? 'ok'),
    ).toEqual(['ratelimited', 'ratelimited', 'ok']);
  });

  it('ignores the Messages tab', async () => {
    const seq = app.bot.fake.lastSeq;
    const it = await app.bot.slack.event({
      type: 'app_home_opened',
      user: PEOPLE.alice.id,
      channel: 'D0ALICE',
      tab: 'messages',
    });
    expect(it.ack.status).toBe(200);
    const probe = await app.bot.slack.command(PEOPLE.carol, 'help');
    expect(probe.ack.status).toBe(200);
    expect(app.bot.fake.since(seq).filter((r) => r.method === 'views.publish')).toEqual([]);
  });
});
