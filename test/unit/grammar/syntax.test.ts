import { describe, expect, it } from 'vitest';
import { readSlackText, unescapeSlack } from '../../../src/grammar/text.js';
import { tokenize } from '../../../src/grammar/tokenize.js';
import { accepted, command, issue, none, problem, project } from './support.js';

function words(text: string): string[] {
  const result = tokenize(text);
  if (!result.ok) throw new Error(`unclosed ${result.unclosed}`);
  return result.tokens.map((t) => t.text);
}

describe('the tokenizer', () => {
  it('splits on any whitespace, including non-breaking spaces and newlines', () => {
    expect(words('  jobs\tdemo/web\u00a0--scope\nfailed  ')).toEqual(['jobs', 'demo/web', '--scope', 'failed']);
  });

  it('keeps straight, single and curly quoted text whole and marks it quoted', () => {
    const result = tokenize(`"a b" 'c d' “e f” ‘g h’ „i j“`);
    expect(result).toEqual({
      ok: true,
      tokens: [
        { text: 'a b', quoted: true },
        { text: 'c d', quoted: true },
        { text: 'e f', quoted: true },
        { text: 'g h', quoted: true },
        { text: 'i j', quoted: true },
      ],
    });
  });

  it('reads a quote right after --flag= as the start of the value', () => {
    expect(tokenize('--title="New title" x')).toEqual({
      ok: true,
      tokens: [
        { text: '--title=New title', quoted: false },
        { text: 'x', quoted: false },
      ],
    });
  });

  it('leaves apostrophes inside words alone', () => {
    expect(words("don't it’s")).toEqual(["don't", 'it’s']);
  });

  it('keeps an empty quoted value as a word', () => {
    expect(words('--description ""')).toEqual(['--description', '']);
  });

  it('gives each word the mentions within it', () => {
    const { text, mentions } = readSlackText('--assignees <@U1|ann>,<@U2> "ask <@U3|cy>"');
    expect(tokenize(text, mentions)).toEqual({
      ok: true,
      tokens: [
        { text: '--assignees', quoted: false },
        {
          text: '@ann,@U2',
          quoted: false,
          mentions: [
            { text: '@ann', userId: 'U1' },
            { text: '@U2', userId: 'U2' },
          ],
        },
        { text: 'ask @cy', quoted: true, mentions: [{ text: '@cy', userId: 'U3' }] },
      ],
    });
  });

  it('reports a quote that is never closed', () => {
    expect(tokenize('issue create "Login fails')).toEqual({ ok: false, unclosed: '"Login fails' });
  });
});

describe("undoing Slack's escaping", () => {
  it('turns the three entities back into characters, in one pass', () => {
    expect(unescapeSlack('a &amp; b &lt;c&gt; &amp;lt;')).toBe('a & b <c> &lt;');
  });

  it('unwraps links to their URL, with or without a label', () => {
    expect(unescapeSlack('<https://x.test/a?b=1&amp;c=2|label> <http://y.test/>')).toBe(
      'https://x.test/a?b=1&c=2 http://y.test/',
    );
  });

  it('turns channel and user mentions into #name and @name', () => {
    expect(unescapeSlack('<#C123|general> <#C456> <@U1|alice> <@U2>')).toBe('#general #C456 @alice @U2');
  });

  it('turns special mentions, dates and mail links into their text', () => {
    expect(
      unescapeSlack('<!here> <!subteam^S1|@team> <!date^1392734382^{date}|Feb 18> <mailto:a@b.test|a@b.test>'),
    ).toBe('@here @team Feb 18 a@b.test');
  });

  it('keeps the user id of each person mentioned, where the @name stands', () => {
    const read = readSlackText('a <@U0123ABC|alice> &amp; <@W42> <#C1|general> <!here>');
    expect(read.text).toBe('a @alice & @W42 #general @here');
    expect(read.mentions).toEqual([
      { start: 2, end: 8, userId: 'U0123ABC' },
      { start: 11, end: 15, userId: 'W42' },
    ]);
    expect(read.mentions.map((m) => read.text.slice(m.start, m.end))).toEqual(['@alice', '@W42']);
  });

  it('leaves a broken escape as typed', () => {
    expect(unescapeSlack('<https://x.test/a & b')).toBe('<https://x.test/a & b');
  });

  it('drops zero-width characters', () => {
    expect(unescapeSlack('jo\u200bbs')).toBe('jobs');
  });
});

