import { describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../support/fake-slack.js';
import { buttonsOf, messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';
import { useCiBot } from '../ci/harness.js';

// A digest reads with its owner's token. When the server refuses it (revoked in the simulator), every digest of
// the owner pauses and the owner gets one DM with a Connect button; connecting again resumes them.

const h = useCiBot({ digests: { timer: 'manual' } });

const idOf = (text: string) => Number(/Digest #(\d+)/.exec(text)?.[1]);
const dms = (user: string) =>
  [...h.bot.fake.messages.values()].filter((m) => m.channel === `D${user.slice(1)}` && !m.ephemeral);

describe('a token the server no longer accepts', () => {
  it('pauses all the owner’s digests with one DM, and connecting again resumes them', async () => {
    const events = idOf(
      (await h.ask('alice', 'digest events demo/web --cron "0 9 * * *"', /Digest #/, { channel: 'C0DGRV1' })).text,
    );
    const todos = idOf(
      (await h.ask('alice', 'digest todos --cron "0 9 * * *"', /Digest #/, { channel: 'C0DGRV1' })).text,
    );
    const bobs = idOf((await h.ask('bob', 'digest todos --cron "0 9 * * *"', /Digest #/, { channel: 'C0DGRV1' })).text);

    const revoked = await fetch(`${h.sim.url}/__sim/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice' }),
    });
    expect(revoked.status).toBe(200);
    h.clock.set('2026-03-03T08:00:00Z');
    const from = h.calls().length;
    const runs = await h.bot.bot.digests.runDue();
    expect(runs.find((r) => r.id === events)?.outcome).toEqual({ kind: 'paused', reason: 'token' });
    expect(runs.find((r) => r.id === todos)?.outcome).toEqual({ kind: 'paused', reason: 'token' });
    expect(runs.find((r) => r.id === bobs)?.outcome).toMatchObject({ kind: 'posted' });

    // Alice's reads were refused (a 401, confirmed by one plain read), and nothing else was read as her.
    const aliceCalls = h.calls(from).filter((c) => c.user !== 'bob');
    expect(aliceCalls.length).toBeGreaterThanOrEqual(2);
    expect(aliceCalls.every((c) => c.user === null && c.status === 401)).toBe(true);
    expect(aliceCalls.map((c) => c.path)).toContain('/api/v4/todos');

    const aliceDms = dms(PEOPLE.alice.id);
    expect(aliceDms).toHaveLength(1);
    const dm = messageText(aliceDms[0] as FakeMessage);
    expect(dm).toContain(
      'refused your token (401), so your 2 digests are paused until the server accepts your token again:',
    );
    expect(dm).toContain(`#${events} events of demo/web → <#C0DGRV1>`);
    expect(dm).toContain(`#${todos} pending todos → <@U0ALICE>'s DM`);
    expect(buttonsOf(aliceDms[0] as FakeMessage).map((b) => b.text)).toEqual(['Connect']);
    expect(h.bot.bot.digests.isArmed(events)).toBe(false);
    expect(h.bot.bot.digests.isArmed(todos)).toBe(false);
    expect(h.bot.bot.digests.isArmed(bobs)).toBe(true);

    const list = await h.ask('alice', 'digest list', /Digests/, { channel: 'C0DGRV1' });
    expect(list.text).toContain("paused (the owner's token was refused; it resumes when the server accepts it again)");

    // Later times pass without a read as Alice and without another DM.
    h.clock.set('2026-03-04T08:00:00Z');
    const later = h.calls().length;
    await h.bot.bot.digests.runDue();
    expect(h.calls(later).filter((c) => c.user !== 'bob')).toEqual([]);
    expect(dms(PEOPLE.alice.id)).toHaveLength(1);

    // Alice gets a working token again and connects: both digests run again, and she is told so.
    h.sim.revoke('alice', { restore: true });
    const { submission } = await h.bot.connect(PEOPLE.alice, TOKENS.alice);
    expect(submission.ack.json).toMatchObject({ response_action: 'update' });
    expect(h.bot.bot.digests.isArmed(events)).toBe(true);
    expect(h.bot.bot.digests.isArmed(todos)).toBe(true);
    const after = dms(PEOPLE.alice.id);
    expect(after).toHaveLength(2);
    expect(messageText(after[1] as FakeMessage)).toContain(
      `You are connected again, so these digests run again: #${events} events of demo/web, #${todos} pending todos.`,
    );

    h.clock.set('2026-03-05T08:00:00Z');
    const resumed = await h.bot.bot.digests.runDue();
    expect(resumed.find((r) => r.id === todos)?.outcome).toMatchObject({ kind: 'posted' });
    expect(resumed.find((r) => r.id === events)?.outcome).toMatchObject({ kind: 'empty' });
    expect(dms(PEOPLE.alice.id)).toHaveLength(3);
  });
});
