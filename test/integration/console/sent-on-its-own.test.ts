import { describe, expect, it } from 'vitest';
import { useDemoConsole } from '../../support/demo-console.js';

// The console prints everything the bot sends when it sends it, not only the answers to what was typed: a digest
// posted on its cron between two lines appears at once. node-cron fires on real time, so here the test fires the
// due digests itself (the demo's digests run with a manual timer on the test's clock), while the console is idle.

const c = useDemoConsole({ digests: { timer: 'manual', spreadMs: 0 } });

const between = async (fire: () => Promise<unknown>): Promise<string> => {
  const before = c.output.length;
  await fire();
  return c.output.slice(before).join('\n');
};

describe('what the bot sends on its own', () => {
  it('prints a digest posted on its "* * * * *" cron while nothing is typed, and not again with the next line', async () => {
    expect(await c.say('/gl digest todos --here --cron "* * * * *"')).toContain('Digest #1');
    c.clock.advance(61_000);
    const printed = await between(() => c.demo.digests.runDue());
    expect(printed).toContain('┌ posted in #demo');
    expect(printed).toContain("@alice's pending todos");
    expect(printed).toMatch(/\[\d+ Mark all done\]/);
    const next = await c.say('/gl digest list');
    expect(next).not.toContain("@alice's pending todos");
    expect(next).toContain('#demo');
  });

  it('prints a digest sent by direct message, naming whose DM it is, and channels by name, never by id', async () => {
    await c.say('as bob');
    const created = await c.say('/gl digest todos --cron "* * * * *"');
    expect(created).toContain("→ @bob's DM");
    c.clock.advance(61_000);
    const printed = await between(() => c.demo.digests.runDue());
    expect(printed).toContain('┌ direct message to bob');
    expect(printed).toMatch(/pending todos/i);
    expect(c.output.join('\n')).not.toContain('C0DEMO');
  });
});
