import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../src/views/keys.js';

// A key is shown by its fingerprint, computed as `ssh-keygen -l` does, never by the key itself.

describe('keyFingerprint', () => {
  it('is the SHA-256 fingerprint ssh-keygen prints', () => {
    // `ssh-keygen -lf` on this (throwaway) public key prints SHA256:dc9jBhhhhRCSxYXR7cimIOhvqhLuyxgC250Ei4FE7RA.
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHXknyjdVe2jbH2FLorh4URpFSymhJ4e8hDr1bYphWGw test@example';
    expect(keyFingerprint(key)).toEqual({
      type: 'ssh-ed25519',
      fingerprint: 'SHA256:dc9jBhhhhRCSxYXR7cimIOhvqhLuyxgC250Ei4FE7RA',
    });
  });

  it('shows only a short tail of what is not a base64 key, and never the whole of it', () => {
    expect(keyFingerprint('ssh-rsa not*base64*at*all')).toEqual({ type: 'ssh-rsa', fingerprint: '…4*at*all' });
    expect(keyFingerprint('justonewordthatislong')).toEqual({ type: null, fingerprint: '…atislong' });
    expect(keyFingerprint('')).toEqual({ type: null, fingerprint: '…' });
  });
});
