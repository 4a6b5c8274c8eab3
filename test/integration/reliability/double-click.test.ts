import { describe, expect, it } from 'vitest';
import { buttonOf, call, useCiBot, WEB } from '../ci/harness.js';

// Defect 12 of issue 17: a click repeated while the first is still running (same person, same resource,
// same action) does nothing of its own. On 1388a11 both clicks of Retry reached the server: two POSTs,
// the second refused by the server (the only reason there was one effect).

const h = useCiBot();

describe('a button clicked twice in the same moment', () => {
  it('sends one POST; the card is redrawn once, with who retried it', async () => {
    const card = await h.ask('alice', 'job demo/web 8 --share', /Job #8 /);
    const from = h.calls().length;
    // Slow enough that the second click surely arrives while the first is on its way.
    h.sim.setFaults({ latencyMs: 300 });
    const retry = buttonOf(card, /^Retry$/);
    const [first, second] = await Promise.all([h.click('alice', retry), h.click('alice', retry)]);
    expect([first.ack.status, second.ack.status]).toEqual([200, 200]);
    const seen = await first.waitForMessage((t) => /Retried by/.test(t));
    expect(seen).not.toBeNull();
    h.sim.setFaults({});
    const posts = h.calls(from).filter((c) => c.method === 'POST');
    expect(posts).toEqual([call('POST', `${WEB}/jobs/8/retry`, 'alice', { status: 201 })]);
    // The second click said nothing of its own: the card was redrawn once, and nothing else was posted.
    expect(h.bot.fake.messages.get(card.message.key)?.version).toBe(2);
    expect(second.messages().map((m) => m.key)).toEqual([card.message.key]);
  });

  it('acts again once the first click is done, and for another person at once', async () => {
    const card = await h.ask('alice', 'job demo/web 8 --share', /Job #8 /);
    await h.press('alice', buttonOf(card, /^Trace$/), /Trace of job #8/);
    await h.press('alice', buttonOf(card, /^Trace$/), /Trace of job #8/);
    h.sim.setFaults({ latencyMs: 200 });
    const trace = buttonOf(card, /^Trace$/);
    const [a, b] = await Promise.all([h.click('alice', trace), h.click('bob', trace)]);
    expect(await a.waitForMessage((t) => /Trace of job #8/.test(t))).not.toBeNull();
    expect(await b.waitForMessage((t) => /Trace of job #8/.test(t))).not.toBeNull();
    h.sim.setFaults({});
  });
});
