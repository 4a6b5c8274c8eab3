import { describe, expect, it } from 'vitest';
import { cutAtWord, draftIssue } from '../../../src/views/issue-draft.js';
import { mentionedUsers, slackMarkupToPlain } from '../../../src/views/slack-markup.js';

const names = (id: string, given: string | null) => (id === 'U1' ? '@alice' : `@${given ?? id}`);

describe('Slack markup as plain text', () => {
  it('writes every kind of entity the way a person reads it', () => {
    const text =
      'Hi <@U1> and <@W2|bob>, see <#C1|ops> and <#C2>. <!here> <!channel> <!subteam^S1|@oncall> ' +
      '<!date^1392734382^{date}|Feb 18, 2014> <mailto:a@b.io|a@b.io> <https://x.io/a?b=1&amp;c=2|the page> ' +
      '<https://y.io/|y.io> <https://z.io> 1 &lt; 2 &amp;&amp; 3 &gt; 2 &amp;lt;';
    expect(slackMarkupToPlain(text, names)).toBe(
      'Hi @alice and @bob, see #ops and #C2. @here @channel @oncall Feb 18, 2014 a@b.io ' +
        'the page (https://x.io/a?b=1&c=2) https://y.io/ https://z.io 1 < 2 && 3 > 2 &lt;',
    );
    expect(mentionedUsers(text)).toEqual(['U1', 'W2']);
  });

  it('cuts at a word where there is one, else where it must', () => {
    expect(cutAtWord('short', 10)).toBe('short');
    expect(cutAtWord('one two three four', 12)).toBe('one two…');
    expect(cutAtWord('abcdefghijklmnop', 8)).toBe('abcdefg…');
  });

  it('drafts a title from the first line with text, or from a file when there is none', () => {
    expect(draftIssue({ text: '\n\n  First line  \nsecond', files: [], permalink: null }, names)).toEqual({
      title: 'First line',
      description: 'First line  \nsecond',
      cut: false,
    });
    const onlyFile = draftIssue(
      { text: '', files: [{ name: 'crash.log' }], permalink: 'https://t.slack.com/p1' },
      names,
    );
    expect(onlyFile.title).toBe('crash.log');
    expect(onlyFile.description).toBe(
      'Files attached to the message in Slack:\n- crash.log\n\nFrom Slack: https://t.slack.com/p1',
    );
    const many = draftIssue(
      { text: 'x', files: Array.from({ length: 25 }, (_, i) => ({ name: `f${i}` })), permalink: null },
      names,
    );
    expect(many.description).toContain('- f19\n- and 5 more');
  });
});
