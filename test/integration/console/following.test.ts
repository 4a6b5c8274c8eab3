import { describe, expect, it } from 'vitest';
import { useDemoConsole } from '../../support/demo-console.js';

// The demo console shows a card that follows its pipeline: `pipeline run demo/web main --share` posts it in #demo,
// each `tick` moves the simulator's runner on and redraws the card in place, and the DM arrives when it finishes.

const c = useDemoConsole({ follows: { timer: 'manual', shareEveryMs: 0 } });

describe('following in the demo console', () => {
  it('redraws the shared card at each tick and prints the DM when the pipeline finishes', async () => {
    const started = await c.say('/gl pipeline run demo/web main --share');
    expect(started).toContain('posted in #demo');
    expect(started).toMatch(/Pipeline #\d+ · main/);
    expect(started).toContain('Kept up to date until it finishes');
    let all = '';
    for (let i = 0; i < 10 && !all.includes('direct message to alice'); i++) all += `\n${await c.say('tick')}`;
    // Redrawn in place at each tick, and finished with the DM.
    expect(all.split('posted in #demo, updated').length - 1).toBeGreaterThan(3);
    expect(all).toContain('Status: ✅ success');
    expect(all).toContain('Finished; no longer followed.');
    expect(all).toMatch(
      /┌ direct message to alice(?: · message \d+)?\n│ ✅ Pipeline #\d+ on `main` \(http[^)]+\) passed in/,
    );
    // Nothing more comes with the next tick.
    expect(await c.say('tick')).not.toContain('direct message to alice');
  });
});
