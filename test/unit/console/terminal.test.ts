import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MASK, maskTokens } from '../../../src/console/mask.js';
import { createConsoleIO } from '../../../src/console/terminal.js';

// The console never shows a token back: not in a script's echo, not while a secret is typed
// on a terminal, not in the terminal's history.

// a terminal's escape sequences, left out to read what the person sees
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

function capture() {
  const output = new PassThrough();
  let text = '';
  output.on('data', (c: Buffer) => {
    text += c.toString('utf8');
  });
  return { output, text: () => text };
}

describe('maskTokens', () => {
  it('keeps the prefix of token-shaped words and hides the rest', () => {
    expect(maskTokens('/gl connect glpat-AbC_12-xyz789 now')).toBe(`/gl connect glpat-${MASK} now`);
    expect(maskTokens('sim-alice-token and xoxb-1-2-abc and gloas-0123456789')).toBe(
      `sim-${MASK} and xoxb-${MASK} and gloas-${MASK}`,
    );
  });

  it('leaves ordinary words alone', () => {
    for (const line of ['/gl jobs demo/web --scope failed', 'glossary-entries-2024', 'simple-token-bucket', '1'])
      expect(maskTokens(line)).toBe(line);
  });
});

describe('a script or piped input', () => {
  it('echoes each line after its prompt with tokens masked, and a secret answer not at all', async () => {
    const { output, text } = capture();
    const io = createConsoleIO({ output, lines: ['/gl connect glpat-abcdefghij1234', 'sim-eve-token', ''] });
    expect(await io.read('alice> ')).toBe('/gl connect glpat-abcdefghij1234');
    expect(await io.read('  Personal access token: ', { secret: true })).toBe('sim-eve-token');
    expect(await io.read('  Note (optional): ', { secret: true })).toBe('');
    expect(await io.read('alice> ')).toBeNull();
    expect(text()).toBe(
      `alice> /gl connect glpat-${MASK}\n  Personal access token: ${MASK}\n  Note (optional): \nalice> \n`,
    );
  });

  it('reads piped input the same way', async () => {
    const { output, text } = capture();
    const input = new PassThrough();
    const io = createConsoleIO({ output, input, interactive: false });
    input.end('whoami\nsim-bob-token\n');
    expect(await io.read('alice> ')).toBe('whoami');
    expect(await io.read('  Personal access token: ', { secret: true })).toBe('sim-bob-token');
    expect(await io.read('alice> ')).toBeNull();
    expect(text()).not.toContain('sim-bob-token');
    expect(text()).toContain(`Personal access token: ${MASK}\n`);
    io.close();
  });
});

describe('a terminal', () => {
  const type = (input: PassThrough, keys: string) => input.write(keys);

  it('does not echo a secret while it is typed, and shows the mask once it is entered', async () => {
    const { output, text } = capture();
    const input = new PassThrough();
    const io = createConsoleIO({ output, input, interactive: true });
    const answer = io.read('  Personal access token: ', { secret: true });
    type(input, 'sim-eve-token\r');
    expect(await answer).toBe('sim-eve-token');
    const next = io.read('eve> ');
    type(input, 'whoami\r');
    expect(await next).toBe('whoami');
    expect(text()).not.toContain('sim-eve');
    expect(plain(text())).toBe(`  Personal access token: ${MASK}\neve> whoami\r\n`);
    io.close();
  });

  it('redraws a line that held a token masked, and keeps it out of the history', async () => {
    const { output, text } = capture();
    const input = new PassThrough();
    const io = createConsoleIO({ output, input, interactive: true });
    const first = io.read('alice> ');
    type(input, 'whoami\r');
    expect(await first).toBe('whoami');
    const second = io.read('alice> ');
    type(input, '/gl connect glpat-abcdefghij1234\r');
    expect(await second).toBe('/gl connect glpat-abcdefghij1234');
    expect(text()).toMatch(/\x1b\[1A\r\x1b\[Jalice> \/gl connect glpat-\*{8}\n$/);

    const before = text().length;
    const recalled = io.read('alice> ');
    type(input, '\x1b[A\r'); // up arrow: the newest entry of the history, then enter
    expect(await recalled).toBe('whoami');
    expect(text().slice(before)).not.toContain('glpat');
    io.close();
  });
});

describe('maskTokens and the bot’s own idea of a token', () => {
  it('masks every word the bot would refuse to show: any case, runner registration tokens, unprefixed ones', () => {
    expect(maskTokens('/gl connect GLPAT-Zq8RmT2vKp4LwN7sYbX3')).toBe(`/gl connect GLPAT-${MASK}`);
    expect(maskTokens('a GR1348941Zq8RmT2vKp4LwN7sYb b')).toBe(`a ${MASK} b`);
    expect(maskTokens('/gl connect Zq8RmT2vKp4LwN7sYbX3aQ')).toBe(`/gl connect ${MASK}`);
    expect(maskTokens('x ACME-glpat-Zq8RmT2vKp4LwN7sYbX3 y')).toBe(`x ACME-glpat-${MASK} y`);
  });
});