describe('the shape of a command', () => {
  it('reads verbs and flags case-insensitively with - and _ interchangeable', () => {
    expect(accepted('PIPELINES --ORDER_BY=ID --Yaml-Errors')).toEqual(
      command('pipeline.list', project(), { flags: { orderBy: 'id', yamlErrors: true } }),
    );
    expect(accepted('mr Cancel_Auto_Merge !3')).toEqual(
      command('mr.cancel-auto-merge', { kind: 'merge_request', project: null, iid: 3 }),
    );
  });

  it('takes flags before, between and after positionals', () => {
    expect(accepted('issue create --labels bug demo/web "T"')).toEqual(
      command('issue.create', project('demo/web'), { args: { title: 'T' }, flags: { labels: ['bug'] } }),
    );
    expect(accepted('issues --state closed demo/web --sort asc')).toEqual(
      command('issue.list', project('demo/web'), { flags: { state: 'closed', sort: 'asc' } }),
    );
  });

  it('reads an em dash from autocorrect as --', () => {
    expect(accepted('jobs —scope failed')).toEqual(command('job.list', project(), { flags: { scope: ['failed'] } }));
  });

  it('reads -- as the end of flags', () => {
    expect(accepted('issue create demo/web -- --not-a-flag')).toEqual(
      command('issue.create', project('demo/web'), { args: { title: '--not-a-flag' } }),
    );
  });

  it('never reads a quoted word as a flag, project or verb', () => {
    expect(accepted('issue create "--draft"')).toEqual(
      command('issue.create', project(), { args: { title: '--draft' } }),
    );
    expect(accepted('issue create "demo/web"')).toEqual(
      command('issue.create', project(), { args: { title: 'demo/web' } }),
    );
  });

  it('reads a switch followed by true or false as its value, and leaves other words alone', () => {
    expect(accepted('issue create --confidential false "T"')).toEqual(
      command('issue.create', project(), { args: { title: 'T' }, flags: { confidential: false } }),
    );
    expect(accepted('job --share 1')).toEqual(
      command('job.show', { kind: 'job', project: null, id: 1 }, { share: true }),
    );
  });

  it('merges a list flag given as commas and as repeats', () => {
    expect(accepted('jobs --scope failed,manual --scope=running')).toEqual(
      command('job.list', project(), { flags: { scope: ['failed', 'manual', 'running'] } }),
    );
  });

  it('reads commands with Slack escaping in them', () => {
    expect(accepted('issue create demo/web "Fix &lt;b&gt; &amp; <https://x.test|x.test>"')).toEqual(
      command('issue.create', project('demo/web'), { args: { title: 'Fix <b> & https://x.test' } }),
    );
    expect(accepted('issue <https://gitlab.example.com/sub/demo/web/-/issues/3>')).toEqual(
      command('issue.show', issue(3, 'demo/web')),
    );
  });

  it('treats an empty command as the overview', () => {
    expect(accepted('   ')).toEqual(command('help', none, { needsToken: false }));
  });

  it('refuses a flag as the first word', () => {
    expect(problem('--share jobs')).toBe('Start with what to work on, e.g. `/gl jobs`: `--share` is a flag.');
  });

  it('refuses a flag without its value, naming an example', () => {
    expect(problem('issues --milestone')).toBe('`--milestone` needs a value, e.g. `--milestone "<title>"`.');
    expect(problem('issues --milestone --state opened')).toBe(
      '`--milestone` needs a value, e.g. `--milestone "<title>"`.',
    );
    expect(problem('issues --milestone=')).toBe('`--milestone` needs a value, e.g. `--milestone "<title>"`.');
  });
});
