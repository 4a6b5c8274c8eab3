import { describe, expect, it } from 'vitest';
import { JobButtons } from '../../../src/buttons/ci.js';
import { AccountButtons } from '../../../src/buttons/common.js';
import {
  actionIdFor,
  type ButtonDef,
  callbackIdFor,
  decodeButtonAction,
  decodeConnectMetadata,
  decodeModalSubmission,
  encodeButtonValue,
  encodeConnectMetadata,
  encodeModalMetadata,
  type ModalDef,
} from '../../../src/ids.js';
import { IssueModals } from '../../../src/modals/issues.js';

const DEFS = new Map<string, ButtonDef>([AccountButtons.connect, JobButtons.retry].map((d) => [d.name, d]));

describe('button values', () => {
  it('decode back to what was encoded', () => {
    const value = encodeButtonValue(JobButtons.retry, { p: 'demo/web', j: 8 });
    expect(decodeButtonAction(actionIdFor(JobButtons.retry, 2), value, DEFS)).toEqual({
      ok: true,
      name: 'job.retry',
      value: { p: 'demo/web', j: 8 },
    });
  });

  it.each([
    ['an action of another app', 'other:thing', '{}', /not one of this bot's buttons/],
    ['an unknown button', 'gl:nope.never', '{}', /unknown button/],
    ['a value that is not JSON', 'gl:account.connect', '{oops', /not valid JSON/],
    ['a value of the wrong shape', 'gl:account.connect', '{"x":1}', /expected shape/],
    ['no action id at all', undefined, '{}', /not one of this bot's buttons/],
    ['a project path with a parent segment', 'gl:job.retry', '{"p":"..","j":1}', /expected shape/],
    ['a project path with a dot segment', 'gl:job.retry', '{"p":"demo/./web","j":1}', /expected shape/],
    ['a project path that climbs out', 'gl:job.retry', '{"p":"demo/../../users","j":1}', /expected shape/],
    ['a project path with a query', 'gl:job.retry', '{"p":"demo/web?x=1","j":1}', /expected shape/],
    ['an id too large to be exact', 'gl:job.retry', '{"p":"demo/web","j":1e300}', /expected shape/],
  ])('refuse %s with a reason', (_what, actionId, value, reason) => {
    const r = decodeButtonAction(actionId, value, DEFS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  it('accept project paths with dots inside a segment', () => {
    expect(decodeButtonAction('gl:job.retry', '{"p":"my.group/web.app","j":1}', DEFS).ok).toBe(true);
  });
});

describe('connect modal metadata', () => {
  it('round-trips the channel, and whether it was opened from the Home tab, and tolerates damaged metadata', () => {
    expect(decodeConnectMetadata(encodeConnectMetadata({ channelId: 'C1' }))).toEqual({ channelId: 'C1', home: false });
    expect(decodeConnectMetadata(encodeConnectMetadata({ channelId: null, home: true }))).toEqual({
      channelId: null,
      home: true,
    });
    expect(decodeConnectMetadata('not json')).toEqual({ channelId: null, home: false });
    expect(decodeConnectMetadata('{"c":null,"h":false}')).toEqual({ channelId: null, home: false });
  });
});

describe('modal metadata', () => {
  const MODALS = new Map<string, ModalDef>([[IssueModals.create.name, IssueModals.create]]);
  const id = callbackIdFor(IssueModals.create);

  it('round-trips the channel a modal was opened from and what it remembers', () => {
    const metadata = encodeModalMetadata(IssueModals.create, 'C1', { p: 'demo/web', m: 3 });
    expect(id).toBe('gl:modal:issue.create');
    expect(decodeModalSubmission(id, metadata, MODALS)).toEqual({
      ok: true,
      name: 'issue.create',
      channelId: 'C1',
      message: null,
      responseUrl: null,
      openedAt: null,
      home: false,
      value: { p: 'demo/web', m: 3 },
    });
    expect(decodeModalSubmission(id, encodeModalMetadata(IssueModals.create, null, { p: 7 }), MODALS)).toMatchObject({
      ok: true,
      channelId: null,
    });
  });

  it.each([
    ['another callback id', 'gl:connect', '{"c":null,"v":{"p":"demo/web"}}', /not one of this bot's forms/],
    ['an unknown modal', 'gl:modal:issue.nope', '{"c":null,"v":{"p":"demo/web"}}', /unknown form/],
    ['metadata that is not JSON', id, '{oops', /where it came from/],
    ['metadata without its envelope', id, '{"p":"demo/web"}', /where it came from/],
    ['a channel that is not a string', id, '{"c":5,"v":{"p":"demo/web"}}', /where it came from/],
    ['a project path that climbs out', id, '{"c":null,"v":{"p":"demo/../../users"}}', /expected shape/],
    ['an extra key', id, '{"c":null,"v":{"p":"demo/web","x":1}}', /expected shape/],
  ])('refuse %s with a reason', (_what, callbackId, metadata, reason) => {
    const r = decodeModalSubmission(callbackId, metadata, MODALS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});
