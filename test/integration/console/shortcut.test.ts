import { describe, expect, it } from 'vitest';
import { useDemoConsole } from '../../support/demo-console.js';

// `shortcut issue <n>` in the demo console: "Create issue" on a numbered message shows the issue form filled in
// from the message, and the answer in the message's thread.

const demoConsole = useDemoConsole();
const { say } = demoConsole;

describe('the message shortcut in the console', () => {
  it('numbers messages in channels, opens the filled-in form on one and shows the reply in its thread', async () => {
    await say('/gl use demo/web');
    const posted = await say('post The cart forgets coupons after login');
    const n = Number(/^┌ alice in #demo · message (\d+)$/m.exec(posted)?.[1]);
    expect(n).toBeGreaterThan(0);

    // Title and description kept as filled in, a label typed, the rest left empty.
    demoConsole.answers.push('', '', 'bug', '', '', '');
    const said = await say(`shortcut issue ${n}`);
    expect(said).toContain('┌ form: New issue');
    expect(said).toContain('In demo/web');
    expect(said).toContain('Title is filled in:\n  │ The cart forgets coupons after login');
    expect(said).toMatch(
      /Description is filled in:\n {2}│ The cart forgets coupons after login\n {2}│ \n {2}│ From Slack: https:\/\/test-team\.slack\.com\/archives\/C0DEMO\/p\d+/,
    );
    const reply = new RegExp(
      `┌ posted in #demo, in the thread of message ${n} · message \\d+\\n` +
        '│ 📝 Issue `demo/web#\\d+` The cart forgets coupons after login \\(http://[^)]+/demo/web/issues/\\d+\\) created by @alice',
    );
    expect(said).toMatch(reply);
    const created = (await (
      await fetch(`${demoConsole.demo.simUrl}/api/v4/projects/demo%2Fweb/issues?search=coupons`, {
        headers: { 'PRIVATE-TOKEN': 'sim-alice-token' },
      })
    ).json()) as { title: string; labels: string[]; author: { username: string } }[];
    const mine = created.filter((c) => c.title === 'The cart forgets coupons after login');
    expect(mine).toEqual([
      expect.objectContaining({ labels: ['bug'], author: expect.objectContaining({ username: 'alice' }) }),
    ]);
  });

  it('says which numbers there are when a message number is wrong, and is in the help', async () => {
    expect(await say('shortcut issue 999')).toMatch(/There is no message 999; messages so far are 1–\d+\./);
    expect(await say('shortcut issue')).toContain('Which message? e.g. shortcut issue 2');
    expect(await say('help')).toContain('shortcut issue <n>');
  });
});
