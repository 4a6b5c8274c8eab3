import { describe, expect, it } from 'vitest';
import { numberOf, useDemoConsole } from '../../support/demo-console.js';

// The demo console shows the Home tab (`home`) with numbered buttons that act on it, and a person's message
// with links (`post …`) with the previews Slack shows under it, or the question asked before a private one.

const demoConsole = useDemoConsole();
const { say } = demoConsole;

describe('the Home tab in the console', () => {
  it('is shown by `home`, and its buttons act on it and show it again', async () => {
    const home = await say('home');
    expect(home).toContain('┌ Home tab of alice');
    expect(home).toMatch(/Connected to .* as `@alice`/);
    expect(home).toContain('== My todos ==');
    expect(home).toContain('== My merge requests ==');
    expect(home).toContain('== My issues ==');
    expect(home).toContain('== My digests ==');

    const done = await say(String(numberOf(home, 'Done')));
    expect(done).toContain('┌ Home tab of alice');
    expect(done).toMatch(/Marked done by @alice/);
    // The Home shown before is gone: its buttons say so.
    expect(await say(String(numberOf(home, 'Done')))).toMatch(/earlier version of your Home tab/);

    // Merge opens the card's form; the answer is the Home again.
    demoConsole.answers.push('no');
    const merged = await say(String(numberOf(done, 'Merge')));
    expect(merged).toContain('┌ form: Merge !3');
    expect(merged).toMatch(/Merged by @alice/);
    expect(merged).toContain('┌ Home tab of alice');

    // Someone else cannot press alice's Home.
    await say('as bob');
    expect(await say(String(numberOf(merged, 'Mark all done')))).toMatch(/on alice's Home tab, which only alice sees/);
    await say('as alice');
  });
});

describe('links in the console', () => {
  it('shows previews under a posted message, and asks first for a private one', async () => {
    const publicLink = `${demoConsole.demo.simUrl}/demo/web/-/issues/4`;
    const posted = await say(`post have a look: ${publicLink}`);
    expect(posted).toContain('┌ alice in #demo');
    expect(posted).toMatch(/▏ .*demo\/web#4.* Cart total is off by one cent/);

    const privateLink = `${demoConsole.demo.simUrl}/demo/secret/-/issues/1`;
    const asked = await say(`post and ${privateLink}`);
    expect(asked).toContain('Show a preview of this private link to #demo?');
    const shown = await say(String(numberOf(asked, 'Show')));
    expect(shown).toMatch(/preview is now shown/);
    const message = [...demoConsole.demo.fake.messages.values()].filter((m) => m.user).at(-1);
    expect(Object.keys(message?.unfurls ?? {})).toEqual([privateLink]);
  });
});
