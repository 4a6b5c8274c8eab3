import { describe, expect, it } from 'vitest';
import { useCiBot } from '../ci/harness.js';

// Defect 10 of issue 17: tokens typed where they do not belong are never echoed, never shared, and the
// person is told to revoke them. On 1388a11 `/gl connect <token>` answered "Too many words: `<token>`",
// `--ref <token> --share` ran (and posted in the channel), and a known token of someone else was repeated
// back in the usage message.

const h = useCiBot();

const REVOKE = 'A token typed into a chat is no longer secret: revoke it on the server now and create a new one.';

/** Nothing the bot sent anywhere, and nothing it logged, holds the token. */
function expectNowhere(token: string) {
  expect(JSON.stringify(h.bot.fake.records)).not.toContain(token);
  expect(h.bot.logs.join('\n')).not.toContain(token);
}

describe('a token typed into a command', () => {
  it.each([
    ['connect', (t: string) => `connect ${t}`],
    ['a --ref of a shared list', (t: string) => `pipelines demo/web --ref ${t} --share`],
    ['a shared job', (t: string) => `job demo/web 8 ${t} --share`],
  ])('(%s) is refused in the ack, privately, without echoing it, and runs nothing', async (_what, text) => {
    const token = 'glpat-Zq8RmT2vKp4LwN7sYbX3';
    const seen = await h.ask('alice', text(token), /no longer secret/);
    expect(seen.it.ackMessage).not.toBeNull();
    expect(seen.message).toMatchObject({ ephemeral: true, visibleTo: 'U0ALICE' });
    expect(seen.text).toContain(REVOKE);
    expect(seen.text).toContain('did not run it and I am not showing it back');
    expect(seen.it.records()).toEqual([]); // no modal, no message in the channel
    expect(h.calls()).toEqual([]);
    expectNowhere(token);
  });

  it('refuses a token the bot knows (someone connected with it) though it has no token shape', async () => {
    // bob's token is short and plain: no pattern finds it, but the bot registered it when bob connected.
    const seen = await h.ask('alice', 'jobs demo/web --scope sim-bob-token --share', /no longer secret/);
    expect(seen.message).toMatchObject({ ephemeral: true, visibleTo: 'U0ALICE' });
    expect(seen.text).toContain(REVOKE);
    expect(h.calls()).toEqual([]);
    expectNowhere('sim-bob-token');
  });
});
