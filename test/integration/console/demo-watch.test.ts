import { describe, expect, it } from 'vitest';
import { runDemoScript } from '../../support/demo-script.js';

describe('npm run demo: a watch of demo/web', () => {
  it('shows the card of a pipeline that fails as the simulator ticks, then its redraw and reply when a fix passes', () => {
    const r = runDemoScript(['/gl watch pipelines demo/web', 'tick', 'tick', 'tick', 'tick', 'tick', 'tick', 'quit']);
    expect(r.status).toBe(0);
    const steps = r.stdout.split(/^alice> /m);
    expect(steps[1]).toContain('Watch #1 · failed pipelines of demo/web → #demo');
    // Nothing is posted while the pipeline runs; the fifth tick fails it.
    for (const step of steps.slice(2, 6)) expect(step).not.toContain('posted in #demo');
    expect(steps[6]).toMatch(/posted in #demo[^\n]*\n│ == ❌ Pipeline #(\d+) failed · fix\/checkout-total ==/);
    expect(steps[6]).toMatch(/unit-tests .*\(test\)\n│ {3}\[\d+ Retry\]/);
    expect(steps[7]).toMatch(
      /posted in #demo, updated[^\n]*\n│ == ✅ Pipeline #\d+ failed · fix\/checkout-total · fixed ==/,
    );
    expect(steps[7]).toMatch(
      /in the thread of message \d+[^\n]*\n│ ✅ Fixed by #\d+ .*· moments later: pipeline #\d+ on `fix\/checkout-total` passed\./,
    );
    expect(r.stderr).toBe('');
  }, 130_000);
});
