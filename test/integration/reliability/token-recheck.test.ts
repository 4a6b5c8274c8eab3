import { afterEach, describe, expect, it } from 'vitest';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';
import { useCiBot } from '../ci/harness.js';

// Defect 4 of issue 28: a server that answers 401 to everything for longer than the second check, while only
// one person is active, cannot be told from a revoked token, and the bot marked that person's good token
// revoked for good. On d5eebc1 the first two tests failed: the next command asked Alice to connect again, and
// her digest paused. A token marked revoked is now asked about again before it is treated as gone: on the
// person's next command and before a digest gives up on it; accepted, it is valid again without a word.

const h = useCiBot({ digests: { timer: 'manual' } });

const REFUSED = /Your token was refused/;
const statusOf = async () => (await h.bot.tokens.find('T0TEST', PEOPLE.alice.id))?.status;
const idOf = (text: string) => Number(/Digest #(\d+)/.exec(text)?.[1]);

/** A 401 outage while only Alice is active: her command during it marks her (good) token revoked. */
async function outageRevokesAlice(): Promise<void> {
  h.sim.setFaults({ errorRate: 1, errorStatus: 401 });
  await h.ask('alice', 'job demo/web 8', REFUSED);
  expect(await statusOf()).toBe('revoked');
  h.sim.setFaults({});
}

afterEach(async () => {
  if ((await statusOf()) !== 'valid') {
    h.sim.revoke('alice', { restore: true });
    await h.bot.connect(PEOPLE.alice, TOKENS.alice);
  }
});

describe('a good token marked revoked by a 401 outage', () => {
  it('is accepted again on the person’s next command, which simply works', async () => {
    await outageRevokesAlice();
    const from = h.calls().length;
    const next = await h.ask('alice', 'job demo/web 8', /Job #8 /);
    expect(next.it.text()).not.toMatch(REFUSED);
    expect(next.it.text()).not.toMatch(/connect/i);
    expect(await statusOf()).toBe('valid');
    // whoami's "token last checked" moves to the re-check.
    expect((await h.bot.tokens.find('T0TEST', PEOPLE.alice.id))?.verifiedAt).toEqual(h.clock.now());
    // One plain read asked the server, then the command ran.
    const asked = h.calls(from).map((c) => `${c.method} ${c.path} ${c.status}`);
    expect(asked.slice(0, 2)).toEqual(['GET /api/v4/todos 200', 'GET /api/v4/projects/demo%2Fweb/jobs/8 200']);
    expect(asked.filter((c) => c.endsWith(' 401'))).toEqual([]);
    expect(h.bot.logs.some((l) => l.includes('accepted by the server again'))).toBe(true);
  });

  let digest = 0;
  it('is asked about before a digest gives up on it: the digest posts', async () => {
    digest = idOf((await h.ask('alice', 'digest todos --cron "0 9 * * *"', /Digest #/, { channel: 'C0RECHK' })).text);
    await outageRevokesAlice();
    h.clock.set('2026-03-03T09:00:00Z');
    const runs = await h.bot.bot.digests.runDue();
    expect(runs.find((r) => r.id === digest)?.outcome).toMatchObject({ kind: 'posted' });
    expect(await statusOf()).toBe('valid');
    expect(h.bot.bot.digests.isArmed(digest)).toBe(true);
  });

  it('resumes the digests the outage paused once the next command finds the token good', async () => {
    h.sim.setFaults({ errorRate: 1, errorStatus: 401 });
    h.clock.set('2026-03-04T09:00:00Z');
    const runs = await h.bot.bot.digests.runDue();
    expect(runs.find((r) => r.id === digest)?.outcome).toEqual({ kind: 'paused', reason: 'token' });
    h.sim.setFaults({});
    await h.ask('alice', 'job demo/web 8', /Job #8 /);
    expect(await statusOf()).toBe('valid');
    expect(h.bot.bot.digests.isArmed(digest)).toBe(true);
  });
});

describe('a token the server really revoked', () => {
  it('stays revoked: each later command asks once, and the person is asked to connect again', async () => {
    h.sim.revoke('alice');
    await h.ask('alice', 'job demo/web 8', REFUSED);
    for (let i = 0; i < 2; i++) {
      const from = h.calls().length;
      await h.ask('alice', 'job demo/web 8', REFUSED);
      expect(h.calls(from).map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual(['GET /api/v4/todos 401']);
    }
    expect(await statusOf()).toBe('revoked');
  });
});
