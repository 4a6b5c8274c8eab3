import { describe, expect, it } from 'vitest';
import { projectOf } from '../../../src/gitlab/project.js';
import { buildTrace } from '../../../src/views/jobs.js';
import { findLimitViolations } from '../../../src/views/limits.js';

// The trace view with traces longer than a section: what fits is cut by lines, never mid-block.

const WEB = projectOf('demo/web');

const codeBlock = (m: ReturnType<typeof buildTrace>) =>
  ((m.blocks?.[1] as { text?: { text?: string } } | undefined)?.text?.text ?? '') as string;

describe('buildTrace', () => {
  it('fits a long trace full of <, > and & in one section, with its code block closed', () => {
    const trace = Array.from({ length: 400 }, (_, i) => `step ${i}: a <b> && c > d`).join('\n');
    const m = buildTrace({ jobId: 7, project: WEB, trace, lines: 1000, slashCommand: '/gl' });
    expect(findLimitViolations(m)).toEqual([]);
    const block = codeBlock(m);
    expect(block.startsWith('```step ')).toBe(true);
    expect(block.endsWith('step 399: a &lt;b&gt; &amp;&amp; c &gt; d```')).toBe(true);
    expect(block).not.toContain('…');
    const shown = block.slice(3, -3).split('\n').length;
    expect(m.text).toBe(`Trace of job #7 in demo/web: last ${shown} lines`);
  });

  it('shows a short trace whole, and says so when it is empty', () => {
    const m = buildTrace({ jobId: 7, project: WEB, trace: 'one\ntwo\n', lines: 40, slashCommand: '/gl' });
    expect(codeBlock(m)).toBe('```one\ntwo```');
    expect(buildTrace({ jobId: 7, project: WEB, trace: '', lines: 40, slashCommand: '/gl' }).text).toBe(
      'Trace of job #7 in demo/web: empty',
    );
  });

  it('keeps both ends of a last line longer than the whole block, and counts it as one line', () => {
    const last = `${'a<b'.repeat(2000)} the end`;
    const m = buildTrace({ jobId: 7, project: WEB, trace: `${last}\n`, lines: 40, slashCommand: '/gl' });
    expect(findLimitViolations(m)).toEqual([]);
    expect(m.text).toBe('Trace of job #7 in demo/web: last 1 line');
    const block = codeBlock(m);
    // Issue 28: the start of the line is where a runner writes `ERROR:`, so it stays too.
    expect(block.startsWith('```a&lt;ba&lt;b')).toBe(true);
    expect(block).toMatch(/^```[^…]+…[^…]+```$/);
    expect(block.endsWith('a&lt;b the end```')).toBe(true);
  });

  it('names the configured slash command in the --full hint', () => {
    const m = buildTrace({ jobId: 7, project: WEB, trace: 'one\n', lines: 40, slashCommand: '/dev' });
    expect(JSON.stringify(m.blocks)).toContain('`/dev job trace demo/web 7 --full`');
  });
});
