import { describe, expect, it } from 'vitest';
import { numberOf, useDemoConsole } from '../../support/demo-console.js';

// Pressing buttons in the console: numbers run on through the session, any button still shown
// can be pressed, a redrawn message's old numbers stop working, and a deleted message's say so.

const demoConsole = useDemoConsole();
const { say } = demoConsole;

const numbers = (said: string) => [...said.matchAll(/\[(\d+) /g)].map((m) => Number(m[1]));

describe('console buttons', () => {
  it('has nothing to press before the first answer, and says how presses work in its help', async () => {
    expect(await say('1')).toBe('No buttons to press yet.');
    expect(await say('help')).toContain('numbers run on through the session');
  });

  it('numbers on across answers and presses a button of an earlier answer', async () => {
    const list = await say('jobs demo/web --scope failed');
    const card = await say('job demo/web 8');
    const listRetry = numberOf(list, 'Retry');
    // The demo's failed jobs: job 8 first, then the older ones of its delivery history.
    expect(numbers(list)[0]).toBe(1);
    expect(listRetry).toBe(1);
    expect(Math.min(...numbers(card))).toBe(Math.max(...numbers(list)) + 1);

    const pressed = await say(String(listRetry));
    expect(pressed).toMatch(/updated/);
    expect(pressed).toMatch(/Retried by @alice/);
    // the redrawn list got new numbers after every number given so far
    expect(Math.min(...numbers(pressed))).toBe(Math.max(...numbers(card)) + 1);

    const stale = await say(`click ${listRetry}`);
    expect(stale).toBe(
      `Button ${listRetry} was on an earlier version of its message; its buttons are now ${numbers(pressed)[0]}–${numbers(pressed).at(-1)}.`,
    );

    // the card of the first answer is still as it was shown: its Retry is pressed, and says job 8 was retried already
    expect(await say(String(numberOf(card, 'Retry')))).toMatch(/Already retried by @alice/);
  });

  it('says so when a button of a deleted message is pressed, and sends nothing', async () => {
    const prompt = await say('schedule delete demo/web 3');
    await say(String(numberOf(prompt, 'Never mind')));
    const seq = demoConsole.demo.fake.lastSeq;
    const yes = numberOf(prompt, 'Yes, delete schedule #3');
    expect(await say(String(yes))).toBe(`Button ${yes} was on a message that has since been deleted.`);
    expect(demoConsole.demo.fake.lastSeq).toBe(seq);
  });

  it('shows a message again with new numbers when it changed since it was shown', async () => {
    const shared = await say('job demo/web 8 --share');
    const trace = numberOf(shared, 'Trace');
    const message = [...demoConsole.demo.fake.messages.values()].filter((m) => !m.ephemeral).at(-1);
    if (!message) expect.fail('the shared card is not in the fake Slack');
    const res = await fetch(`${demoConsole.demo.fake.apiUrl}chat.update`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demoConsole.demo.fake.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: message.channel, ts: message.ts, text: message.text, blocks: message.blocks }),
    });
    expect(await res.json()).toMatchObject({ ok: true });

    // What the bot changes between lines is printed as it happens (issue 29), with new numbers; the old ones say so.
    const again = demoConsole.output.at(-1) ?? '';
    expect(again).toMatch(/^┌ posted in #demo, updated/);
    const newTrace = numberOf(again, 'Trace');
    expect(newTrace).toBeGreaterThan(trace);
    expect(await say(String(trace))).toMatch(
      new RegExp(`^Button ${trace} was on an earlier version of its message; its buttons are now `),
    );
    expect(await say(String(newTrace))).toMatch(/Trace of job #8/);
  });

  it('names the numbers there are when one that was never given is pressed', async () => {
    const said = await say('click 999');
    expect(said).toMatch(/^There is no button 999; buttons so far are 1–\d+\.$/);
  });
});
