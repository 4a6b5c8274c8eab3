import { beforeEach, describe, expect, it } from 'vitest';
import { buttonOf, useCiBot } from '../ci/harness.js';

// Defect 5 of issue 17: a sealed token that does not open (a flipped byte, a row copied from someone
// else) counts as no connection: "your stored token can't be read; connect again", logged once for the
// operator. On 1388a11 whoami said "connected" and every command answered "Something went wrong".

const h = useCiBot();

const UNREADABLE = "Your stored token can't be read any more (the bot's key changed or the record is damaged).";

const sealedOf = (userId: string) =>
  (h.bot.db.prepare('SELECT sealed_token FROM user_tokens WHERE user_id = ?').get(userId) as { sealed_token: string })
    .sealed_token;
const setSealed = (userId: string, sealed: string) =>
  h.bot.db.prepare('UPDATE user_tokens SET sealed_token = ? WHERE user_id = ?').run(sealed, userId);

/** The same sealed value with one character of its ciphertext changed. */
const flipped = (sealed: string) => {
  const i = sealed.length - 5;
  return `${sealed.slice(0, i)}${sealed[i] === 'A' ? 'B' : 'A'}${sealed.slice(i + 1)}`;
};

let logFrom = 0;
beforeEach(() => {
  logFrom = h.bot.logs.length;
});
const unreadableLogLines = () => h.bot.logs.slice(logFrom).filter((l) => l.includes("stored token can't be read"));

describe('a stored token that does not open', () => {
  it.each([
    ['a flipped byte', (own: string) => flipped(own)],
    ['a row copied from someone else', () => sealedOf('U0BOB')],
  ])('(%s) reads as not connected everywhere, calls nothing, and is logged once', async (_what, damage) => {
    const card = await h.ask('alice', 'job demo/web 8 --share', /Job #8 /);
    const own = sealedOf('U0EVE');
    setSealed('U0EVE', damage(own));
    try {
      const from = h.calls().length;
      const whoami = await h.ask('eve', 'whoami', /can't be read/);
      expect(whoami.text).toContain(UNREADABLE);
      const jobs = await h.ask('eve', 'jobs demo/web', /can't be read/);
      expect(jobs.it.messages()).toHaveLength(1); // one answer, after an empty ack
      expect(jobs.text).toContain('Connect again to go on.');
      const click = await h.press('eve', buttonOf(card, /^Retry$/), /can't be read/);
      expect(click.message).toMatchObject({ ephemeral: true, visibleTo: 'U0EVE' });
      expect(h.calls(from)).toEqual([]);

      const lines = unreadableLogLines();
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'warn', team: 'T0TEST', user: 'U0EVE' });
      expect(lines[0]).not.toContain(own);
    } finally {
      setSealed('U0EVE', own);
    }
    // Connecting again replaces the row: commands work as before.
    expect((await h.ask('eve', 'whoami', /connected/)).text).toContain("You're connected");
  });
});
