import { describe, expect, it } from 'vitest';
import { type ParseResult, parseCommand, SPEC } from '../../../src/grammar/index.js';
import { INTERNAL_ERROR_MESSAGE } from '../../../src/grammar/parse.js';
import { findTokenShapedWord } from '../../../src/grammar/secrets.js';
import type { ArgSpec, CommandSpec, FlagSpec } from '../../../src/grammar/spec-types.js';
import { unescapeSlack } from '../../../src/grammar/text.js';
import { SERVER } from './support.js';

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

type Random = ReturnType<typeof createRandom>;

const entries: readonly CommandSpec[] = SPEC;
const SEEDS = entries.map((e) => e.example);
const WORDS = [
  ...new Set([
    ...entries.flatMap((e) => [e.noun, e.verb ?? '', ...(e.verbAliases ?? [])]),
    ...entries.flatMap((e) =>
      (e.flags as readonly FlagSpec[]).map((f) => `--${f.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`),
    ),
    'jobs',
    'mrs',
    'issues',
    'unaward',
    '--share',
    '--help',
    '--',
    '—scope',
    '--scope=',
    '--=',
    '-1h',
    '3h30m',
    '1mo',
    ':+1:',
    'demo/web',
    'group/sub/project',
    '42',
    '0',
    '-5',
    '99999999999999999999',
    '#12',
    '!34',
    '$5',
    'demo/web#3',
    'demo/web!4',
    'demo/web$5',
    '42#1',
    '#',
    '!',
    '$',
    '#0',
    'true',
    'false',
    'none',
    'failed,manual',
    ',',
    ',,',
    '2026-02-30',
    '2026-12-01',
    '2026-12-01T09:30:00Z',
    '0 9 * * 1-5',
    '*',
    'Europe/Berlin',
    'Mars/Base',
    '@alice',
    '<@U1|bob>',
    '<@U0123ABC>',
    '--assignees',
    'alice,<@U2|cy>,7',
    // Shaped like tokens (made up): the answer must be the secret refusal, never an echo.
    'glpat-Zx9qR2mT7vKp4LwN8sYb',
    'xoxb-123-456-AbCdEfGh',
    'aB3dE5fG7hJ9kL1mN2pQ',
    '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b',
    '<#C1|general>',
    '<!here>',
    '&amp;',
    '&lt;',
    '&gt;',
    '&lt;!channel&gt;',
    `${SERVER}/demo/web/-/issues/3`,
    `${SERVER}/demo/web/merge_requests/4#note_1`,
    `${SERVER}/demo/web/-/jobs/5`,
    `${SERVER}/demo/web/pipeline_schedules/7`,
    `<${SERVER}/demo/web/-/pipelines/6|p>`,
    'https://evil.test/demo/web/-/issues/1',
    'https://',
    'http://[::1',
    `${SERVER}/%E0%A4%A/-/issues/1`,
  ]),
].filter((w) => w !== '');
const NOISE = [
  '"',
  "'",
  '“',
  '”',
  '„',
  '‘',
  '’',
  '«',
  '»',
  '<',
  '>',
  '|',
  '&',
  '#',
  '!',
  '$',
  '-',
  '--',
  '=',
  ',',
  '/',
  '\\',
  '`',
  ':',
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u200b',
  '\u0000',
  '\u202e',
  '\ud800',
  '\udc00',
  '😀',
  '👍🏽',
  'é',
  'e\u0301',
  'ß',
  'İ',
  '中文',
  'ﬁ',
  '<http',
  '<@U',
  '<#C',
  '|x>',
  '&am',
  '&lt',
  '<mailto:',
  '<!date^1^{date}|',
];

function randomUnicode(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const range = random.int(5);
    if (range === 0) out += String.fromCharCode(32 + random.int(95));
    else if (range === 1) out += String.fromCharCode(random.int(0x10000));
    else if (range === 2) out += String.fromCodePoint(0x10000 + random.int(0x10ffff - 0x10000));
    else if (range === 3) out += random.pick(NOISE);
    else out += ' ';
  }
  return out;
}

function mutate(random: Random, text: string): string {
  let out = text;
  const edits = 1 + random.int(4);
  for (let i = 0; i < edits; i++) {
    const at = random.int(out.length + 1);
    switch (random.int(8)) {
      case 0:
        out = out.slice(0, at) + random.pick(NOISE) + out.slice(at);
        break;
      case 1:
        out = out.slice(0, at) + out.slice(at + 1 + random.int(3));
        break;
      case 2:
        out = `${out.slice(0, at)} ${random.pick(WORDS)} ${out.slice(at)}`;
        break;
      case 3:
        out = out.slice(0, at);
        break;
      case 4:
        out = `${out} ${random.pick(WORDS.filter((w) => w.startsWith('--')))}`;
        break;
      case 5: {
        const words = out.split(' ');
        const a = random.int(words.length);
        const b = random.int(words.length);
        [words[a], words[b]] = [words[b] ?? '', words[a] ?? ''];
        out = words.join(' ');
        break;
      }
      case 6:
        out = out.toUpperCase();
        break;
      default:
        out = out.replace(/[-_]/g, random.next() < 0.5 ? '_' : '-');
    }
  }
  return out;
}

function wordSalad(random: Random, count: number): string {
  return Array.from({ length: count }, () => random.pick(WORDS)).join(random.next() < 0.9 ? ' ' : '  ');
}

