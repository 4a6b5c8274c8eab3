import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runDemoScript as runDemo } from '../../support/demo-script.js';

describe('npm run demo with a script', () => {
  it('lists failed jobs, presses Retry on one and shows the redrawn card with the job pending and who retried it', () => {
    // the console as `npm run demo` starts it: through tsx, from the sources (the other cases run the build)
    const r = runDemo(['/gl jobs demo/web --scope failed', '1', 'quit'], { from: 'sources' });
    expect(r.status).toBe(0);
    const [, listed, afterClick] = r.stdout.split(/^alice> /m);
    expect(listed).toContain('Jobs in demo/web');
    expect(listed).toMatch(/#8 .*unit-tests .*failed/);
    expect(listed).toContain('[1 Retry]');
    expect(afterClick).toMatch(/updated/);
    expect(afterClick).toMatch(/Retried by @alice/);
    expect(afterClick).toMatch(/unit-tests[^\n]*pending/);
    expect(r.stderr).toBe('');
  }, 130_000);

  it("shows why the demo's failed pipeline failed: its failing test and assertion, and where they came from", () => {
    const r = runDemo(['/gl pipeline demo/web 2', '/gl job demo/web 8']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('/gl pipeline demo/web 2 (why it failed)');
    const [, pipeline, job] = r.stdout.split(/^alice> /m);
    for (const card of [pipeline, job]) {
      expect(card).toContain('FAIL  src/cart/totals.test.ts > cart totals > rounds each line before summing');
      expect(card).toContain('AssertionError: expected 59.96 to be 59.97 // Object.is equality');
      expect(card).toContain("from vitest's failed tests");
      expect(card).not.toMatch(/ERROR: Job failed|section_start/);
    }
    expect(job).toContain('Why it failed');
  }, 130_000);

  it('switches people, answers a modal from the script and exits at the end of the script', () => {
    const r = runDemo([
      'as eve',
      '/gl job demo/secret 8',
      'disconnect',
      '/gl connect glpat-typed-on-the-command-line',
      'connect',
      'sim-eve-token',
      'whoami',
      'tick',
    ]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Now acting as eve.');
    expect(r.stdout).toMatch(/not found, or you have no access/);
    expect(r.stdout).toMatch(/Disconnected/);
    // the console's echo of a command line masks a token in it (what the bot answers is the bot's)
    expect(r.stdout).toContain('eve> /gl connect glpat-********\n');
    expect(r.stdout.split('\n').filter((l) => l.startsWith('eve> '))).not.toContainEqual(
      expect.stringContaining('glpat-typed'),
    );
    // the token typed into the form is not shown back
    expect(r.stdout).toContain('Personal access token: ********\n');
    expect(r.stdout).not.toContain('sim-eve-token');
    expect(r.stdout).toMatch(/form: Connected/);
    expect(r.stdout).toMatch(/You're connected to http:\/\/127\.0\.0\.1/);
    expect(r.stdout).toMatch(/The simulator ticked/);
  }, 130_000);

  it("names the file that keeps the bot's log, and ends after the last line with one prompt, not two", () => {
    const r = runDemo(['as bob', '/gl whoami']);
    expect(r.status).toBe(0);
    const logFile = /The bot's log: (\S+\.log)/.exec(r.stdout)?.[1];
    expect(logFile).toBeDefined();
    try {
      expect(fs.readFileSync(logFile as string, 'utf8')).toContain('digests armed');
    } finally {
      fs.rmSync(logFile as string, { force: true });
    }
    // the newline ending the script's last line is no empty line of its own: one prompt at the end, not two
    expect(r.stdout).toContain('bob> /gl whoami\n');
    expect(r.stdout).not.toMatch(/^bob> \nbob> /m);
    expect(r.stdout.match(/^bob> $/gm) ?? []).toHaveLength(1);
  }, 130_000);
});
