import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../src/views/keys.js';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { call, useCiBot } from '../ci/harness.js';

// `key <id>` end to end: administrators see the key's title, fingerprint, date and owner (never the key
// itself); anyone else is told only administrators can look keys up.

const h = useCiBot();

async function rawKey(id: number): Promise<string> {
  const res = await h.api('root', `keys/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { key: string }).key;
}

describe('key', () => {
  it('shows an administrator the key’s title, fingerprint, date and owner, never the key itself', async () => {
    const seen = await h.ask('root', 'key 1', /SSH key 1/);
    expect(h.calls()).toEqual([call('GET', '/api/v4/keys/1', 'root')]);
    const key = await rawKey(1);
    const blob = key.split(' ')[1] as string;
    expect(seen.message.ephemeral).toBe(true);
    expect(seen.text).toContain(':key: SSH key 1 · alice@work-laptop');
    expect(seen.text).toContain(`*Owner*\n<${h.sim.url}/alice|Alice Anders (@alice)>`);
    expect(seen.text).toContain('*Added*\n1 Feb 2026, 10:00 · 29 days ago');
    expect(seen.text).toContain(`*Fingerprint*\n\`${keyFingerprint(key).fingerprint}\``);
    expect(keyFingerprint(key).fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(seen.text).toContain('*Type*\nssh-ed25519');
    expect(seen.text).not.toContain(blob);
    expect(seen.text).not.toContain(blob.slice(20, 40));
    expectWithinLimits(seen.it);
  });

  it('posts the card in the channel with --share', async () => {
    const seen = await h.ask('root', 'key 2 --share', /SSH key 2/);
    expect(h.calls()).toEqual([call('GET', '/api/v4/keys/2', 'root')]);
    expect(seen.message.ephemeral).toBe(false);
    expect(seen.text).toContain('Bob Brown (@bob)');
  });

  it('tells anyone but an administrator that only administrators can look up keys (403)', async () => {
    const seen = await h.ask('alice', 'key 1', /administrators/);
    expect(h.calls()).toEqual([call('GET', '/api/v4/keys/1', 'alice', { status: 403 })]);
    expect(seen.text).toContain(':no_entry: Only administrators can look up keys (403), so key 1 was not shown.');
    expect(seen.text).not.toContain('alice@work-laptop');
  });

  it('says an unknown key id was not found', async () => {
    const seen = await h.ask('root', 'key 99', /not found/);
    expect(h.calls()).toEqual([call('GET', '/api/v4/keys/99', 'root', { status: 404 })]);
    expect(seen.text).toContain(':no_entry: Key 99 was not found (404): there is no SSH key with that id.');
  });
});
