import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { TOKENS } from '../../support/start-sim.js';
import { buttonOf, type Call, call, useCiBot, WEB } from './harness.js';

// Why it failed (issue 42): the cards of failed jobs and pipelines carry the lines of the trace that explain the
// failure, the rule that found them, and whether the job is flaky or broken, for traces set by hand in the style of
// each runner. The simulator's request log counts what each card reads.

const h = useCiBot();

const trace = (name: string) => readFileSync(new URL(`../../unit/failure/traces/${name}.log`, import.meta.url), 'utf8');
const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);
const isTrace = (c: Call) => /\/jobs\/\d+\/trace$/.test(c.path);
const isHistory = (c: Call) => c.path === `${WEB}/jobs`;
const history = (page = 1) =>
  call('GET', `${WEB}/jobs`, 'alice', { query: { scope: ['failed', 'success'], per_page: '100', page: String(page) } });
/** Kept per project a few minutes: each test that judges flakiness starts that long after the one before. */
let minutesOn = 0;
function freshHistory() {
  minutesOn += 10;
  h.clock.advance(minutesOn * 60_000);
}

// One job per runner (each job's excerpt is kept once read), the trace set by hand, and a line the card must show.
const RUNNERS: [fixture: string, job: number, from: string, line: string][] = [
  ['vitest', 1, "vitest's failed tests", 'AssertionError: expected 59.96 to be 59.97 // Object.is equality'],
  ['jest', 2, "jest's failed tests", '● cart totals › rounds each line before summing'],
  ['pytest', 4, "pytest's summary", 'FAILED tests/test_cart.py::test_rounds_each_line - AssertionError'],
  ['go-test', 5, 'go test', '--- FAIL: TestTotalsRoundEachLine (0.00s)'],
  [
    'maven',
    17,
    "Maven Surefire's results",
    'TotalsTest.roundsEachLine:42 expected: &lt;59.97&gt; but was: &lt;59.96&gt;',
  ],
  ['gradle', 18, "Gradle's failed tests", 'TotalsTest &gt; roundsEachLine() FAILED'],
  ['cargo', 22, "cargo test's failures", "thread 'cart::tests::rounds_each_line' panicked at src/cart.rs:42:9:"],
  ['rspec', 14, "RSpec's failures", 'Failure/Error: expect(cart.total).to eq(59.97)'],
  ['tsc', 15, "tsc's errors", "src/cart/totals.ts:42:7 - error TS2322: Type 'string' is not assignable"],
  ['eslint', 19, "ESLint's errors", "12:7  error  'unused' is assigned a value but never used"],
  ['shell', 20, "the script's failing command", 'curl: (22) The requested URL returned error: 503'],
  ['fallback', 21, 'the end of the trace', "make: *** No rule to make target 'release'.  Stop."],
];

