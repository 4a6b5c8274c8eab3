import { describe, expect, it } from 'vitest';
import { encodeParams, joinList } from '../../../src/gitlab/params.js';

describe('encodeParams', () => {
  it('sends arrays as name[]=a&name[]=b', () => {
    expect(encodeParams({ scope: ['failed', 'manual'] })).toBe('scope[]=failed&scope[]=manual');
  });

  it('sends booleans as true and false', () => {
    expect(encodeParams({ yaml_errors: true, active: false })).toBe('yaml_errors=true&active=false');
  });

  it('omits undefined and null, and empty arrays send nothing', () => {
    expect(encodeParams({ a: undefined, b: null, c: [], d: 0 })).toBe('d=0');
  });

  it('percent-encodes values', () => {
    expect(encodeParams({ search: 'a b&c=d', cron: '0 1 * * 5' })).toBe('search=a%20b%26c%3Dd&cron=0%201%20*%20*%205');
  });

  it('gives an empty string for no parameters', () => {
    expect(encodeParams(undefined)).toBe('');
    expect(encodeParams({})).toBe('');
  });
});

describe('joinList', () => {
  it('joins label lists with commas and passes strings through', () => {
    expect(joinList(['bug', 'ui'])).toBe('bug,ui');
    expect(joinList('No Label')).toBe('No Label');
    expect(joinList(undefined)).toBeUndefined();
  });
});
