import { describe, expect, it } from 'vitest';
import { buildTrace } from '../../../src/views/jobs.js';
import { findLimitViolations } from '../../../src/views/limits.js';

// The trace view with traces longer than a section: what fits is cut by lines, never mid-block.

const codeBlock = (m: ReturnType<typeof buildTrace>) =>
  ((m.blocks?.[1] as { text?: { text?: string } } | undefined)?.text?.text ?? '') as string;

describe('buildTrace', () => {
  it('fits a long trace full of <, > and & in one section, with its code block closed', () => {
    const trace = Array.from({ length: 400 }, (_, i) => `step ${i}: a <b> && c > d`).join('\n');
    const m = buildTrace(null, 7, 'demo/web', trace, 1000);
    expect(findLimitViolations(m)).toEqual([]);
    const block = codeBlock(m);
    expect(block.startsWith('```step ')).toBe(true);
    expect(block.endsWith('step 399: a &lt;b&gt; &amp;&amp; c &gt; d```')).toBe(true);
    expect(block).not.toContain('…');
    const shown = block.slice(3, -3).split('\n').length;
    expect(m.text).toBe(`Trace of job #7 in demo/web: last ${shown} lines`);
  });

  it('shows a short trace whole, and says so when it is empty', () => {
    const m = buildTrace(null, 7, 'demo/web', 'one\ntwo\n', 40);
    expect(codeBlock(m)).toBe('```one\ntwo```');
    expect(buildTrace(null, 7, 'demo/web', '', 40).text).toBe('Trace of job #7 in demo/web: empty');
  });
});
