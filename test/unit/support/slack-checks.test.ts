import { describe, expect, it } from 'vitest';
import type { FakeRecord } from '../../support/fake-slack.js';
import { findSurfaceProblems, findUnreadable } from '../../support/slack-checks.js';

// The shared check that every CI test (and the issue, MR and digest tests after them) runs on
// what the bot shows: it must catch what it promises to catch, and nothing in a code block.

const record = (body: Record<string, unknown>, extra: Partial<FakeRecord> = {}): FakeRecord => ({
  seq: 1,
  kind: 'response_url',
  method: 'response_url',
  body,
  ok: true,
  violations: [],
  ...extra,
});
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('findUnreadable', () => {
  it.each([
    ['Job undefined was retried', '"undefined"'],
    ['Duration NaNm', '"NaN"'],
    ['Owner [object Object]', '"[object …]"'],
    ['failed:\n    at retry (/app/src/handlers/jobs.ts:12:7)', 'a stack frame'],
    ["TypeError: cannot read properties of null (reading 'id')", 'a JavaScript error name'],
    ['connect ECONNREFUSED 127.0.0.1:4000', 'an errno code'],
    ['code ERR_INVALID_URL', 'a Node error code'],
    ['gitlab_not_found', 'an internal error code'],
    ['sent PRIVATE-TOKEN: x', 'a token header'],
    ['token sim-alice-token', 'a token'],
  ])('finds %j', (text, what) => {
    expect(findUnreadable(text)).toContain(what);
  });

  it('leaves code blocks alone: a trace may say what it likes', () => {
    expect(findUnreadable('Last lines:\n```TypeError: x is undefined\n    at f (a.js:1:2)```')).toEqual([]);
    expect(findUnreadable('The server at http://127.0.0.1:4000 could not be reached.')).toEqual([]);
  });
});

describe('findSurfaceProblems', () => {
  it('reports messages over the limits, refused calls, and unreadable words in text, blocks and dialogs', () => {
    const tooMany = Array.from({ length: 51 }, (_, i) => section(`row ${i}`));
    const withDialog = [
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Erase' },
            action_id: 'gl:job.erase',
            confirm: {
              title: { type: 'plain_text', text: 'Erase?' },
              text: { type: 'mrkdwn', text: 'Erase job undefined?' },
              confirm: { type: 'plain_text', text: 'Erase' },
              deny: { type: 'plain_text', text: 'No' },
            },
          },
        ],
      },
    ];
    const problems = findSurfaceProblems(
      [
        record({ text: 'ok', blocks: tooMany }),
        record({ text: 'fine' }, { ok: false, error: 'invalid_blocks', violations: ['51 blocks > 50'] }),
        record({ text: 'card', blocks: withDialog }),
        record({ delete_original: true }),
      ],
      [{ text: 'Retried by NaN' }],
    );
    expect(problems).toEqual([
      expect.stringMatching(/^ack message 1: shows "NaN"/),
      '#1 response_url: 51 blocks > 50',
      "#1 response_url: refused by Slack's limits: 51 blocks > 50",
      '#1 response_url: Slack answered invalid_blocks',
      expect.stringMatching(/^#1 response_url: shows "undefined"/),
    ]);
  });

  it('passes a clean card', () => {
    expect(findSurfaceProblems([record({ text: 'Job #8', blocks: [section('*Status*\nfailed')] })])).toEqual([]);
  });
});
