import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cleanLines, scriptLines } from '../../../src/failure/clean.js';
import { EXCERPT_LINE_CHARS, EXCERPT_MAX_LINES, explainFailure } from '../../../src/failure/excerpt.js';
import { EXCERPT_RULES } from '../../../src/failure/rules.js';
import { registerSecret } from '../../../src/redact.js';

const trace = (name: string) => readFileSync(new URL(`./traces/${name}.log`, import.meta.url), 'utf8');

/** A trace the way the runner wraps a script: its preamble, the script's lines, its clean-up and last line. */
const wrapped = (...script: string[]) =>
  [
    'Running with gitlab-runner 17.5.2 (c6eae8d7)',
    '\u001b[0Ksection_start:1732860000:step_script\r\u001b[0K\u001b[32;1mExecuting "step_script" stage\u001b[0;m',
    ...script,
    'section_end:1732860100:step_script\r\u001b[0K',
    '\u001b[31;1mERROR: Job failed: exit code 1\u001b[0;m',
    '',
  ].join('\n');

function excerptOf(text: string) {
  const e = explainFailure(text);
  if (!e) throw new Error('no excerpt');
  // Whatever the runner: short, clean, and never the runner's own last words.
  expect(e.lines.length).toBeGreaterThan(0);
  expect(e.lines.length).toBeLessThanOrEqual(EXCERPT_MAX_LINES);
  for (const line of e.lines) {
    expect(line).not.toMatch(/\u001b|section_(start|end):|\r/);
    expect(line).not.toMatch(/ERROR: Job failed/);
    expect(line.length).toBeLessThanOrEqual(EXCERPT_LINE_CHARS);
    expect(line.trim()).not.toBe('');
  }
  return e;
}

