import { describe, expect, it } from 'vitest';
import { JobButtons } from '../../../src/buttons/ci.js';
import { AccountButtons } from '../../../src/buttons/common.js';
import {
  actionIdFor,
  type ButtonDef,
  decodeButtonAction,
  decodeConnectMetadata,
  encodeButtonValue,
  encodeConnectMetadata,
} from '../../../src/ids.js';

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
  it('round-trips the channel and tolerates damaged metadata', () => {
    expect(decodeConnectMetadata(encodeConnectMetadata({ channelId: 'C1' }))).toEqual({ channelId: 'C1' });
    expect(decodeConnectMetadata('not json')).toEqual({ channelId: null });
  });
});
