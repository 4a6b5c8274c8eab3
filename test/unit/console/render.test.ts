import { describe, expect, it } from 'vitest';
import { JobButtons } from '../../../src/buttons/ci.js';
import { mrkdwnToText, renderBlocks } from '../../../src/console/render.js';
import { actions, button, context, fields, header, section } from '../../../src/views/blocks.js';
import { Md } from '../../../src/views/mrkdwn.js';

const userName = (id: string) => ({ U0ALICE: 'alice' })[id];

describe('the console renderer', () => {
  it('turns mrkdwn into plain text: links, mentions, escapes, emoji and emphasis', () => {
    expect(mrkdwnToText('*<http://x/1|#1>* by <@U0ALICE> &lt;b&gt; &amp; :x: _note_', userName)).toBe(
      '#1 (http://x/1) by @alice <b> & ❌ note',
    );
    expect(mrkdwnToText('<http://x|http://x> <#C1|general> snake_case_name', userName)).toBe(
      'http://x #general snake_case_name',
    );
    // a date Slack formats in each reader's zone shows its fallback
    expect(
      mrkdwnToText('from <!date^1772445600^{date_short_pretty} {time}|02 Mar 2026, 11:00 Europe/Berlin>', userName),
    ).toBe('from 02 Mar 2026, 11:00 Europe/Berlin');
    // the state circles of schedule rows
    expect(mrkdwnToText(':large_green_circle: :white_circle: :calendar:', userName)).toBe('🟢 ⚪ 📅');
  });

  it('shows code spans and code blocks verbatim, unescaping only &amp;, &lt; and &gt;', () => {
    expect(mrkdwnToText('*Cron*\n`0 2 * * *` (UTC)', userName)).toBe('Cron\n`0 2 * * *` (UTC)');
    expect(mrkdwnToText('`*/5 * * * *` and `_a_ :x: <@U0ALICE> &lt;b&gt; &amp;`', userName)).toBe(
      '`*/5 * * * *` and `_a_ :x: <@U0ALICE> <b> &`',
    );
    expect(mrkdwnToText('```\n* one *\n_two_ :x:\n&lt;/html&gt;\n```\nafter *bold*', userName)).toBe(
      '```\n* one *\n_two_ :x:\n</html>\n```\nafter bold',
    );
    expect(mrkdwnToText('*`main`* is _the `dev_branch`_ ref', userName)).toBe('`main` is the `dev_branch` ref');
    // a lone backtick opens nothing
    expect(mrkdwnToText('it`s *fine*', userName)).toBe('it`s fine');
  });

  it('keeps code verbatim in fields and in the fallback text', () => {
    const r = renderBlocks([fields(['*Cron*\n`0 * * * *` (UTC)'])], 'x', { userName, firstButton: 1 });
    expect(r.text).toBe('  Cron: `0 * * * *` (UTC)');
    expect(renderBlocks(undefined, 'cron `* * * * *`', { userName, firstButton: 1 }).text).toBe('cron `* * * * *`');
  });

  it('shows headers, fields, context and numbered buttons, counting on from the first number', () => {
    const blocks = [
      header('Job #8'),
      fields([Md.trusted('*Status*\nfailed'), Md.trusted('*Stage*\ntest')]),
      section('row', button({ text: 'Retry', def: JobButtons.retry, value: { p: 'demo/web', j: 8 } })),
      context(['created 2 days ago']),
      actions([
        button({
          text: 'Erase',
          def: JobButtons.erase,
          value: { p: 'demo/web', j: 8 },
          confirm: { title: 'Erase?', question: 'Sure?', confirm: 'Erase', yes: 'Yes' },
        }),
        button({ text: 'Trace', def: JobButtons.trace, value: { p: 'demo/web', j: 8 } }),
      ]),
    ];
    const r = renderBlocks(blocks, 'fallback', { userName, firstButton: 3 });
    expect(r.text).toBe(
      [
        '== Job #8 ==',
        '  Status: failed   |   Stage: test',
        'row',
        '  [3 Retry]',
        '  · created 2 days ago',
        '[4 Erase] [5 Trace]',
      ].join('\n'),
    );
    expect(r.buttons.map((b) => [b.number, b.text, b.action_id])).toEqual([
      [3, 'Retry', 'gl:job.retry'],
      [4, 'Erase', 'gl:job.erase'],
      [5, 'Trace', 'gl:job.trace'],
    ]);
    expect(r.buttons[1]?.confirm?.title?.text).toBe('Erase?');
  });

  it('shows buttons unnumbered, and returns none, when no numbers are wanted', () => {
    const blocks = [actions([button({ text: 'Retry', def: JobButtons.retry, value: { p: 'demo/web', j: 8 } })])];
    expect(renderBlocks(blocks, 'x', { userName, firstButton: null })).toEqual({ text: '[Retry]', buttons: [] });
  });

  it('falls back to the message text when there are no blocks', () => {
    expect(renderBlocks(undefined, 'just *text*', { userName, firstButton: 1 })).toEqual({
      text: 'just text',
      buttons: [],
    });
  });
});
