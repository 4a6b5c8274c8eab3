import { describe, expect, it } from 'vitest';
import { useBot } from '../../support/app-harness.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';

// Todo alerts paused by a refused token come back by themselves: their own polled loop (delivery/polled.ts) asks the
// server about the person's token again, with back-off (a first wait of a minute here), and, once it is accepted,
// the alerts resume with one DM saying so and the same pass delivers what came meanwhile. The person never has to
// use the bot or connect again, and nothing else (no digest's sweep) has to run.

const h = useBot({ alerts: { timer: 'manual', channelIntervalMs: 0 } });
const ALICE_DM = `D${PEOPLE.alice.id.slice(1)}`;
const dms = () => [...h.bot.fake.messages.values()].filter((m) => m.channel === ALICE_DM && !m.ephemeral);
const minutes = (n: number) => h.clock.advance(n * 60_000);
const poll = () => h.bot.bot.alerts.pollDue();

describe('todo alerts paused by a refused token', () => {
  it('resume by themselves once the server accepts the token again, without a connect', async () => {
    await h.ask('alice', 'notify on', /alerts are on/);
    h.sim.revoke('alice');
    h.sim.tick();
    minutes(1);
    expect((await poll()).map((p) => p.outcome)).toEqual([{ kind: 'paused' }]);
    expect(dms()).toHaveLength(1);

    // The loop sees the paused person (the first wait starts), then asks the server: still refused, they stay paused.
    minutes(1);
    expect(await poll()).toEqual([]);
    const refusedProbes = h.calls().length;
    minutes(1);
    expect(await poll()).toEqual([]);
    expect(h.calls(refusedProbes).length).toBeGreaterThan(0);

    // The server accepts the token again: the next re-check (a minute later) resumes them, with one DM, and the
    // todo comes in the same pass.
    h.sim.revoke('alice', { restore: true });
    minutes(1);
    expect((await poll()).map((p) => p.outcome.kind)).toEqual(['delivered']);
    expect(dms().map((m) => messageText(m))).toEqual([
      expect.stringContaining('paused until the server accepts your token again'),
      expect.stringContaining('The server accepts your token again, so your todo alerts are on again'),
      expect.stringContaining('New todo'),
    ]);
  });
});
