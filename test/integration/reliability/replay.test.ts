import { describe, expect, it } from 'vitest';
import { useApp } from '../../support/app-harness.js';
import { slashCommandBody } from '../../support/payloads.js';
import { signedRequest } from '../../support/signing.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';

// Defect 7 of issue 17: a signed request must run at most once, and only within five minutes of its
// timestamp either way. Both tests failed on 1388a11 (the future timestamps were answered 200, the copy
// of a request ran a second POST …/retry).

const app = useApp({ connected: ['alice'] });

const nowSec = () => Math.floor(Date.now() / 1000);

describe('timestamps from the future', () => {
  it.each([
    ['an hour', 60 * 60],
    ['six minutes', 6 * 60],
  ])('refuses a request signed %s ahead with 401 and runs nothing', async (_what, ahead) => {
    app.sim.reset();
    const seq = app.bot.fake.lastSeq;
    const it = await app.bot.slack.command(PEOPLE.alice, 'job retry demo/web 8', {
      sign: { timestamp: nowSec() + ahead },
    });
    expect(it.ack.status).toBe(401);
    expect(it.ack.text).toBe('');
    expect(app.bot.fake.since(seq)).toEqual([]);
    expect(app.sim.requests()).toEqual([]);
  });

  it('accepts a request signed a little ahead (clocks differ)', async () => {
    const it = await app.bot.slack.command(PEOPLE.alice, 'help', { sign: { timestamp: nowSec() + 60 } });
    expect(it.ack.status).toBe(200);
  });
});

describe('a signed request posted twice', () => {
  it('runs once: the copy is refused with 401 and the server sees one POST', async () => {
    app.sim.reset();
    const seq = app.bot.fake.lastSeq;
    const raw = slashCommandBody({
      user: PEOPLE.alice,
      command: '/gl',
      text: 'job retry demo/web 8',
      channel: 'C0REPLAY',
      responseUrl: app.bot.fake.registerResponseUrl({ channel: 'C0REPLAY', user: PEOPLE.alice.id }),
      triggerId: app.bot.fake.issueTrigger(),
    });
    const { headers, body } = signedRequest(app.bot.signingSecret, raw);
    const post = () => fetch(`${app.bot.url}/slack/events`, { method: 'POST', headers, body });
    const first = await post();
    const copy = await post();
    expect(first.status).toBe(200);
    expect(copy.status).toBe(401);
    expect(await copy.text()).toBe('');
    const answered = await app.bot.fake.waitFor(
      (r) => r.kind === 'response_url' && /Retried by/.test(messageText(r.body as { text?: string })),
      { fromSeq: seq, timeoutMs: 5000 },
    );
    expect(answered).not.toBeNull();
    expect(app.sim.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(app.bot.logs.filter((l) => l.includes('"reason":"replayed"'))).toHaveLength(1);
    // A third copy is refused the same way: the signature is remembered for the whole signing window.
    expect((await post()).status).toBe(401);
    expect(app.bot.fake.since(seq, (r) => r.kind === 'response_url')).toHaveLength(1);
  });
});

// Defect 1 of issue 28: a captured request resent with text after its signature. On d5eebc1 each of these
// copies got 200 and ran again (Bolt compares only what follows the first `=`; the memory keyed the whole
// header), so the server saw four more POSTs.
describe('a signed request resent with its signature header changed', () => {
  it('runs once: every copy whose header is not exactly v0= and 64 hex digits is refused with 401', async () => {
    app.sim.reset();
    const seq = app.bot.fake.lastSeq;
    const raw = slashCommandBody({
      user: PEOPLE.alice,
      command: '/gl',
      text: 'job retry demo/web 8',
      channel: 'C0REPLAY',
      responseUrl: app.bot.fake.registerResponseUrl({ channel: 'C0REPLAY', user: PEOPLE.alice.id }),
      triggerId: app.bot.fake.issueTrigger(),
    });
    const { headers, body } = signedRequest(app.bot.signingSecret, raw);
    const signature = headers['x-slack-signature'] as string;
    const post = (sig: string) =>
      fetch(`${app.bot.url}/slack/events`, { method: 'POST', headers: { ...headers, 'x-slack-signature': sig }, body });
    expect((await post(signature)).status).toBe(200);
    const copies = [
      `${signature}=x`,
      `${signature}=`,
      `${signature}=1=2`,
      `${signature} `,
      ` ${signature}`,
      `${signature},${signature}`,
      signature.toUpperCase(),
      `V0=${signature.slice(3)}`,
      `v1=${signature.slice(3)}`,
    ];
    const statuses = [];
    for (const copy of copies) statuses.push((await post(copy)).status);
    expect(statuses).toEqual(copies.map(() => 401));
    await app.bot.fake.waitFor((r) => r.kind === 'response_url', { fromSeq: seq, timeoutMs: 5000 });
    expect(app.sim.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(app.bot.fake.since(seq, (r) => r.kind === 'response_url')).toHaveLength(1);
  });
});
