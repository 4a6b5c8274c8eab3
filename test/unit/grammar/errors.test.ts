import { describe, expect, it } from 'vitest';
import { editDistance } from '../../../src/edit-distance.js';
import { parseCommand } from '../../../src/grammar/index.js';
import { accepted, command, issue, parse, plain, problem, refusal, resource, SERVER } from './support.js';

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
      "I don't know `frobnicate`.\nI know: `help`, `connect`, `disconnect`, `whoami`, `use`, `jobs`, `pipelines`, `schedules`, `deployments`, `insights`, `issues`, `mrs`, `awards`, `todos`, `events`, `keys`, `digests`, `watches`, `notify`, `unfurl`. Try `/gl help`.",
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

describe('a word where an id goes', () => {
  it.each([
    ['job demo/web abc', '`abc` is not a job id: a job id is a number.'],
    ['job retry demo/web abc', '`abc` is not a job id: a job id is a number.'],
    ['pipeline demo/web abc', '`abc` is not a pipeline id: a pipeline id is a number.'],
    ['pipeline cancel demo/web latest', '`latest` is not a pipeline id: a pipeline id is a number.'],
    ['schedule demo/web nightly', '`nightly` is not a schedule id: a schedule id is a number.'],
    ['schedule take demo/web nightly', '`nightly` is not a schedule id: a schedule id is a number.'],
    ['deployment demo/web prod', '`prod` is not a deployment id: a deployment id is a number.'],
    ['key abc', '`abc` is not a key id: a key id is a number.'],
    ['key show abc', '`abc` is not a key id: a key id is a number.'],
    ['todo done abc', '`abc` is not a todo id: a todo id is a number.'],
    ['digest pause abc', '`abc` is not a digest id: a digest id is a number.'],
    ['award show #3 abc', '`abc` is not an award id: an award id is a number.'],
    ['unaward !34 thumbsup', '`thumbsup` is not an award id: an award id is a number.'],
    ['mr version !34 latest', '`latest` is not a version id: a version id is a number.'],
    ['issue demo/web abc', '`abc` is not an issue number: write `demo/web#12`.'],
    ['mr close demo/web abc', '`abc` is not a merge request number: write `demo/web!12`.'],
  ])('says what the id should be: %s', (text, message) => {
    expect(problem(text)).toBe(message);
  });

  it('says a too-large id is too large, not missing', () => {
    expect(problem('job demo/web 12345678901234567890123')).toBe(
      '`12345678901234567890123` is too large for a job id.',
    );
    expect(problem('job 12345678901234567890123')).toBe('`12345678901234567890123` is too large for a job id.');
    expect(problem('pipeline 42 12345678901234567890123')).toBe(
      '`12345678901234567890123` is too large for a pipeline id.',
    );
    expect(problem('todo done 12345678901234567890123')).toBe('`12345678901234567890123` is too large for a todo id.');
    expect(problem('issue demo/web 12345678901234567890123')).toBe(
      '`12345678901234567890123` is too large for an issue number.',
    );
    expect(problem('schedule demo/web 0')).toBe('`0` is not a schedule id: a schedule id is a number from 1.');
  });

  it('still names a missing id as missing', () => {
    expect(problem('job erase demo/web')).toBe('Missing the job id after `demo/web`.');
    expect(problem('issue move demo/web demo/secret')).toBe(
      'Missing the number after `demo/web`: write `demo/web#12`.',
    );
  });

  it('points an unknown word after a noun at what goes there', () => {
    expect(problem('job abc')).toBe(
      "I don't know `abc` after `/gl job`: a job id is a number, and a project is written `group/project`.",
    );
    expect(problem('jobs abc')).toBe("I don't know `abc` after `/gl jobs`. A project is written `group/project`.");
    expect(problem('unfurl on')).toBe("I don't know `on` after `/gl unfurl`.");
    expect(problem('unfurl')).toBe('`/gl unfurl` needs a verb: `private`.');
  });
});

describe('a switch that takes true or false', () => {
  it.each([
    ['schedule edit demo/web 3 --active maybe', '`--active maybe` must be `true` or `false`, e.g. `--active true`.'],
    ['schedule edit demo/web 3 --active 2', '`--active 2` must be `true` or `false`, e.g. `--active true`.'],
    ['schedule edit 3 --active "maybe"', '`--active maybe` must be `true` or `false`, e.g. `--active true`.'],
    [
      'issue edit #3 --confidential nope',
      '`--confidential nope` must be `true` or `false`, e.g. `--confidential true`.',
    ],
    [
      'mr edit !3 --remove-source-branch sure',
      '`--remove-source-branch sure` must be `true` or `false`, e.g. `--remove-source-branch true`.',
    ],
  ])('says so when given something else: %s', (text, message) => {
    expect(problem(text)).toBe(message);
  });

  it('still reads the switch alone, before or after the target', () => {
    expect(accepted('schedule edit --active 7')).toEqual(
      command('schedule.edit', resource('schedule', 7), { flags: { active: true } }),
    );
    expect(accepted('schedule edit demo/web 7 --active off')).toEqual(
      command('schedule.edit', resource('schedule', 7, 'demo/web'), { flags: { active: false } }),
    );
    expect(accepted('issue edit --confidential #3')).toEqual(
      command('issue.edit', issue(3), { flags: { confidential: true } }),
    );
  });

  it('shows its values in the usage', () => {
    expect(refusal('schedule edit 7')).toContain('[--active true|false]');
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

  it('use the configured slash command in every problem, hint and usage', () => {
    const texts = [
      'jbos',
      'retry 5',
      'list',
      '--share jobs',
      `${SERVER}/demo/web`,
      'job retyr 123',
      'job abc',
      'jobs --scpe failed',
      'job retry 123 --lines 5',
      'job 123 --scope failed',
      'job retry 123 --share',
      'unfurl',
      'unfurl on',
      'award show #3',
      'frobnicate',
      'help jbos',
      'use',
      'issue "x',
      '-- x',
    ];
    for (const text of texts) {
      const result = parseCommand(text, { serverUrl: SERVER, slashCommand: '/gitlab' });
      expect(result.ok, text).toBe(false);
      if (!result.ok) {
        expect(plain(result.error.message), text).toContain('/gitlab');
        expect(plain(result.error.message), text).not.toMatch(/\/gl\b/);
      }
    }
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
