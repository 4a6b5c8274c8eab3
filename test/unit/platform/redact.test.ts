import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  containsSecret,
  forgetSecret,
  REDACTED,
  redact,
  registeredSecretCount,
  registerSecret,
} from '../../../src/redact.js';
import { openDatabase } from '../../../src/store/database.js';
import { createSealer } from '../../../src/store/sealer.js';
import { createTokenStore } from '../../../src/store/token-store.js';

const secret = () => `s3cret-${crypto.randomBytes(8).toString('hex')}`;

describe('the redaction list', () => {
  it('tells whether a text holds a registered value or a well-known token shape, again and again', () => {
    const s = secret();
    expect(containsSecret(`jobs --scope ${s}`)).toBe(false);
    registerSecret(s);
    for (let i = 0; i < 3; i++) expect(containsSecret(`jobs --scope ${s}`)).toBe(true); // no stale lastIndex
    expect(containsSecret('pipelines --ref glpat-abcdefgh12345678')).toBe(true);
    expect(containsSecret('jobs demo/web --scope failed')).toBe(false);
    forgetSecret(s);
    expect(containsSecret(`jobs --scope ${s}`)).toBe(false);
  });

  it('scrubs registered values and well-known token shapes, and forgets a value on request', () => {
    const s = secret();
    registerSecret(s);
    expect(redact(`token=${s} and glpat-abcdefgh12345678 and xoxb-1-2-3`)).toBe(
      `token=${REDACTED} and ${REDACTED} and ${REDACTED}`,
    );
    forgetSecret(s);
    expect(redact(`token=${s}`)).toBe(`token=${s}`);
  });

  it('stays bounded: the least recently used values go first', () => {
    const first = secret();
    const kept = secret();
    registerSecret(first);
    registerSecret(kept);
    for (let i = 0; i < 2100; i++) {
      registerSecret(secret());
      if (i % 100 === 0) registerSecret(kept);
    }
    expect(registeredSecretCount()).toBeLessThanOrEqual(2000);
    expect(redact(first)).toBe(first);
    expect(redact(kept)).toBe(REDACTED);
  });

  it('forgets a stored token when its person disconnects', async () => {
    const db = openDatabase(':memory:');
    const store = createTokenStore(db, createSealer({ key: crypto.randomBytes(32), previousKey: null }));
    const token = secret();
    await store.save({
      teamId: 'T',
      userId: 'U',
      token,
      serverUrl: 'http://h',
      verifiedAt: new Date(0),
      username: null,
    });
    expect(await (await store.load('T', 'U'))?.open()).toBe(token);
    expect(redact(token)).toBe(REDACTED);
    expect(await store.remove('T', 'U')).toBe(true);
    expect(redact(token)).toBe(token);
    db.close();
  });
});