function longInput(random: Random): string {
  switch (random.int(4)) {
    case 0:
      return randomUnicode(random, 10_000);
    case 1:
      return `jobs ${'--scope failed '.repeat(700)}`.slice(0, 10_000);
    case 2:
      return `issue create demo/web ${'word '.repeat(2_000)}`;
    default:
      return `${random.pick(SEEDS)} "${'x'.repeat(10_000)}`;
  }
}

function generate(random: Random, i: number): string {
  if (i % 1000 === 999) return longInput(random);
  switch (random.int(4)) {
    case 0:
      return mutate(random, random.pick(SEEDS));
    case 1:
      return wordSalad(random, 1 + random.int(8));
    case 2:
      return randomUnicode(random, random.int(40));
    default:
      return mutate(random, wordSalad(random, 1 + random.int(5)));
  }
}

const byKey = new Map(entries.map((e) => [e.key, e]));
const TARGET_KINDS: Record<string, readonly string[]> = {
  none: ['none'],
  project: ['project'],
  issue: ['issue'],
  merge_request: ['merge_request'],
  awardable: ['issue', 'merge_request', 'snippet'],
  job: ['job'],
  pipeline: ['pipeline'],
  schedule: ['schedule'],
  deployment: ['deployment'],
};

const USER_KINDS = ['id', 'username', 'slack'];

function isUserRef(value: unknown): boolean {
  return typeof value === 'object' && value !== null && USER_KINDS.includes((value as { kind: string }).kind);
}

/** Why a result breaks the contract, or undefined when it is a well-formed Command or usage error. */
function violation(text: string, result: ParseResult): string | undefined {
  const secret = findTokenShapedWord(text) ?? findTokenShapedWord(unescapeSlack(text));
  if (secret && (result.ok || result.error.kind !== 'secret')) return 'a token-shaped word was not refused as one';
  if (!result.ok) {
    const { message, kind } = result.error;
    if (typeof message !== 'string' || message.length === 0) return 'empty message';
    if (message.startsWith(INTERNAL_ERROR_MESSAGE)) return 'the parser threw inside';
    if (/[<>]/.test(message)) return 'unescaped < or > in the message';
    if (kind === 'secret' && !secret) return 'refused as a secret without one';
    if (secret && message.includes(secret.word.slice(0, 8))) return 'the message shows the token';
    return undefined;
  }
  const { command } = result;
  const entry = byKey.get(command.key);
  if (!entry) return `unknown key ${command.key}`;
  if (!TARGET_KINDS[entry.target]?.includes(command.target.kind))
    return `target ${command.target.kind} for ${entry.key}`;
  const flagNames = (entry.flags as readonly FlagSpec[]).map((f) => f.name);
  for (const name of Object.keys(command.flags)) if (!flagNames.includes(name)) return `flag ${name} on ${entry.key}`;
  const argNames = (entry.args as readonly ArgSpec[]).map((a) => a.name);
  for (const name of Object.keys(command.args)) if (!argNames.includes(name)) return `arg ${name} on ${entry.key}`;
  if (typeof command.share !== 'boolean' || command.needsToken !== entry.needsToken) return 'share or needsToken';
  const flags = command.flags as Record<string, unknown>;
  for (const flag of entry.flags as readonly FlagSpec[]) {
    const value = flags[flag.name];
    if (value === undefined) continue;
    if (flag.type === 'user' && !isUserRef(value)) return `--${flag.name} is not a person`;
    if (flag.type === 'user-list' && !(Array.isArray(value) && value.length > 0 && value.every(isUserRef))) {
      return `--${flag.name} is not a list of people`;
    }
  }
  return undefined;
}

describe('the parser under random and mutated input', () => {
  it('always returns a Command or a usage error for 100,000 inputs, and never throws', { timeout: 60_000 }, () => {
    const random = createRandom(20260501);
    const servers = [SERVER, 'http://127.0.0.1:4000', 'not a url'];
    let commands = 0;
    let errors = 0;
    const failures: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const text = generate(random, i);
      let result: ParseResult;
      try {
        result = parseCommand(text, { serverUrl: servers[i % servers.length] ?? SERVER });
      } catch (thrown) {
        failures.push(`threw on ${JSON.stringify(text.slice(0, 200))}: ${String(thrown)}`);
        continue;
      }
      const problem = violation(text, result);
      if (problem) failures.push(`${problem}: ${JSON.stringify(text.slice(0, 200))}`);
      if (result.ok) commands++;
      else errors++;
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(commands + errors).toBe(100_000);
    // Both outcomes occur, so the generator reaches deep into the grammar rather than failing at the first word.
    expect(commands).toBeGreaterThan(5_000);
    expect(errors).toBeGreaterThan(5_000);
  });

  it('gives the same answer for the same input', () => {
    const random = createRandom(7);
    for (let i = 0; i < 500; i++) {
      const text = generate(random, i);
      expect(parseCommand(text, { serverUrl: SERVER })).toEqual(parseCommand(text, { serverUrl: SERVER }));
    }
  });

  it('survives input that is not a string at run time', () => {
    const untyped = parseCommand as (text: unknown, options: { serverUrl: string }) => ParseResult;
    expect(untyped(undefined, { serverUrl: SERVER }).ok).toBe(true);
    expect(untyped(42, { serverUrl: SERVER }).ok).toBe(true);
  });
});
