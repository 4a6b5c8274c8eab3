import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/grammar/index.js';
import { editDistance } from '../../../src/grammar/suggest.js';
import { parse, plain, problem, refusal, SERVER } from './support.js';

function error(text: string) {
  const result = parse(text);
  if (result.ok) throw new Error(`${text} parsed`);
  return result.error;
}

describe('an unknown noun', () => {
  it('gets the closest noun and its usage', () => {
    const e = error('pipelnes demo/web');
    expect(e.suggestion).toBe('pipelines');
    expect(e.noun).toBe('pipeline');
    const text = plain(e.message);
    expect(text).toContain('Did you mean `pipelines`?');
    expect(text).toContain('`/gl pipeline run [<project>] <ref>`');
    expect(text).toContain('`/gl help pipeline`');
  });

  it('suggests from swapped letters and prefixes', () => {
    expect(error('jbos').suggestion).toBe('jobs');
    expect(error('sched').suggestion).toBe('schedule');
    expect(error('merge-reqests').suggestion).toBe('merge-requests');
  });

  it('lists the nouns when nothing is close', () => {
    const e = error('frobnicate');
    expect(e.suggestion).toBeUndefined();
    expect(plain(e.message)).toBe(
      "I don't know `frobnicate`.\nI know: `help`, `connect`, `disconnect`, `whoami`, `use`, `jobs`, `pipelines`, `schedules`, `deployments`, `issues`, `mrs`, `awards`, `todos`, `events`, `keys`, `digests`. Try `/gl help`.",
    );
  });

  it('points a verb typed without its noun at the nouns that have it', () => {
    expect(problem('merge !34')).toBe('`merge` needs a noun in front: `/gl mr merge …`.');
    expect(problem('retry 5')).toBe('`retry` needs a noun in front: `/gl job retry …` or `/gl pipeline retry …`.');
    expect(problem('list')).toBe(
      '`list` needs a noun in front: `/gl job list …`, `/gl pipeline list …`, `/gl schedule list …`, `/gl deployment list …`, ….',
    );
  });

  it('asks what to do with a pasted project link', () => {
    expect(problem(`${SERVER}/demo/web`)).toBe(
      '`https://gitlab.example.com/sub/demo/web` is a project: put what you want in front, e.g. `/gl issues`.',
    );
  });
});

describe('an unknown verb', () => {
  it('gets the closest verb of that noun and the noun usage', () => {
    const e = error('mr mrege !34');
    expect(e.suggestion).toBe('merge');
    expect(e.noun).toBe('mr');
    expect(plain(e.message)).toContain('`/gl mr merge <ref> [flags]`');
  });
});

describe('an unknown flag', () => {
  it('gets the closest flag of that command and its full usage', () => {
    const e = error('mrs --order demo/web');
    expect(e.suggestion).toBe('--order-by');
    expect(plain(e.message).split('\n')[1]).toMatch(/^\*Usage:\* `\/gl mrs \[<project>\] \[--state /);
  });

  it('names the command when the flag belongs to a sibling form', () => {
    expect(problem('job 123 --scope failed')).toBe('`--scope` does not go with `/gl job`.');
    expect(problem('job retry 123 --lines 5')).toBe('`--lines` is not a flag of `/gl job retry`.');
  });
});

describe('switches that name the scope', () => {
  it('count only when on', () => {
    expect(problem('use --clear=false')).toBe('Missing `<project>`: give `group/project` or its numeric id.');
    expect(parse('use demo/web --clear=false').ok).toBe(true);
  });
});

describe('arguments', () => {
  it('names a missing argument', () => {
    expect(problem('award show #3')).toBe('Missing `<award-id>`.');
    expect(problem('mr create main')).toBe('Missing `<target>`.');
    expect(problem('issue move')).toBe('Missing `<ref>`: an issue like `#12`, `group/project#12` or a link.');
  });

  it('refuses extra arguments', () => {
    expect(problem('pipeline retry 55 56 57')).toBe('Too many words: `57`. Put text with spaces in quotes.');
    expect(problem('todos done now')).toBe('Too many words: `now`. Put text with spaces in quotes.');
  });

  it('refuses a value given twice to a flag that takes one', () => {
    expect(problem('job trace 1 --lines 5 --lines=6')).toBe('`--lines` is given twice: give it once.');
  });
});

describe('messages', () => {
  it('escape what the person typed so it cannot ping or link in Slack', () => {
    const message = error('&lt;!channel&gt; &lt;@U123&gt;').message;
    expect(message).not.toMatch(/[<>]/);
    expect(message).toContain('&lt;');
    const flagged = error('jobs --scope "<!here>"').message;
    expect(flagged).not.toMatch(/[<>]/);
  });

  it('cut long words and keep backticks out of echoed text', () => {
    const message = plain(error(`jobs --scope ${'x'.repeat(500)}\`oops`).message);
    expect(message.split('\n')[0]?.length).toBeLessThan(300);
    expect(message).toContain('…');
  });

  it('use the configured slash command', () => {
    const result = parseCommand('jbos', { serverUrl: SERVER, slashCommand: '/gitlab' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(plain(result.error.message)).toContain('`/gitlab jobs [<project>] [flags]`');
      expect(result.error.message).not.toContain('/gl ');
    }
  });

  it('never contain a stack trace', () => {
    for (const text of ['jobs --scope', 'issue "x', 'job retry', '@@@', 'mr edit !1']) {
      expect(refusal(text)).not.toMatch(/\bat .+\.ts:\d+|Error:/);
    }
  });
});

describe('edit distance', () => {
  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('retyr', 'retry')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});
