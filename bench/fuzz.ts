/**
 * Fuzzing the two doors anyone can knock on: the `/gl` parser (any text a person types) and the button-value
 * decoder (any action_id and value a forged click carries). 1,000,000 inputs by default, half each, random and
 * hostile: spec examples mutated, token-shaped words, Slack markup and entities, unicode edge cases, very long
 * text, JSON of every wrong shape. Neither may throw (or fall back to its internal-error answer). Prints one
 * JSON object with the counts and the slowest input of each.
 *
 *   npx tsx bench/fuzz.ts            FUZZ_INPUTS=20000 FUZZ_SEED=7 npx tsx bench/fuzz.ts
 */
import {
  type ButtonDef,
  type CommandSpec,
  decodeButtonAction,
  type FlagSpec,
  INTERNAL_ERROR_MESSAGE,
  NOUNS,
  parseCommand,
  SPEC,
} from '../src/index.js';

const TOTAL = Number(process.env.FUZZ_INPUTS ?? 1_000_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_302);
const SERVER = 'https://gitlab.example.com';

/** mulberry32: the same inputs for the same seed on every machine. */
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
const random = createRandom(SEED);

const HOSTILE = [
  '<!channel>',
  '<!here|here>',
  '<!everyone>',
  '<@U0ALICE>',
  '<@U1|bob>',
  '<#C1|general>',
  '<https://evil.example|click>',
  '<mailto:a@b.c|mail>',
  '<!date^1392734382^{date}|Feb 18>',
  '&lt;!channel&gt;',
  '&amp;lt;',
  '&',
  '&#60;',
  '`',
  '```',
  '*bold*',
  '_it_',
  '~s~',
  '>quote',
  '"',
  "'",
  '“',
  '”',
  '«',
  '»',
  '\\',
  '|',
  '--',
  '--=',
  '-',
  '—scope',
  '..',
  '../..',
  'demo/..',
  './web',
  '%2e%2e',
  '%2F',
  '%00',
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\u200b',
  '\u202e',
  '\ufeff',
  '\ud800',
  '\udfff',
  '😀',
  '👍🏽',
  'e\u0301',
  'İ',
  'ﬁ',
  '中文',
  '\t',
  '\n',
  '\r\n',
  '\u00a0',
  '99999999999999999999',
  '-1',
  '0',
  '1e308',
  'NaN',
  'Infinity',
  '__proto__',
  'constructor',
  'toString',
  'glpat-Zx9qR2mT7vKp4LwN8sYb',
  'xoxb-123-456-AbCdEfGh',
  'xapp-1-A1-1-abc',
  'aB3dE5fG7hJ9kL1mN2pQ',
  `${SERVER}/demo/web/-/jobs/5`,
  `<${SERVER}/demo/web/-/pipelines/6|p>`,
  'https://evil.test/demo/web/-/issues/1',
  'http://[::1',
  '0 9 * * 1-5',
  'Europe/Berlin',
  ':+1:',
  '#12',
  '!34',
  'demo/web#3',
];

const ENTRIES: readonly CommandSpec[] = SPEC;
const WORDS = [
  ...new Set([
    ...ENTRIES.flatMap((e) => [e.noun, e.verb ?? '', ...(e.verbAliases ?? [])]),
    ...ENTRIES.flatMap((e) =>
      (e.flags as readonly FlagSpec[]).map((f) => `--${f.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`),
    ),
    'demo/web',
    'group/sub/project',
    '--share',
    '--help',
    '8',
    '42',
  ]),
].filter((w) => w !== '');

function randomText(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const kind = random.int(6);
    if (kind === 0) out += String.fromCharCode(32 + random.int(95));
    else if (kind === 1) out += String.fromCharCode(random.int(0x10000));
    else if (kind === 2) out += String.fromCodePoint(0x10000 + random.int(0xfffff));
    else if (kind === 3) out += random.pick(HOSTILE);
    else if (kind === 4) out += ` ${random.pick(WORDS)} `;
    else out += ' ';
  }
  return out;
}

