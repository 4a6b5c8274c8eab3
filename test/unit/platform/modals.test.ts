import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  callbackIdFor,
  decodeModalSubmission,
  defineModals,
  encodeModalMetadata,
  type ModalDef,
} from '../../../src/ids.js';
import { findRegistrationGaps } from '../../../src/nouns/assemble.js';
import { NOUNS } from '../../../src/nouns/index.js';
import { noun } from '../../../src/nouns/types.js';

// A modal remembers where it was opened and what it is about in its private_metadata; a submission is
// only acted on when that comes back in the shape the modal's definition says.

const Forms = defineModals('thing', { save: z.object({ id: z.number().int().positive() }).strict() });
const defs = new Map<string, ModalDef>([[Forms.save.name, Forms.save]]);

describe('modal metadata', () => {
  it('round-trips the channel, the message, the response_url, when it was opened and the value', () => {
    const at = new Date('2026-03-02T10:00:00Z');
    const text = encodeModalMetadata(
      Forms.save,
      'C1',
      { id: 7 },
      {
        message: { ts: '1.2', ephemeral: true },
        responseUrl: 'https://hooks.slack.com/actions/T/1/abc',
        at,
      },
    );
    expect(callbackIdFor(Forms.save)).toBe('gl:modal:thing.save');
    expect(decodeModalSubmission('gl:modal:thing.save', text, defs)).toEqual({
      ok: true,
      name: 'thing.save',
      channelId: 'C1',
      message: { ts: '1.2', ephemeral: true },
      responseUrl: 'https://hooks.slack.com/actions/T/1/abc',
      openedAt: at,
      home: false,
      value: { id: 7 },
    });
    // Opened from the Home tab: its answer goes back there.
    const fromHome = encodeModalMetadata(Forms.save, null, { id: 2 }, { home: true, at });
    expect(decodeModalSubmission('gl:modal:thing.save', fromHome, defs)).toMatchObject({ ok: true, home: true });
    const bare = encodeModalMetadata(Forms.save, null, { id: 1 });
    expect(decodeModalSubmission('gl:modal:thing.save', bare, defs)).toMatchObject({
      ok: true,
      channelId: null,
      message: null,
      responseUrl: null,
      openedAt: null,
    });
  });

  it('refuses another form, a value of the wrong shape, extra fields and a response_url that is not http(s)', () => {
    const good = JSON.parse(encodeModalMetadata(Forms.save, 'C1', { id: 7 })) as Record<string, unknown>;
    const cases: [unknown, unknown][] = [
      ['gl:modal:other.form', JSON.stringify(good)],
      ['gl:connect', JSON.stringify(good)],
      ['gl:modal:thing.save', 'not json'],
      ['gl:modal:thing.save', JSON.stringify({ ...good, v: { id: -1 } })],
      ['gl:modal:thing.save', JSON.stringify({ ...good, extra: 1 })],
      ['gl:modal:thing.save', JSON.stringify({ ...good, r: 'javascript:alert(1)' })],
      ['gl:modal:thing.save', JSON.stringify({ ...good, h: 'yes' })],
    ];
    for (const [id, text] of cases) expect(decodeModalSubmission(id, text, defs).ok).toBe(false);
  });

  it('will not write metadata Slack would refuse (over 3000 characters)', () => {
    const Big = defineModals('big', { form: z.object({ s: z.string() }) });
    expect(() => encodeModalMetadata(Big.form, 'C1', { s: 'x'.repeat(3000) })).toThrow(/3000/);
  });
});

describe('modal registration', () => {
  it('fails when two nouns register the same modal', () => {
    const a = noun('a', () => ({})).define({
      modals: [{ def: Forms.save, handle: async () => ({ kind: 'errors', errors: {} }) }],
    });
    const b = noun('b', () => ({})).define({
      modals: [{ def: Forms.save, handle: async () => ({ kind: 'errors', errors: {} }) }],
    });
    expect(findRegistrationGaps([...NOUNS, a, b], [])).toContain('modal thing.save is registered by both a and b');
  });

  it('has the merge modal registered once', () => {
    expect(NOUNS.flatMap((n) => n.modalDefs.map((d) => d.name)).filter((name) => name === 'mr.merge')).toHaveLength(1);
  });
});
