import { describe, expect, it } from 'vitest';
import { useCiBot } from './harness.js';

// Usage messages through the whole app, with the slash command renamed: each says what is wrong
// with the words typed, points the right way, calls nothing, and names the configured command.

const h = useCiBot({ slashCommand: '/dev' });

describe('usage messages', () => {
  const cases: [string, RegExp][] = [
    ['job demo/web abc', /`abc` is not a job id: a job id is a number/],
    ['job demo/web 12345678901234567890123', /too large/],
    ['schedule edit demo/web 3 --active maybe', /`--active maybe` must be `true` or `false`/],
    ['key abc', /`abc` is not a key id: a key id is a number/],
    ['pipelines demo/web --status nope', /--status/],
  ];

  it.each(cases)('answers `%s` with what is wrong, calling nothing', async (text, words) => {
    const seen = await h.ask('alice', text, words);
    expect(h.calls()).toEqual([]);
    expect(seen.text).toContain('`/dev ');
    expect(seen.text).not.toContain('/gl ');
  });

  it('says the ref is missing from `pipeline run demo/web`, not "which project?"', async () => {
    const seen = await h.ask('alice', 'pipeline run demo/web', /ref is missing/);
    expect(h.calls()).toEqual([]);
    expect(seen.text).toContain('`/dev pipeline run demo/web &lt;ref&gt;`');
    expect(seen.text).not.toMatch(/Which project/);
  });

  it('runs `pipeline run feature/x` in a channel whose default project is set', async () => {
    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0USAGE' });
    const from = h.calls().length;
    await h.ask('alice', 'pipeline run main', /Started by/, { channel: 'C0USAGE' });
    expect(h.calls(from).map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/api/v4/projects/demo%2Fweb/pipeline', { ref: 'main' }],
    ]);
  });

  it('names the configured command in "which project?", the trace hint, help and the connect prompt', async () => {
    const which = await h.ask('alice', 'jobs', /Which project/, { channel: 'C0NODEFAULT' });
    expect(which.text).toContain('`/dev use group/project`');
    const trace = await h.ask('alice', 'job trace demo/web 8', /Trace of job #8/);
    expect(trace.text).toContain('`/dev job trace demo/web 8 --full`');
    const help = await h.ask('alice', 'help jobs', /help/);
    expect(help.text).toContain('/dev job');
    expect(help.text).not.toContain('/gl ');
    const prompt = await h.ask('carol', 'jobs demo/web', /not connected/);
    expect(prompt.text).toContain('`/dev connect`');
  });

  it('never echoes a token typed into a command, and says to revoke it', async () => {
    const token = 'glpat-AbCdEf1234567890XyZw';
    const seen = await h.ask('alice', `pipeline run demo/web ${token} --share`, /revoke/i);
    expect(h.calls()).toEqual([]);
    expect(seen.text).not.toContain(token);
    expect(seen.message.ephemeral).toBe(true);
    expect(JSON.stringify(h.bot.fake.records)).not.toContain(token);
  });
});
