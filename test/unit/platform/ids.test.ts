import { describe, expect, it } from 'vitest';
import {
  actionIdFor,
  decodeButtonAction,
  decodeConnectMetadata,
  encodeButtonValue,
  encodeConnectMetadata,
} from '../../../src/ids.js';

describe('button values', () => {
  it('decode back to what was encoded', () => {
    const value = encodeButtonValue('account.connect', {});
    expect(decodeButtonAction(actionIdFor('account.connect', 2), value)).toEqual({
      ok: true,
      action: { name: 'account.connect', value: {} },
    });
  });

  it.each([
    ['an action of another app', 'other:thing', '{}', /not one of this bot's buttons/],
    ['an unknown button', 'gl:nope.never', '{}', /unknown button/],
    ['a value that is not JSON', 'gl:account.connect', '{oops', /not valid JSON/],
    ['a value of the wrong shape', 'gl:account.connect', '{"x":1}', /expected shape/],
    ['no action id at all', undefined, '{}', /not one of this bot's buttons/],
  ])('refuse %s with a reason', (_what, actionId, value, reason) => {
    const r = decodeButtonAction(actionId, value);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

describe('connect modal metadata', () => {
  it('round-trips the channel and tolerates damaged metadata', () => {
    expect(decodeConnectMetadata(encodeConnectMetadata({ channelId: 'C1' }))).toEqual({ channelId: 'C1' });
    expect(decodeConnectMetadata('not json')).toEqual({ channelId: null });
  });
});