describe("a failed job's explaining lines, per runner", () => {
  it('vitest: the failing test, its assertion and where; the tally last', () => {
    const e = excerptOf(trace('vitest'));
    expect(e.rule).toEqual({ id: 'vitest', from: "vitest's failed tests" });
    expect(e.lines[0]).toBe(' FAIL  src/cart/totals.test.ts > cart totals > rounds each line before summing');
    expect(e.lines).toContain('AssertionError: expected 59.96 to be 59.97 // Object.is equality');
    expect(e.lines).toContain(' ❯ src/cart/totals.test.ts:42:31');
    expect(e.lines.at(-1)).toMatch(/^\s+Tests\s+1 failed \| 186 passed \(187\)$/);
  });

  it('jest: the failing test, expected and received, the failing line of the frame, the tally', () => {
    const e = excerptOf(trace('jest'));
    expect(e.rule.from).toBe("jest's failed tests");
    expect(e.lines[0]).toBe('  ● cart totals › rounds each line before summing');
    expect(e.lines).toContain('    Expected: 59.97');
    expect(e.lines).toContain('    Received: 59.96');
    expect(e.lines.some((l) => l.includes('> 42 |'))).toBe(true);
    expect(e.lines.some((l) => l.includes('node_modules/jest-circus'))).toBe(false);
    expect(e.lines.at(-1)).toBe('Tests:       1 failed, 186 passed, 187 total');
  });

  it("pytest: the short summary's FAILED line and the session's tally", () => {
    const e = excerptOf(trace('pytest'));
    expect(e.rule).toEqual({ id: 'pytest', from: "pytest's summary" });
    expect(e.lines).toEqual([
      "FAILED tests/test_cart.py::test_rounds_each_line - AssertionError: assert Decimal('59.96') == Decimal('59.97')",
      '========================= 1 failed, 186 passed in 3.21s ==========================',
    ]);
  });

  it("pytest without a short summary: the failures' E lines", () => {
    const e = excerptOf(
      wrapped(
        '$ pytest',
        '=================================== FAILURES ===================================',
        '____________________________ test_rounds_each_line _____________________________',
        '>       assert total == 59.97',
        'E       assert 59.96 == 59.97',
        'tests/test_cart.py:42: AssertionError',
        '========================= 1 failed, 186 passed in 3.21s =========================',
      ),
    );
    expect(e.rule.id).toBe('pytest-failures');
    expect(e.lines).toContain('E       assert 59.96 == 59.97');
    expect(e.lines).toContain('tests/test_cart.py:42: AssertionError');
  });

  it('go test: the failing test, its message and the failing package', () => {
    const e = excerptOf(trace('go-test'));
    expect(e.rule).toEqual({ id: 'go-test', from: 'go test' });
    expect(e.lines).toEqual([
      '    totals_test.go:42: Grand() = 59.96, want 59.97',
      '--- FAIL: TestTotalsRoundEachLine (0.00s)',
      'FAIL\tgitlab.example.com/demo/shop/cart\t0.012s',
    ]);
  });

  it('go build errors are go test failures too', () => {
    const e = excerptOf(
      wrapped('$ go test ./...', '# gitlab.example.com/demo/shop/cart', './totals.go:12:5: undefined: roundLine'),
    );
    expect(e.rule.id).toBe('go-test');
    expect(e.lines).toEqual(['./totals.go:12:5: undefined: roundLine']);
  });

  it("JUnit via Maven: Surefire's failures and its tally", () => {
    const e = excerptOf(trace('maven'));
    expect(e.rule.id).toBe('maven-surefire');
    expect(e.lines).toEqual([
      '[ERROR]   TotalsTest.roundsEachLine:42 expected: <59.97> but was: <59.96>',
      '[ERROR] Tests run: 187, Failures: 1, Errors: 0, Skipped: 0',
    ]);
  });

  it("Maven's compiler errors", () => {
    const e = excerptOf(
      wrapped(
        '$ mvn -B verify',
        '[ERROR] COMPILATION ERROR : ',
        '[ERROR] /builds/demo/shop/src/main/java/com/example/cart/Totals.java:[42,17] cannot find symbol',
        '[INFO] 1 error',
        '[INFO] BUILD FAILURE',
      ),
    );
    expect(e.rule.id).toBe('maven-compiler');
    expect(e.lines[0]).toMatch(/Totals\.java:\[42,17\] cannot find symbol$/);
    expect(e.lines.at(-1)).toBe('[INFO] 1 error');
  });

  it('JUnit via Gradle: the failed test, its assertion and the frame in the test, the tally', () => {
    const e = excerptOf(trace('gradle'));
    expect(e.rule.id).toBe('gradle-test');
    expect(e.lines).toEqual([
      'TotalsTest > roundsEachLine() FAILED',
      '    org.opentest4j.AssertionFailedError: expected: <59.97> but was: <59.96>',
      '        at app//com.example.cart.TotalsTest.roundsEachLine(TotalsTest.java:42)',
      '187 tests completed, 1 failed',
    ]);
  });

  it('Gradle without failed tests: what went wrong', () => {
    const e = excerptOf(
      wrapped(
        '$ gradle build',
        'FAILURE: Build failed with an exception.',
        '',
        '* What went wrong:',
        "Execution failed for task ':compileJava'.",
        '> Compilation failed; see the compiler error output for details.',
        '',
        '* Try:',
      ),
    );
    expect(e.rule.id).toBe('gradle');
    expect(e.lines).toEqual([
      "Execution failed for task ':compileJava'.",
      '> Compilation failed; see the compiler error output for details.',
    ]);
  });

  it("cargo test: the failing test's panic and the result line", () => {
    const e = excerptOf(trace('cargo'));
    expect(e.rule.from).toBe("cargo test's failures");
    expect(e.lines).toEqual([
      '---- cart::tests::rounds_each_line stdout ----',
      "thread 'cart::tests::rounds_each_line' panicked at src/cart.rs:42:9:",
      'assertion `left == right` failed',
      '  left: 5996',
      ' right: 5997',
      'test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    ]);
  });

  it("rustc's errors and where they are", () => {
    const e = excerptOf(
      wrapped(
        '$ cargo build --release',
        'error[E0425]: cannot find value `total` in this scope',
        '  --> src/cart.rs:42:9',
        '   |',
        '42 |         total',
        'error: could not compile `shop` (lib) due to 1 previous error',
      ),
    );
    expect(e.rule.id).toBe('rustc');
    expect(e.lines).toEqual([
      'error[E0425]: cannot find value `total` in this scope',
      '  --> src/cart.rs:42:9',
      'error: could not compile `shop` (lib) due to 1 previous error',
    ]);
  });

  it('RSpec: the failure, expected and got, where, the tally', () => {
    const e = excerptOf(trace('rspec'));
    expect(e.rule.id).toBe('rspec');
    expect(e.lines[0]).toBe('  1) Cart totals rounds each line before summing');
    expect(e.lines).toContain('     Failure/Error: expect(cart.total).to eq(59.97)');
    expect(e.lines).toContain('            got: 59.96');
    expect(e.lines.at(-1)).toBe('187 examples, 1 failure');
  });

  it("tsc: each error with its file and line, and tsc's count", () => {
    const e = excerptOf(trace('tsc'));
    expect(e.rule).toEqual({ id: 'tsc', from: "tsc's errors" });
    expect(e.lines).toEqual([
      "src/cart/totals.ts:42:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/cart/checkout.ts:17:24 - error TS2339: Property 'grandTotal' does not exist on type 'Totals'.",
      'Found 2 errors in 2 files.',
    ]);
  });

  it("tsc's plain form (file(line,col))", () => {
    const e = excerptOf(wrapped('$ tsc', "src/a.ts(3,1): error TS1005: ';' expected."));
    expect(e.lines).toEqual(["src/a.ts(3,1): error TS1005: ';' expected."]);
  });

  it('ESLint: the files with errors and their errors, warnings left out, the tally', () => {
    const e = excerptOf(trace('eslint'));
    expect(e.rule.from).toBe("ESLint's errors");
    expect(e.lines).toEqual([
      '/builds/demo/shop/src/cart/totals.ts',
      "  12:7  error  'unused' is assigned a value but never used  @typescript-eslint/no-unused-vars",
      '/builds/demo/shop/src/checkout/payment.ts',
      '  88:21  error  Unexpected any. Specify a different type  @typescript-eslint/no-explicit-any',
      '✖ 4 problems (2 errors, 2 warnings)',
    ]);
  });

  it("a shell script: its failing command and the end of that command's output", () => {
    const e = excerptOf(trace('shell'));
    expect(e.rule).toEqual({ id: 'shell', from: "the script's failing command" });
    expect(e.lines[0]).toBe('$ ./scripts/deploy.sh production');
    expect(e.lines).toContain('curl: (22) The requested URL returned error: 503');
    expect(e.lines.at(-1)).toBe('Rolling back to shop@91c3b0aa');
    // A progress line that rewrote itself reads as it ended.
    expect(e.lines).toContain('100%');
    expect(e.lines.some((l) => l.includes('Uploading artifacts'))).toBe(false);
  });

  it('a long command output keeps the command and its last lines', () => {
    const output = Array.from({ length: 40 }, (_, i) => `step ${i + 1}`);
    const e = excerptOf(wrapped('$ make all', ...output, 'make: *** [all] Error 2'));
    expect(e.lines[0]).toBe('$ make all');
    expect(e.lines.at(-1)).toBe('make: *** [all] Error 2');
    expect(e.lines).toHaveLength(EXCERPT_MAX_LINES);
  });

  it("anything else: the last meaningful lines before the runner's final line", () => {
    const e = excerptOf(trace('fallback'));
    expect(e.rule).toEqual({ id: 'fallback', from: 'the end of the trace' });
    expect(e.lines.at(-1)).toBe("The command '/bin/sh -c make release' returned a non-zero code: 2");
    expect(e.lines).toContain("make: *** No rule to make target 'release'.  Stop.");
  });
});

describe('what every excerpt promises', () => {
  it('every rule of the list is found by some test here, and says where its lines came from', () => {
    for (const rule of EXCERPT_RULES) {
      expect(rule.from.length).toBeGreaterThan(0);
      expect(rule.pick ?? rule.block).toBeDefined();
    }
    expect(EXCERPT_RULES.at(-1)?.id).toBe('fallback');
  });

  it('secrets in the trace are redacted', () => {
    registerSecret('s3cr3t-deploy-password-value');
    const e = excerptOf(
      wrapped(
        '$ ./deploy.sh',
        'Using token glpat-AbCdEfGhIjKlMnOpQrSt',
        'login failed for s3cr3t-deploy-password-value',
      ),
    );
    const text = e.lines.join('\n');
    expect(text).not.toContain('glpat-AbCdEfGhIjKlMnOpQrSt');
    expect(text).not.toContain('s3cr3t-deploy-password-value');
    expect(text).toContain('[redacted]');
  });

  it('a very long line keeps its start and ends with …', () => {
    const e = excerptOf(wrapped('$ ./check.sh', `Error: ${'x'.repeat(5000)}`));
    expect(e.lines.at(-1)).toMatch(/^Error: x+…$/);
  });

  it('an empty trace, or one of only the runner, has no excerpt', () => {
    expect(explainFailure('')).toBeNull();
    expect(explainFailure('\u001b[31;1mERROR: Job failed: exit code 1\u001b[0;m\n')).toBeNull();
  });

  it("the runner's clean-up after the script is not the script's", () => {
    const lines = scriptLines(cleanLines(trace('vitest')));
    expect(lines.at(-1)).toMatch(/Duration\s+9\.12s$/);
  });
});
