import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSealer, SealError } from '../../../src/store/sealer.js';

const key = () => crypto.randomBytes(32);

describe('createSealer', () => {
  it('opens what it sealed, with a fresh nonce every time', () => {
    const s = createSealer({ key: key() });
    const a = s.seal('glpat-secret-value', 'row-1');
    const b = s.seal('glpat-secret-value', 'row-1');
    expect(a.value).not.toBe(b.value);
    expect(a.value).not.toContain('glpat');
    expect(s.open(a.value, 'row-1')).toEqual({ plaintext: 'glpat-secret-value', stale: false });
  });

  it('refuses a value bound to another row or altered in transit', () => {
    const s = createSealer({ key: key() });
    const sealed = s.seal('token', 'row-1').value;
    expect(() => s.open(sealed, 'row-2')).toThrow(SealError);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] as string, 'base64url');
    body[0] = (body[0] as number) ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => s.open(parts.join('.'), 'row-1')).toThrow(SealError);
    expect(() => s.open('garbage', 'row-1')).toThrow(SealError);
  });

  it('opens values of the previous key and marks them stale; values of unknown keys do not open', () => {
    const oldKey = key();
    const before = createSealer({ key: oldKey }).seal('token', 'row').value;
    const after = createSealer({ key: key(), previousKey: oldKey });
    expect(after.open(before, 'row')).toEqual({ plaintext: 'token', stale: true });
    expect(() => createSealer({ key: key() }).open(before, 'row')).toThrow(/neither the current nor the previous key/);
  });
});
