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

  it('form-encodes values: reserved characters percent-encoded, a space as +', () => {
    expect(encodeParams({ search: 'a b&c=d', cron: '0 1 * * 5' })).toBe('search=a+b%26c%3Dd&cron=0+1+*+*+5');
    expect(encodeParams({ plus: 'C++ 1+1' })).toBe('plus=C%2B%2B+1%2B1');
  });

  it('sends the labels of "no label at all" as the contract writes them', () => {
    expect(encodeParams({ labels: 'No Label' })).toBe('labels=No+Label');
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
