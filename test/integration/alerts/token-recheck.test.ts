import { describe, expect, it } from 'vitest';
import { useBot } from '../../support/app-harness.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';

// Todo alerts paused by a refused token come back by themselves: the delivery kernel's sweep asks the server about
// the owner's token again (with back-off; here at once) and, once it is accepted, the alerts resume and the next poll
// delivers what came meanwhile. The person never has to use the bot or connect again.

const h = useBot({ alerts: { timer: 'manual', channelIntervalMs: 0 }, digests: { timer: 'manual', recheckMs: 0 } });
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

    // Still refused: the sweep's re-check leaves them paused.
    await h.bot.bot.digests.sweep();
    minutes(1);
    expect(await poll()).toEqual([]);

    // The server accepts the token again: the next sweep's re-check resumes them, and the todo comes.
    h.sim.revoke('alice', { restore: true });
    minutes(1);
    await h.bot.bot.digests.sweep();
    minutes(1);
    expect((await poll()).map((p) => p.outcome.kind)).toEqual(['delivered']);
    expect(dms().map((m) => messageText(m))).toEqual([
      expect.stringContaining('paused until the server accepts your token again'),
      expect.stringContaining('The server accepts your token again, so your todo alerts are on again'),
      expect.stringContaining('New todo'),
    ]);
  });
});
