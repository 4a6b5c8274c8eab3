import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBot } from '../../support/built-bot.js';
import { openProcessWorld, until } from '../../support/process-world.js';
import { buttonsOf, messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';
import { WATCH_TIMING } from './kill-cases.js';

// Why it failed, on the card a watch posts, through the built bot as a process and the fake Slack: the simulator's
// tick fails a pipeline of demo/web (its unit-tests job, with a failing vitest test), and the card in the channel
// carries the lines that explain it, the rule that found them and a Trace button beside them.

let build: { dir: string; remove(): void } | undefined;

beforeAll(async () => {
  build = await buildBot();
}, 240_000);

afterAll(() => build?.remove());

describe("a watch's card of a failed pipeline", () => {
  it('carries the failed test and its assertion, from the trace, with Trace beside it', async ({ onTestFinished }) => {
    const world = await openProcessWorld({ buildDir: build?.dir as string, engine: 'sqlite', env: WATCH_TIMING });
    onTestFinished(() => world.close());
    await world.connect(PEOPLE.alice, TOKENS.alice);
    const bot = await world.start();
    const made = await bot.slack.command(PEOPLE.alice, 'watch pipelines demo/web', { channel: 'C0WHYFAIL' });
    expect(await made.waitForMessage((t) => /Watch #\d+/.test(t), 10_000)).not.toBeNull();
    for (let i = 0; i < 5; i++) world.sim.tick(); // a pipeline of fix/checkout-total fails
    const card = await until('the card', () =>
      [...world.fake.messages.values()].find((m) => m.channel === 'C0WHYFAIL' && !m.ephemeral && !m.threadTs),
    );
    const text = messageText(card);
    expect(text).toMatch(/Pipeline #\d+ failed · fix\/checkout-total/);
    expect(text).toContain('AssertionError: expected 59.96 to be 59.97 // Object.is equality');
    expect(text).toContain("from vitest's failed tests");
    expect(buttonsOf(card).map((b) => b.text)).toEqual(['Retry', 'Trace', 'Retry pipeline', 'Jobs', 'Open in GitLab']);
    // The card reads why as the watch's creator: the failed job's trace, once.
    const traces = world.sim.requests().filter((r) => r.path.endsWith('/trace'));
    expect(traces).toHaveLength(1);
    expect(traces[0]?.user).toBe('alice');
    await world.stop(bot);
  }, 180_000);
});
