import { describe, expect, it } from 'vitest';
import { encodeProject, encodeSegment, InvalidPathError, toApiPath } from '../../../src/gitlab/paths.js';

describe('encodeProject', () => {
  it('encodes a nested project path as one segment', () => {
    expect(encodeProject('group/sub/app')).toBe('group%2Fsub%2Fapp');
  });

  it('leaves numeric ids as they are, given as numbers or digits', () => {
    expect(encodeProject(42)).toBe('42');
    expect(encodeProject('42')).toBe('42');
  });

  it('trims surrounding slashes and spaces a pasted path may carry', () => {
    expect(encodeProject(' /demo/web/ ')).toBe('demo%2Fweb');
  });

  it('encodes characters that would break the URL', () => {
    expect(encodeProject('my group/app?x#y')).toBe('my%20group%2Fapp%3Fx%23y');
  });

  it('refuses an empty path and a non-integer id', () => {
    expect(() => encodeProject('')).toThrow(TypeError);
    expect(() => encodeProject(1.5)).toThrow(TypeError);
    expect(() => encodeProject(-1)).toThrow(TypeError);
  });
});

describe('encodeSegment', () => {
  it('encodes ref names with slashes and usernames', () => {
    expect(encodeSegment('feature/login')).toBe('feature%2Flogin');
    expect(encodeSegment('alice')).toBe('alice');
    expect(encodeSegment(7)).toBe('7');
  });

  it('refuses values that would make a wrong path', () => {
    expect(() => encodeSegment('')).toThrow(TypeError);
    expect(() => encodeSegment(Number.NaN)).toThrow(TypeError);
  });
});

describe('toApiPath', () => {
  it('gives the path with one leading slash and without the query string', () => {
    expect(toApiPath('projects/1/jobs?scope[]=failed')).toBe('/projects/1/jobs');
    expect(toApiPath('/todos')).toBe('/todos');
  });
});

describe('paths that would leave their route', () => {
  it.each(['..', '.', '../..', 'demo/..', './web', 'demo//web'])('refuses the project path %j with a sentence', (p) => {
    expect(() => encodeProject(p)).toThrow(InvalidPathError);
    expect(() => encodeProject(p)).toThrow(/^(That is not a project path|A project path must not be empty)/);
  });

  it('refuses "." and ".." as any other segment, and says so without repeating the value', () => {
    expect(() => encodeSegment('..')).toThrow('A name in the request may not be "." or "..".');
    expect(() => encodeSegment('.')).toThrow(InvalidPathError);
    expect(encodeSegment('...')).toBe('...');
    expect(encodeProject('demo/web.site')).toBe('demo%2Fweb.site');
  });
});
