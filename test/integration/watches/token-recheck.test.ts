import { describe, expect, it } from 'vitest';
import { useBot } from '../../support/app-harness.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';

// Pipeline watches paused by a refused token come back by themselves, as alerts do: their own polled loop asks the
// server about the creator's token again with back-off and, once it is accepted, resumes them with one DM; the
// same pass posts what failed meanwhile. The creator never has to connect again.

const h = useBot({ watches: { timer: 'manual', channelIntervalMs: 0 } });
const CHANNEL = 'C0WRCHK1';
const minutes = (n: number) => h.clock.advance(n * 60_000);
const aliceDms = () =>
  [...h.bot.fake.messages.values()].filter((m) => m.channel === `D${PEOPLE.alice.id.slice(1)}` && !m.ephemeral);
const cards = () =>
  [...h.bot.fake.messages.values()].filter((m) => m.channel === CHANNEL && !m.ephemeral && !m.threadTs);

describe('pipeline watches paused by a refused token', () => {
  it('resume by themselves once the server accepts the token again, and post what failed meanwhile', async () => {
    await h.ask('alice', 'watch pipelines demo/web', /Watch #\d+/, { channel: CHANNEL });
    h.sim.revoke('alice');
    minutes(1.1);
    await h.bot.bot.watches.poll();
    expect(aliceDms().map((m) => messageText(m))).toEqual([
      expect.stringContaining('so your watch is paused until the server accepts your token again'),
    ]);
    for (let i = 0; i < 5; i++) h.sim.tick(); // a pipeline fails while the watch is paused

    // Seen, then asked about: still refused.
    minutes(1);
    expect(await h.bot.bot.watches.poll()).toEqual({ polled: 0, posted: 0 });
    minutes(1);
    expect(await h.bot.bot.watches.poll()).toEqual({ polled: 0, posted: 0 });
    expect(aliceDms()).toHaveLength(1);

    h.sim.revoke('alice', { restore: true });
    minutes(1);
    expect(await h.bot.bot.watches.poll()).toMatchObject({ polled: 1, posted: 1 });
    expect(aliceDms().map((m) => messageText(m))[1]).toContain(
      'The server accepts your token again, so this watch polls again',
    );
    expect(cards().map((m) => messageText(m))).toEqual([expect.stringMatching(/Pipeline #\d+ failed/)]);
  });
});