describe('the card of a failed job', () => {
  it.each(RUNNERS)('explains a %s failure with its own lines (job %i)', async (fixture, id, from, line) => {
    h.sim.editJob(id, { status: 'failed', trace: trace(fixture) });
    const seen = await h.ask('alice', `job demo/web ${id}`, new RegExp(`Job #${id} `));
    expect(seen.text).toContain('*Why it failed*\n```');
    expect(seen.text).toContain(line);
    expect(seen.text).toContain(`from ${from}`);
    // Colours, section markers and the runner's last words are left out.
    expect(seen.text).not.toMatch(/\u001b|section_(start|end)|ERROR: Job failed/);
    expect(labels(seen.message)).toContain('Trace');
    expectWithinLimits(seen.it);
  });

  it("leaves out secrets: anyone's stored token, and token-shaped words", async () => {
    h.sim.editJob(25, {
      status: 'failed',
      trace: `$ ./deploy.sh\ncurl -H "PRIVATE-TOKEN: ${TOKENS.bob}" https://example.test\nuse glpat-AbCdEfGhIjKlMnOpQrSt\nfailed\n`,
    });
    const seen = await h.ask('alice', 'job demo/web 25', /Job #25 /);
    expect(seen.text).toContain('$ ./deploy.sh');
    expect(seen.text).not.toContain(TOKENS.bob);
    expect(seen.text).not.toContain('glpat-AbCdEfGhIjKlMnOpQrSt');
    expect(seen.text).toContain('[redacted]');
  });

  it('reads the trace once: it also says the job was not erased, and the next card reads only the job', async () => {
    h.sim.editJob(24, { status: 'failed', trace: trace('pytest') });
    freshHistory();
    const first = await h.ask('alice', 'job demo/web 24', /Job #24 /);
    const calls = h.calls();
    expect(calls[0]).toEqual(call('GET', `${WEB}/jobs/24`, 'alice'));
    expect(calls.slice(1)).toEqual(expect.arrayContaining([call('GET', `${WEB}/jobs/24/trace`, 'alice'), history()]));
    expect(calls).toHaveLength(3);
    expect(first.text).toContain("from pytest's summary");
    expect(labels(first.message)).toContain('Erase'); // the trace was there: not erased

    const again = await h.ask('bob', 'job demo/web 24', /Job #24 /);
    expect(h.calls(3)).toEqual([call('GET', `${WEB}/jobs/24`, 'bob')]);
    expect(again.text).toContain("from pytest's summary");
  });

  it('marks a job that passed and failed on the same commit as flaky', async () => {
    // Job 7 ran on pipeline 2's commit too: as `unit-tests` it passed where job 8 failed.
    h.sim.editJob(7, { name: 'unit-tests' });
    freshHistory();
    const seen = await h.ask('alice', 'job demo/web 8', /Job #8 /);
    expect(seen.text).toContain(
      ':warning: flaky? failed 1 of the last 2 runs of `unit-tests` on `chore/webpack-5`, passed and failed on the same commit',
    );
  });

  it('names the commit a job has failed on since', async () => {
    // unit-tests on main: passed at 90989377 (job 3) and 25ef7aa1 (job 11), failed at 3e47ce32 (job 26) and
    // 2d91fcea (job 29).
    h.sim.editJob(26, { status: 'failed', ref: 'main', trace: trace('vitest') });
    h.sim.editJob(29, { status: 'failed', ref: 'main', trace: trace('vitest') });
    freshHistory();
    const seen = await h.ask('alice', 'job demo/web 29', /Job #29 /);
    expect(seen.text).toContain(
      ':rotating_light: failing since `3e47ce32` _Add regression test for EUR rounding_ (2 runs)',
    );
  });
});

describe('the card of a failed pipeline', () => {
  it('explains its first three failed jobs, counts the rest, and reads no more than it shows', async () => {
    // Pipeline 3 (main): compile, lint, unit-tests and deploy:staging all fail.
    const failed = [9, 10, 11, 12];
    for (const [i, id] of failed.entries()) {
      h.sim.editJob(id, { status: 'failed', trace: trace(['tsc', 'eslint', 'jest', 'shell'][i] as string) });
    }
    freshHistory();
    const seen = await h.ask('alice', 'pipeline demo/web 3', /Pipeline #3 /);
    const calls = h.calls();
    expect(calls.slice(0, 2)).toEqual([
      call('GET', `${WEB}/pipelines/3`, 'alice'),
      call('GET', `${WEB}/pipelines/3/jobs`, 'alice', { query: { per_page: '100' } }),
    ]);
    // Three traces (of the jobs it shows) and one page of the project's history: at most two extra calls a card.
    expect(
      calls
        .slice(2)
        .filter(isTrace)
        .map((c) => c.path)
        .sort(),
    ).toEqual([10, 11, 9].map((id) => `${WEB}/jobs/${id}/trace`)); // sorted as text
    expect(calls.slice(2).filter(isHistory)).toEqual([history()]);
    expect(calls).toHaveLength(6);

    expect(seen.text).toContain("from tsc's errors");
    expect(seen.text).toContain("from ESLint's errors");
    expect(seen.text).toContain("from jest's failed tests");
    expect(seen.text).not.toContain('the script’s failing command');
    expect(seen.text).toContain('and 1 more failed job');
    // A Trace button beside each excerpt, opening that job's trace.
    expect(labels(seen.message).filter((l) => l === 'Trace')).toHaveLength(3);
    const traced = await h.press('bob', buttonOf(seen, /^Trace$/), /Trace of job #9/);
    expect(traced.text).toContain('error TS2322');
    expectWithinLimits(seen.it);
  });

  it('a second failed pipeline of the project reads its history from what was kept', async () => {
    h.sim.editJob(16, { status: 'failed', trace: trace('rspec') });
    freshHistory();
    await h.ask('alice', 'pipeline demo/web 4', /Pipeline #4 /);
    expect(h.calls().filter(isHistory)).toHaveLength(1);
    const from = h.calls().length;
    const seen = await h.ask('alice', 'pipeline demo/web 2', /Pipeline #2 /);
    expect(h.calls(from).filter(isHistory)).toEqual([]);
    expect(seen.text).toContain("from vitest's failed tests");
  });
});
