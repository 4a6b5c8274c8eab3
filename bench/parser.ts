/**
 * Parser speed over a realistic mix: every example of the spec table (each command once), the everyday forms
 * people type most (lists with flags, links, references) and some typos that take the error path. Prints one
 * JSON object with the median and p99 time per command in microseconds.
 *
 *   npx tsx bench/parser.ts
 */
import { parseCommand, SPEC } from '../src/index.js';

const SERVER = 'https://gitlab.example.com';
const EVERYDAY = [
  'jobs demo/web --scope failed',
  'jobs --scope failed,manual --per-page 50',
  'job retry 123',
  'job trace demo/web 123 --lines 80',
  'pipelines demo/web --status failed --ref main',
  'pipeline demo/web 55 --share',
  'issues --state opened --labels bug,ui --sort desc',
  'issue #12',
  'issue create demo/web "Login fails on Safari" --labels bug --assignees 3',
  'mr !34',
  'mrs --scope assigned-to-me --state opened',
  'mr merge demo/web!34 --when-pipeline-succeeds',
  `${SERVER}/group/sub/project/-/merge_requests/34`,
  `issue <${SERVER}/demo/web/-/issues/12#note_5|demo/web#12>`,
  'award demo/web#3 :thumbsup:',
  'todos',
  'todo done 130',
  'events demo/web --action pushed --after 2026-01-31',
  'digest todos --cron "0 9 * * 1-5" --tz Europe/Berlin',
  'help jobs',
];
const TYPOS = ['jbos demo/web', 'job retyr 123', 'mrs --stat opened', 'issue spend #3 90', 'pipeline run'];
const MIX = [...SPEC.map((entry) => entry.example), ...EVERYDAY, ...EVERYDAY, ...TYPOS];

const WARMUP_ROUNDS = 200;
const ROUNDS = 400;

for (let round = 0; round < WARMUP_ROUNDS; round++) {
  for (const text of MIX) parseCommand(text, { serverUrl: SERVER });
}

const samples = new Float64Array(ROUNDS * MIX.length);
let n = 0;
let errors = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const text of MIX) {
    const start = process.hrtime.bigint();
    const result = parseCommand(text, { serverUrl: SERVER });
    const end = process.hrtime.bigint();
    samples[n++] = Number(end - start) / 1000;
    if (!result.ok) errors++;
  }
}
samples.sort();
const quantile = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
const total = samples.reduce((sum, us) => sum + us, 0);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

console.log(
  JSON.stringify({
    benchmark: 'grammar.parseCommand',
    mix: { commands: MIX.length, spec_examples: SPEC.length, everyday: EVERYDAY.length * 2, typos: TYPOS.length },
    calls: samples.length,
    error_share: round3(errors / samples.length),
    median_us: round3(quantile(0.5)),
    p99_us: round3(quantile(0.99)),
    mean_us: round3(total / samples.length),
    max_us: round3(samples[samples.length - 1] ?? 0),
    node: process.version,
  }),
);
