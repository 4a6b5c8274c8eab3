import { describe, expect, it } from 'vitest';
import { buttonOf, useCiBot } from '../ci/harness.js';

// Defect 8 of issue 17: a trace whose last line is longer than a message. On 1388a11 the answer said
// "last 0 lines" over an empty block. Defect 5 of issue 28: such a line kept only its end, and lost its start,
// where `ERROR:` is (on d5eebc1 the second test failed); it now keeps both ends and leaves out the middle.

const h = useCiBot();

const codeBlockOf = (blocks: unknown[]) =>
  (blocks as { text?: { text?: string } }[]).map((b) => b.text?.text ?? '').find((t) => t.startsWith('```')) ?? '';

describe('a trace whose last line is longer than a message', () => {
  it('shows both ends of that line, counted as one line, for the command and for the Trace button', async () => {
    const last = `${'x<y&z '.repeat(2000)}THE END`;
    h.sim.editJob(8, { trace: `${last}\n` });

    const seen = await h.ask('alice', 'job trace demo/web 8', /Trace of job #8/);
    expect(seen.message.text).toBe('Trace of job #8 in demo/web: last 1 line');
    const block = codeBlockOf(seen.message.blocks ?? []);
    expect(block.startsWith('```x&lt;y&amp;z x&lt;y')).toBe(true);
    expect(block).toContain('…');
    expect(block.length).toBeLessThanOrEqual(3000);
    expect(block.endsWith('x&lt;y&amp;z THE END```')).toBe(true);

    const card = await h.ask('alice', 'job demo/web 8', /Job #8 /);
    const clicked = await h.press('alice', buttonOf(card, /^Trace$/), /Trace of job #8/);
    expect(codeBlockOf(clicked.message.blocks ?? []).endsWith('THE END```')).toBe(true);
  });
});

describe('a failing job whose last line is a 3,200-character error', () => {
  it('shows where the error starts and where it ends', async () => {
    const last = `ERROR: Job failed: exit code 1 ${'-'.repeat(3200)} (after 3 attempts)`;
    h.sim.editJob(8, { trace: `Running with gitlab-runner\n${last}\n` });
    const seen = await h.ask('alice', 'job trace demo/web 8', /Trace of job #8/);
    const block = codeBlockOf(seen.message.blocks ?? []);
    expect(block.startsWith('```ERROR: Job failed: exit code 1 ---')).toBe(true);
    expect(block.endsWith('--- (after 3 attempts)```')).toBe(true);
    expect(block.length).toBeLessThanOrEqual(3000);
  });
});