function mutate(text: string): string {
  let out = text;
  const edits = 1 + random.int(5);
  for (let i = 0; i < edits; i++) {
    const at = random.int(out.length + 1);
    switch (random.int(7)) {
      case 0:
        out = `${out.slice(0, at)}${random.pick(HOSTILE)}${out.slice(at)}`;
        break;
      case 1:
        out = out.slice(0, at) + out.slice(at + 1 + random.int(4));
        break;
      case 2:
        out = `${out.slice(0, at)} ${random.pick(WORDS)} ${out.slice(at)}`;
        break;
      case 3:
        out = `${out} ${random.pick(WORDS)} ${random.pick(HOSTILE)}`;
        break;
      case 4:
        out = out.slice(0, at);
        break;
      case 5:
        out = out.replace(/ /g, random.pick(['  ', '\t', '\u00a0', '']));
        break;
      default:
        out = random.next() < 0.5 ? out.toUpperCase() : out.split(' ').reverse().join(' ');
    }
  }
  return out;
}

const EXAMPLES = SPEC.map((e) => e.example);

/** A command text: mostly a mutated example, sometimes noise, sometimes very long. */
function commandText(): string {
  const roll = random.int(20);
  if (roll === 0) return randomText(2000 + random.int(6000));
  if (roll < 4) return randomText(1 + random.int(60));
  if (roll < 6) return `${random.pick(EXAMPLES)} ${random.pick(HOSTILE)}`.repeat(1 + random.int(3));
  return mutate(random.pick(EXAMPLES));
}

const BUTTONS = new Map<string, ButtonDef>(NOUNS.flatMap((n) => n.buttonDefs.map((d) => [d.name, d] as const)));
const BUTTON_NAMES = [...BUTTONS.keys()];

/** A JSON-ish value of any shape: numbers at their edges, hostile strings, nested and wide objects. */
function anyValue(depth = 0): unknown {
  switch (random.int(depth > 2 ? 5 : 8)) {
    case 0:
      return random.pick([0, -1, 1, 8, 1.5, 2 ** 53, -(2 ** 53), 1e308, Number.MAX_SAFE_INTEGER + 2]);
    case 1:
      return random.pick(HOSTILE);
    case 2:
      return randomText(random.int(40));
    case 3:
      return random.pick([null, true, false, '', 'x'.repeat(1300)]);
    case 4:
      return random.pick(['demo/web', 'group/sub/app', '..', 'demo/..', '/', 42]);
    case 5:
      return Array.from({ length: random.int(5) }, () => anyValue(depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = random.int(6); i > 0; i--) {
        out[random.pick(['p', 'j', 'q', 'n', 'i', 's', 'id', '__proto__', 'constructor', 'sudo', ''])] = anyValue(
          depth + 1,
        );
      }
      return out;
    }
  }
}

/** A click: a real button or a made-up action id, and a value that is valid, nearly valid or anything. */
function click(): { actionId: unknown; value: unknown } {
  const name = random.pick(BUTTON_NAMES);
  const actionId = random.pick([
    `gl:${name}`,
    `gl:${name}#${random.int(50)}`,
    `gl:${name}#`,
    `gl:${random.pick(HOSTILE)}`,
    'gl:',
    name,
    random.pick(HOSTILE),
    null,
    42,
  ]);
  const roll = random.int(10);
  let value: unknown;
  if (roll < 3)
    value = JSON.stringify({ p: random.pick(['demo/web', 42, '..']), j: random.pick([8, 0, -1, '8', 1.5]) });
  else if (roll < 6) value = JSON.stringify(anyValue());
  else if (roll < 8) value = mutate(JSON.stringify(anyValue()));
  else if (roll < 9) value = random.pick([undefined, null, 7, {}, '', '{', `{"q":"${'a'.repeat(3000)}"}`]);
  else value = randomText(random.int(200));
  return { actionId, value };
}

