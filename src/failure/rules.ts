// The rules that find the lines explaining a failed job, as data: a team reads this list to see what the bot
// looks for, and each excerpt names the rule that found it ("from pytest's summary"). The first rule that finds
// anything wins, so the runners come first, then a shell script's failing command, then the general fallback.
//
// A rule either picks the lines matching `pick` wherever they stand, or takes blocks: each from a line matching
// `block.start` up to a line matching `block.end` (or the next start). `skip` leaves lines out of what was found
// (blank lines always are), `keep` says which end of a long excerpt stays, and `tally` is the runner's count of
// failures, added last.

export interface ExcerptRule {
  /** A short name for tests and logs. */
  id: string;
  /** Where the lines came from, as the card says it after "from". */
  from: string;
  pick?: RegExp;
  block?: {
    start: RegExp;
    end?: RegExp;
    /** Only the last block counts (a script's last command, not every command). */
    lastOnly?: boolean;
    /** Only blocks with a line like this count (a file's ESLint list with an error, not only warnings). */
    needs?: RegExp;
  };
  skip?: RegExp;
  /** `first`: the start of what was found (it names the failing test); `last`: its end; `ends`: its first line and its end. */
  keep: 'first' | 'last' | 'ends';
  tally?: RegExp;
}

export const EXCERPT_RULES: readonly ExcerptRule[] = [
  {
    id: 'vitest',
    from: "vitest's failed tests",
    block: { start: /^⎯+ Failed Tests \d+ ⎯+$/, end: /^⎯+\[\d+\/\d+\]⎯+$|^ Test Files |^⎯{6,}$/ },
    skip: /^⎯+ Failed Tests \d+ ⎯+$|^\s+\d+\|\s|^\s+\|\s+\^|^[-+] (Expected|Received)$/,
    keep: 'first',
    tally: /^\s+Tests\s+\d+ failed/,
  },
  {
    id: 'jest',
    from: "jest's failed tests",
    block: { start: /^\s+● .+ › .+$|^\s+● [^›]+$/, end: /^\s*(PASS|FAIL) \S|^Test Suites: |^\s+● / },
    skip: /^\s+\d+ \|\s|^\s+\|\s+\^|^\s+at (?!.*\.(test|spec)\.)/,
    keep: 'first',
    tally: /^Tests:\s+\d+ failed/,
  },
  {
    id: 'pytest',
    from: "pytest's summary",
    block: { start: /^=+ short test summary info =+$/, end: /^=+ .*\bin [\d.]+s\b.*=+$/ },
    skip: /^=+ short test summary info =+$/,
    keep: 'first',
    tally: /^=+ .*\d+ (failed|errors?)\b.*\bin [\d.]+s\b.*=+$/,
  },
  {
    id: 'pytest-failures',
    from: "pytest's failures",
    pick: /^_{3,} \S.* _{3,}$|^E\s{2,}\S|^\S+\.py:\d+: \w+(Error|Exception)\b/,
    keep: 'first',
    tally: /^=+ .*\d+ (failed|errors?)\b.*\bin [\d.]+s\b.*=+$/,
  },
  {
    id: 'go-test',
    from: 'go test',
    pick: /^\s*--- FAIL: |^\s+\S+_test\.go:\d+: |^panic: |^\S+\.go:\d+:\d+: /,
    keep: 'first',
    tally: /^FAIL\s+\S+\s+[\d.]+s$|^FAIL\s+\S+ \[build failed\]$/,
  },
  {
    id: 'maven-surefire',
    from: "Maven Surefire's results",
    block: {
      start: /^\[ERROR\] (Failures|Errors):\s*$/,
      end: /^\[(INFO|ERROR)\]\s*$|^\[ERROR\] Tests run:|^\[INFO\] -+$/,
    },
    skip: /^\[ERROR\] (Failures|Errors):\s*$|^\[(INFO|ERROR)\]\s+Run \d+:|^\[INFO\]\s+Run \d+: PASS/,
    keep: 'first',
    tally: /^\[ERROR\] Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+$/,
  },
  {
    id: 'maven-compiler',
    from: "the Maven compiler's errors",
    pick: /^\[ERROR\] \S+\.(java|kt):\[\d+,\d+\] /,
    keep: 'first',
    tally: /^\[INFO\] \d+ errors?\s*$/,
  },
  {
    id: 'gradle-test',
    from: "Gradle's failed tests",
    block: { start: /^\S.* > .+ FAILED$/, end: /^\s*$|^\S.* > .+ (FAILED|PASSED)$|^\d+ tests completed/ },
    skip: /^\s+at (?!.*Test\.java)/,
    keep: 'first',
    tally: /^\d+ tests completed, \d+ failed/,
  },
  {
    id: 'gradle',
    from: "Gradle's “What went wrong”",
    block: { start: /^\* What went wrong:$/, end: /^\* Try:$|^\* Get more help/ },
    skip: /^\* What went wrong:$/,
    keep: 'first',
  },
  {
    id: 'cargo-test',
    from: "cargo test's failures",
    block: { start: /^---- \S+ stdout ----$/, end: /^---- \S+ stdout ----$|^failures:$|^test result: / },
    skip: /^note: run with `RUST_BACKTRACE=1`/,
    keep: 'first',
    tally: /^test result: FAILED\. /,
  },
  {
    id: 'rustc',
    from: "rustc's errors",
    pick: /^error(\[E\d+\])?: (?!test failed|could not compile|aborting)|^\s+--> \S+:\d+:\d+$/,
    keep: 'first',
    tally: /^error: could not compile /,
  },
  {
    id: 'rspec',
    from: "RSpec's failures",
    block: { start: /^Failures:$/, end: /^Finished in [\d.]+ seconds?/ },
    skip: /^Failures:$|^\s+# (\/usr|\/builds\/\S+\/vendor|.*\/gems\/)/,
    keep: 'first',
    tally: /^\d+ examples?, \d+ failures?/,
  },
  {
    id: 'tsc',
    from: "tsc's errors",
    pick: /^\S+(\(\d+,\d+\): | ?:\d+:\d+ - )error TS\d+: /,
    keep: 'first',
    tally: /^Found \d+ errors?\b/,
  },
  {
    id: 'eslint',
    from: "ESLint's errors",
    block: {
      start: /^(\/|[A-Za-z]:\\|\.{0,2}\/?[\w@.-]+\/)\S*\.(m|c)?[jt]sx?$/,
      end: /^\s*$/,
      needs: /^\s+\d+:\d+\s+error\s/,
    },
    skip: /^\s+\d+:\d+\s+warning\s/,
    keep: 'first',
    tally: /^✖ \d+ problems? \(\d+ errors?/,
  },
  {
    id: 'shell',
    from: "the script's failing command",
    block: { start: /^\$ \S/, lastOnly: true },
    keep: 'ends',
  },
  {
    id: 'fallback',
    from: 'the end of the trace',
    pick: /\S/,
    keep: 'last',
  },
];
