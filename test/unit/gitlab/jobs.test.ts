import { describe, expect, it } from 'vitest';
import { fileNameOf } from '../../../src/gitlab/jobs.js';

describe('fileNameOf', () => {
  it('reads quoted, bare and RFC 5987 file names', () => {
    expect(fileNameOf('attachment; filename="artifacts.zip"')).toBe('artifacts.zip');
    expect(fileNameOf('infile; filename=7.log')).toBe('7.log');
    expect(fileNameOf(`attachment; filename="a.zip"; filename*=UTF-8''b%C3%A4r.zip`)).toBe('bär.zip');
  });

  it('gives null without a usable header', () => {
    expect(fileNameOf(undefined)).toBeNull();
    expect(fileNameOf('attachment')).toBeNull();
  });
});
