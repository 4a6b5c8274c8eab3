import { describe, expect, it } from 'vitest';
import { AccountButtons } from '../../../src/buttons/common.js';
import { actions, button, fields, header, message, section } from '../../../src/views/blocks.js';
import { findLimitViolations, LIMITS } from '../../../src/views/limits.js';

describe('Block Kit limits', () => {
  it('builders cut every text to what Slack accepts', () => {
    const long = 'x'.repeat(10_000);
    const m = message(long, [
      header(long),
      section(long),
      fields([long, long]),
      actions([
        button({
          text: long,
          def: AccountButtons.connect,
          value: {},
          confirm: { title: long, question: long, confirm: long, yes: long },
        }),
      ]),
    ]);
    expect(findLimitViolations(m)).toEqual([]);
  });

  it('reports what Slack would refuse', () => {
    const blocks = Array.from({ length: LIMITS.messageBlocks + 1 }, () => section('hi'));
    const tooMany = findLimitViolations({ text: 'x', blocks });
    expect(tooMany).toContain(`${LIMITS.messageBlocks + 1} blocks > ${LIMITS.messageBlocks}`);
    const bad = findLimitViolations({
      text: '',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'y'.repeat(3001) } },
        {
          type: 'actions',
          elements: [
            { type: 'button', text: { type: 'mrkdwn', text: 'b' }, action_id: 'a' },
            { type: 'button', text: { type: 'plain_text', text: 'c' }, action_id: 'a' },
          ],
        },
      ],
    });
    expect(bad).toEqual([
      'message without fallback text',
      'blocks[0].text: 3001 characters > 3000',
      'blocks[1].elements[0].text: must be plain_text',
      'blocks[1]: duplicate action_id a',
    ]);
  });

  it('checks modals: title length and a submit button when there are inputs', () => {
    const v = findLimitViolations({
      type: 'modal',
      title: { type: 'plain_text', text: 'A title that is far too long' },
      blocks: [
        {
          type: 'input',
          label: { type: 'plain_text', text: 'L' },
          element: { type: 'plain_text_input', action_id: 'x' },
        },
      ],
    });
    expect(v).toEqual(['title: 28 characters > 24', 'modal with inputs needs submit']);
  });
});
