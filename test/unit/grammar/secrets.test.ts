import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/grammar/index.js';
import { findTokenShapedWord } from '../../../src/grammar/secrets.js';
import { accepted, plain, SERVER } from './support.js';

// Made-up values of the right shapes: none of them is a real token.
const GITLAB_BODY = 'Zx9qR2mT7vKp4LwN8sYb';
const PAT = `glpat-${GITLAB_BODY}`;
const SLACK_BOT = 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx';
const LEGACY = 'aB3dE5fG7hJ9kL1mN2pQ';
const SHA = '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b';

/** mulberry32, so the random tokens are the same on every run. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function secretError(text: string, slashCommand = '/gl') {
  const result = parseCommand(text, { serverUrl: SERVER, slashCommand });
  if (result.ok) throw new Error(`${text} parsed to ${result.command.key}`);
  return result.error;
}

/** No stretch of 6 characters of the token appears in the message, however it was cut or escaped. */
function leaks(message: string, token: string): boolean {
  const shown = plain(message);
  for (let i = 0; i + 6 <= token.length; i++) if (shown.includes(token.slice(i, i + 6))) return true;
  return false;
}

describe('findTokenShapedWord', () => {
  it.each([
    'glpat',
    'gloas',
    'gldt',
    'glrt',
    'glrtr',
    'glptt',
    'glft',
    'glimt',
    'glagent',
    'glcbt',
    'glsoat',
    'glffct',
  ])('finds a GitLab %s- token anywhere in the text', (prefix) => {
    const word = `${prefix}-${GITLAB_BODY}`;
    expect(findTokenShapedWord(`pipeline run demo/web --ref ${word}`)).toEqual({ kind: 'gitlab', word });
  });

  it('finds GitLab tokens however they were written or cut', () => {
    expect(findTokenShapedWord('connect glpat-123')?.kind).toBe('gitlab');
    expect(findTokenShapedWord(`Glpat-${GITLAB_BODY}`)?.kind).toBe('gitlab');
    expect(findTokenShapedWord(`ACME-glpat-${GITLAB_BODY}`)?.kind).toBe('gitlab');
    expect(findTokenShapedWord(`glpat-${GITLAB_BODY}.01.1a2b3c4d5`)?.word).toBe(`glpat-${GITLAB_BODY}.01.1a2b3c4d5`);
    expect(findTokenShapedWord(`--ref="${PAT}"`)?.word).toBe(PAT);
    expect(findTokenShapedWord('GR1348941abcdefABCDEF12345')?.kind).toBe('gitlab');
  });

  it('finds Slack tokens', () => {
    expect(findTokenShapedWord(`connect ${SLACK_BOT}`)).toEqual({ kind: 'slack', word: SLACK_BOT });
    for (const prefix of ['xoxa', 'xoxe', 'xoxo', 'xoxp', 'xoxr', 'xoxs', 'xapp']) {
      expect(findTokenShapedWord(`${prefix}-1-A2b3C4d5`)?.kind, prefix).toBe('slack');
    }
  });

  it('finds an unprefixed token: 20 or more letters and digits of mixed case', () => {
    expect(findTokenShapedWord(`connect ${LEGACY}`)).toEqual({ kind: 'generic', word: LEGACY });
    expect(findTokenShapedWord('z_sxgtrfAxKr8q1TPY8Y')?.kind).toBe('generic');
  });

  it('finds nearly every random token of 20 characters', () => {
    const random = createRandom(42);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
    let mixed = 0;
    let found = 0;
    while (mixed < 2000) {
      const word = Array.from({ length: 20 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      if (!/[A-Z]/.test(word) || !/[a-z]/.test(word) || !/\d/.test(word)) continue;
      mixed++;
      if (findTokenShapedWord(word)) found++;
    }
    expect(found / mixed).toBeGreaterThan(0.99);
  });

  it.each([
    ['a commit SHA', `mr merge !34 --sha ${SHA}`],
    ['an upper-case SHA', `mr merge !34 --sha ${SHA.toUpperCase()}`],
    ['a UUID', 'issue edit #3 --discussion 123e4567-e89b-12d3-a456-426614174000'],
    ['a long branch', 'pipeline run demo/web feature/some-long-branch-name-2026'],
    ['a branch of capitalised words', 'pipeline run demo/web Release-2026-Q1-Hotfix-Login'],
    ['a branch with a ticket', 'pipeline run demo/web feature/PROJ-1234-implement-login-flow'],
    ['a job name in camel case', 'job artifacts demo/web --ref main --job BuildAndTestLinux2024'],
    ['a branch with short words', 'pipeline run demo/web Upgrade-to-Python3-and-Django4'],
    [
      'a long quoted title',
      'issue create demo/web "Login fails on Safari 17 when the session cookie expired overnight"',
    ],
    ['ISO dates', 'issue create "T" --created-at 2026-01-02T03:04:05.123Z --due 2026-12-01'],
    ['a link of the server', `job ${SERVER}/group/sub-group/project-with-long-name/-/jobs/1234567890`],
    ['a Slack mention', 'issues --author <@U0123ABCDEF|alice.example>'],
    ['a cron expression', 'schedule create "Nightly" main "0 2 * * 1-5" --tz America/Argentina/Buenos_Aires'],
    ['a long number', 'job 12345678901234567890123'],
  ])('passes %s', (_what, text) => {
    expect(findTokenShapedWord(text)).toBeUndefined();
  });
});

describe('a command with a token in it', () => {
  it.each([
    ['after connect', `connect ${PAT}`],
    ['as a flag value', `pipeline run demo/web --ref ${PAT}`],
    ['as an inline flag value', `pipeline run demo/web --ref=${PAT}`],
    ['quoted', `issue create demo/web "my token is ${PAT}"`],
    ['as a positional', `pipeline run demo/web ${LEGACY}`],
    ['as the first word', PAT],
    ['after an unknown noun', `frobnicate ${SLACK_BOT}`],
    ['inside a Slack link', `issue create demo/web <https://example.test/?t=${PAT}|the docs>`],
    ['after a flag that wants no value', `whoami --share ${LEGACY}`],
    ['in a mention label', `issues --author <@U1|${LEGACY}>`],
  ])('is refused without showing the token (%s)', (_where, text) => {
    const error = secretError(text);
    expect(error.kind).toBe('secret');
    expect(leaks(error.message, PAT)).toBe(false);
    expect(leaks(error.message, LEGACY)).toBe(false);
    expect(leaks(error.message, SLACK_BOT)).toBe(false);
    expect(error.noun).toBeUndefined();
    expect(error.suggestion).toBeUndefined();
  });

  it('says nothing ran, and to revoke the token because it was typed into a chat', () => {
    const message = plain(secretError(`connect ${PAT}`).message);
    expect(message).toContain('looked like an access token');
    expect(message).toContain('did not run it');
    expect(message).toContain('not showing it');
    expect(message).toContain('typed into a chat');
    expect(message).toContain('revoke it on the server');
    expect(plain(secretError(`connect ${SLACK_BOT}`).message)).toContain("revoke it in the Slack app's settings");
  });

  it('points at connect with the configured slash command', () => {
    const message = plain(secretError(`connect ${PAT}`, '/gitlab').message);
    expect(message).toContain('`/gitlab connect`');
    expect(message).not.toContain('/gl ');
  });

  it('is escaped for Slack', () => {
    expect(secretError(`connect ${PAT}`).message).not.toMatch(/[<>]/);
  });

  it('leaves ordinary usage errors without the secret kind', () => {
    const result = parseCommand('jbos', { serverUrl: SERVER });
    expect(!result.ok && result.error.kind).toBeUndefined();
  });

  it('still runs commands with SHAs, branches, titles and dates', () => {
    expect(accepted(`mr merge !34 --sha ${SHA}`).key).toBe('mr.merge');
    expect(accepted('pipeline run demo/web feature/some-long-branch-name-2026').key).toBe('pipeline.run');
    expect(accepted('issue create demo/web "A long title about the login page of the web app"').key).toBe(
      'issue.create',
    );
    expect(accepted('events --after 2026-01-31 --before 2026-03-01').key).toBe('event.list');
  });
});
