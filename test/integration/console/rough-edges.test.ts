import { describe, expect, it } from 'vitest';
import { mrkdwnToText } from '../../../src/console/render.js';
import { numberOf, useDemoConsole } from '../../support/demo-console.js';

// What a new user tripped over in the demo console: `y` after a typed confirmation, a link that is not previewed
// holding the console, "Never mind" answered with "(no answer)", emoji codes as text, and someone else pressing
// your ephemeral buttons. A turn waits at most `mayNotAnswerMs` for an answer that may not come; the long turn
// timeout makes a console that waits for one anyway never finish.

const c = useDemoConsole({ session: { turnTimeoutMs: 10 * 60_000, mayNotAnswerMs: 300 } });

describe('the demo console', () => {
  it('takes y and n as the answer to the last "Yes, …" prompt of a typed command', async () => {
    const asked = await c.say('/gl job erase demo/web 8');
    expect(asked).toMatch(/Yes, erase job #8/);
    const erased = await c.say('y');
    expect(erased).not.toMatch(/I don't know/);
    expect(erased).toMatch(/Erased by @alice/);

    await c.say('/gl job erase demo/web 8');
    const declined = await c.say('n');
    expect(declined).not.toMatch(/I don't know|\(no answer\)/);
    expect(declined).toMatch(/removed the message/);
    expect(await c.say('y')).toMatch(/no question of yours to answer/);
  });

  it('lets y answer only the question of whoever types it (issue 47)', async () => {
    await c.say('/gl job erase demo/web 8');
    await c.say('as bob');
    expect(await c.say('y')).toMatch(/no question of yours to answer/);
    await c.say('as alice');
    expect(await c.say('n')).toMatch(/removed the message/);
  });

  it('draws a confirm dialog’s text like any text, not as raw mrkdwn (issue 47)', async () => {
    const card = await c.say('/gl digest todos --here');
    expect(await c.say(String(numberOf(card, 'Remove')))).toContain('(not pressed)');
    const question = c.asked.at(-1) ?? '';
    expect(question).toMatch(/Remove digest #\d+ \(pending todos in #demo\)\?/);
    expect(question).not.toMatch(/<#C/);
  });

  it('asks again only for a field the bot refused, keeping the other answers (issue 47)', async () => {
    c.answers.push('Console form title', 'Typed once', '', '', '2026-13-45', '', '2026-12-24');
    const said = await c.say('/gl issue create demo/web');
    expect(said).toContain('✗ Pick a date from the calendar.');
    expect(said).toMatch(/Created by @alice · issue demo\/web#\d+/);
    expect(said).toContain('Due: 2026-12-24');
    const asked = c.asked.slice(-8).join('\n');
    // Title and description were asked once; the due date twice.
    expect(asked.match(/Title/g)).toHaveLength(1);
    expect(asked.match(/Due date/g)).toHaveLength(2);
    const issues = (await (
      await fetch(`${c.demo.simUrl}/api/v4/projects/demo%2Fweb/issues?search=Console%20form`, {
        headers: { 'PRIVATE-TOKEN': 'sim-alice-token' },
      })
    ).json()) as { description: string; due_date: string }[];
    expect(issues[0]).toMatchObject({ description: 'Typed once', due_date: '2026-12-24' });
  });

  it('waits when told, for scripts that wait for a cron (issue 47)', async () => {
    expect(await c.say('wait 0.01')).toContain('(0.01 s passed)');
    expect(await c.say('wait forever')).toMatch(/Wait how long\?/);
  });

  it('says a prompt dismissed with Never mind is gone, instead of "(no answer)"', async () => {
    const asked = await c.say('/gl job erase demo/web 8');
    const dismissed = await c.say(String(numberOf(asked, 'Never mind')));
    expect(dismissed).not.toContain('(no answer)');
    expect(dismissed).toMatch(/removed the message with buttons \d+–\d+/);
  });

  it('does not hold the console on a posted link the bot does not preview', async () => {
    const project = await c.say(`post the project: ${c.demo.simUrl}/demo/web`);
    expect(project).toContain('alice in #demo');
    const elsewhere = await c.say('post see https://example.com/some/page');
    expect(elsewhere).toContain('alice in #demo');
  });

  it("lets nobody else press a person's ephemeral buttons", async () => {
    const jobs = await c.say('/gl jobs demo/web --scope failed');
    const retry = numberOf(jobs, 'Retry');
    await c.say('as bob');
    const refused = await c.say(String(retry));
    expect(refused).toMatch(/only alice can see/);
    expect(refused).not.toMatch(/Retried by/);
    await c.say('as alice');
    expect(await c.say(String(retry))).toMatch(/Retried by @alice/);
  });

  it('renders the common emoji codes', () => {
    const name = () => undefined;
    expect(mrkdwnToText(':heart: :eyes: :tada: :star: :bulb: :information_source: :fire:', name)).toBe(
      '❤ 👀 🎉 ⭐ 💡 ℹ 🔥',
    );
  });
});
