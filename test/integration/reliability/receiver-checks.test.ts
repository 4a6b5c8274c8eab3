import { describe, expect, it } from 'vitest';
import { useApp } from '../../support/app-harness.js';
import { blockActionsBody, slashCommandBody } from '../../support/payloads.js';
import { signedRequest } from '../../support/signing.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';

// The receiver reads each request's body once, checks it, and hands what it read to the app (Bolt's receiver no
// longer reads it a second time). These pin what must still hold: the checks decide before anything runs, whatever
// way the body arrives, and an unsigned SSL check runs nothing whatever else its form carries.

const app = useApp({ connected: ['alice'] });

const FORM = 'application/x-www-form-urlencoded';

/** A job card's Retry button, as alice sees it: a click POSTs a retry to the server. */
async function retryButton() {
  const it = await app.bot.slack.command(PEOPLE.alice, 'job demo/web 8');
  expect(await it.waitForMessage((text) => /Job #8/.test(text))).not.toBeNull();
  const button = it.button(/^Retry$/);
  if (!button) throw new Error('no Retry button on the job card');
  return button;
}

function clickBody(button: Awaited<ReturnType<typeof retryButton>>, channel: string) {
  return blockActionsBody({
    user: PEOPLE.alice,
    channel,
    messageTs: button.message.ts,
    ephemeral: button.message.ephemeral,
    button,
    responseUrl: app.bot.fake.registerResponseUrl({ channel, user: PEOPLE.alice.id }),
    triggerId: app.bot.fake.issueTrigger(),
  });
}

describe("Slack's SSL check", () => {
  it('is answered 200 unsigned and runs nothing, even with a click smuggled into the same form', async () => {
    const button = await retryButton();
    app.sim.reset();
    const seq = app.bot.fake.lastSeq;
    const body = `ssl_check=1&token=x&${clickBody(button, button.message.channel)}`;
    const res = await fetch(`${app.bot.url}/slack/events`, { method: 'POST', headers: { 'content-type': FORM }, body });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    // Given time to run, the click did nothing: no retry reached the server, nothing was said in Slack.
    const signed = await app.bot.slack.command(PEOPLE.alice, 'help');
    expect(signed.ack.status).toBe(200);
    expect(app.sim.requests().filter((r) => r.method === 'POST')).toEqual([]);
    expect(app.bot.fake.since(seq, (r) => r.kind === 'response_url')).toEqual([]);
  });

  it('is the only thing answered unsigned: the same click without ssl_check=1 is refused 401', async () => {
    const button = await retryButton();
    app.sim.reset();
    const res = await fetch(`${app.bot.url}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: clickBody(button, button.message.channel),
    });
    expect(res.status).toBe(401);
    expect(app.sim.requests().filter((r) => r.method === 'POST')).toEqual([]);
  });
});

describe('a body that arrives without a length', () => {
  const command = (text: string) =>
    slashCommandBody({
      user: PEOPLE.alice,
      command: '/gl',
      text,
      channel: 'C0CHUNKED',
      responseUrl: app.bot.fake.registerResponseUrl({ channel: 'C0CHUNKED', user: PEOPLE.alice.id }),
      triggerId: app.bot.fake.issueTrigger(),
    });
  /** Posts the body in chunks (Transfer-Encoding: chunked, no Content-Length). */
  const postChunked = (headers: Record<string, string>, body: string) =>
    fetch(`${app.bot.url}/slack/events`, {
      method: 'POST',
      headers,
      body: new ReadableStream({
        start(controller) {
          const bytes = new TextEncoder().encode(body);
          controller.enqueue(bytes.slice(0, 10));
          controller.enqueue(bytes.slice(10));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);

  it('is read whole, checked and run once: the copy is refused 401', async () => {
    app.sim.reset();
    const seq = app.bot.fake.lastSeq;
    const { headers, body } = signedRequest(app.bot.signingSecret, command('job retry demo/web 8'));
    const first = await postChunked(headers, body);
    expect(first.status).toBe(200);
    const answered = await app.bot.fake.waitFor(
      (r) => r.kind === 'response_url' && /Retried by/.test(messageText(r.body as { text?: string })),
      { fromSeq: seq, timeoutMs: 5000 },
    );
    expect(answered).not.toBeNull();
    expect((await postChunked(headers, body)).status).toBe(401);
    expect(app.sim.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('is refused 401 when its signature is not of the body that arrived, and nothing runs', async () => {
    app.sim.reset();
    const seq = app.bot.fake.lastSeq;
    const { headers } = signedRequest(app.bot.signingSecret, command('help'));
    const res = await postChunked(headers, command('job retry demo/web 8'));
    expect(res.status).toBe(401);
    expect(app.sim.requests()).toEqual([]);
    expect(app.bot.fake.since(seq)).toEqual([]);
  });
});