interface Slowest {
  us: number;
  input: string;
}

/**
 * The time of one run of `run`, in µs, as the least of three: a garbage collection or another process taking
 * the CPU would otherwise name an ordinary input the slowest.
 */
function retime(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const t0 = process.hrtime.bigint();
    run();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1000);
  }
  return best;
}
const show = (x: unknown) => {
  const text = typeof x === 'string' ? x : (JSON.stringify(x) ?? String(x));
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text;
};

const parser = { inputs: 0, throws: 0, internal_errors: 0, ok: 0, usage_errors: 0, secret_refusals: 0 };
let parserSlowest: Slowest = { us: 0, input: '' };
const buttons = { inputs: 0, throws: 0, decoded: 0, refused: 0 };
let buttonSlowest: Slowest = { us: 0, input: '' };
const failures: string[] = [];

// Warm-up (not counted): the first call of each path compiles its code and loads time-zone data, which would
// otherwise be reported as the slowest input.
for (let round = 0; round < 20; round++) {
  for (const text of EXAMPLES) parseCommand(mutate(text), { serverUrl: SERVER });
  for (let i = 0; i < 200; i++) {
    const { actionId, value } = click();
    decodeButtonAction(actionId, value, BUTTONS);
  }
}

const started = process.hrtime.bigint();
for (let n = 0; n < TOTAL; n++) {
  if (n % 2 === 0) {
    const text = commandText();
    parser.inputs++;
    const t0 = process.hrtime.bigint();
    try {
      const r = parseCommand(text, { serverUrl: SERVER });
      if (r.ok) parser.ok++;
      else if (r.error.kind === 'secret') parser.secret_refusals++;
      else if (r.error.message.includes(INTERNAL_ERROR_MESSAGE)) {
        parser.internal_errors++;
        if (failures.length < 10) failures.push(`parser internal error: ${show(text)}`);
      } else parser.usage_errors++;
    } catch (err) {
      parser.throws++;
      if (failures.length < 10) failures.push(`parser threw ${String(err)}: ${show(text)}`);
    }
    const us = Number(process.hrtime.bigint() - t0) / 1000;
    if (us > parserSlowest.us) {
      const again = retime(() => parseCommand(text, { serverUrl: SERVER }));
      if (again > parserSlowest.us) parserSlowest = { us: again, input: show(text) };
    }
  } else {
    const { actionId, value } = click();
    buttons.inputs++;
    const t0 = process.hrtime.bigint();
    try {
      const r = decodeButtonAction(actionId, value, BUTTONS);
      if (r.ok) buttons.decoded++;
      else buttons.refused++;
    } catch (err) {
      buttons.throws++;
      if (failures.length < 10) failures.push(`decoder threw ${String(err)}: ${show({ actionId, value })}`);
    }
    const us = Number(process.hrtime.bigint() - t0) / 1000;
    if (us > buttonSlowest.us) {
      const again = retime(() => decodeButtonAction(actionId, value, BUTTONS));
      if (again > buttonSlowest.us) buttonSlowest = { us: again, input: show({ actionId, value }) };
    }
  }
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const round = (x: number) => Math.round(x * 10) / 10;

console.log(
  JSON.stringify({
    benchmark: 'fuzz',
    seed: SEED,
    inputs: TOTAL,
    throws: parser.throws + buttons.throws,
    // The slowest input of each, timed again (least of three runs) so that a pause of the machine is not it.
    parser: { ...parser, slowest_us: round(parserSlowest.us), slowest_input: parserSlowest.input },
    buttons: { ...buttons, slowest_us: round(buttonSlowest.us), slowest_input: buttonSlowest.input },
    failures,
    seconds: round(seconds),
    node: process.version,
  }),
);
if (parser.throws + buttons.throws + parser.internal_errors > 0) process.exitCode = 1;
