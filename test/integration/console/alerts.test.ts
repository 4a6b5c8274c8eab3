import { describe, expect, it } from 'vitest';
import { useDemoConsole } from '../../support/demo-console.js';

// The demo shows todo alerts: `notify on`, then a `tick` (a teammate mentions alice) brings her DM at once.

const c = useDemoConsole();

describe('todo alerts in the demo console', () => {
  it('shows alice’s DM after `notify on` and a tick, with Done and Open', async () => {
    expect(await c.say('/gl notify on')).toContain('Todo alerts are on');
    const ticked = await c.say('tick');
    expect(ticked).toContain('The simulator ticked');
    expect(ticked).toContain('direct message to alice');
    expect(ticked).toMatch(/🔔 demo\/web#\d+ .*\n.*Mentioned by @bob · in demo\/web/);
    expect(ticked).toMatch(/\[\d+ Done\]/);
    expect(ticked).toMatch(/\[\d+ Open ↗\]/);
    // Nothing new: the next tick brings the next todo only.
    const again = await c.say('tick');
    expect(again.match(/Mentioned by @bob/g) ?? []).toHaveLength(1);
  });
});
