import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { registerOwnSecrets } from '../../../src/own-secrets.js';
import {
  containsSecret,
  forgetSecret,
  MAX_REGISTERED_SECRETS,
  REDACTED,
  redact,
  redactTrace,
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
    for (let i = 0; i < MAX_REGISTERED_SECRETS + 100; i++) {
      registerSecret(secret());
      if (i % 100 === 0) registerSecret(kept);
    }
    expect(registeredSecretCount()).toBeLessThanOrEqual(MAX_REGISTERED_SECRETS);
    expect(redact(first)).toBe(first);
    expect(redact(kept)).toBe(REDACTED);
  });

  it("keeps every one of 10,000 people's tokens, as the pollers register them each minute", () => {
    const tokens = Array.from({ length: 10_000 }, secret);
    for (const t of tokens) registerSecret(t);
    for (const t of tokens) registerSecret(t); // the next minute's polls: each is opened again
    for (const t of [tokens[0], tokens[1999], tokens[2000], tokens[9999]] as string[]) {
      expect(containsSecret(`jobs --scope ${t}`)).toBe(true);
      expect(redact(`error for ${t}: refused`)).toBe(`error for ${REDACTED}: refused`);
    }
    expect(redact(tokens.slice(0, 50).join(' '))).toBe(Array(50).fill(REDACTED).join(' '));
    for (const t of tokens) forgetSecret(t);
    expect(redact(`error for ${tokens[0]}`)).toBe(`error for ${tokens[0]}`);
  });

  it('replaces the longest registered value at each place, left to right, as one alternation of them all would', () => {
    const head = `${secret()}`.slice(0, 12);
    const short = `${head}-a`;
    const long = `${head}-a-longer`;
    registerSecret(short);
    registerSecret(long);
    expect(redact(`x${long}y ${short} ${short}${short}`)).toBe(`x${REDACTED}y ${REDACTED} ${REDACTED}${REDACTED}`);
    expect(redact(`${head}-b`)).toBe(`${head}-b`);
    forgetSecret(long);
    expect(redact(long)).toBe(`${REDACTED}-longer`);
    forgetSecret(short);
    expect(redact(long)).toBe(long);
  });

  it('tells apart values whose first characters hash alike', () => {
    // "Aa" and "BB" hash alike in this hash (as in Java's String.hashCode): so do these two heads.
    const one = 'AaAaAaAa-first';
    const two = 'BBBBBBBB-second';
    registerSecret(one);
    registerSecret(two);
    expect(redact(`${one} ${two} BBBBBBBB-first AaAaAaAa-second`)).toBe(
      `${REDACTED} ${REDACTED} BBBBBBBB-first AaAaAaAa-second`,
    );
    forgetSecret(one);
    expect(redact(`${one} ${two}`)).toBe(`${one} ${REDACTED}`);
    forgetSecret(two);
    expect(containsSecret(two)).toBe(false);
  });

  it('agrees with a regular expression of all the values on texts made of them, their pieces and noise', () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = 'ab-';
    const word = (length: number) => Array.from({ length }, () => alphabet[next(alphabet.length)]).join('');
    const values = [...new Set(Array.from({ length: 40 }, () => `abab${word(4 + next(8))}`))];
    for (const v of values) registerSecret(v);
    const alternation = new RegExp(
      [...values]
        .sort((a, b) => b.length - a.length)
        .map((v) => v.replace(/[-]/g, '\\$&'))
        .join('|'),
      'g',
    );
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: 1 + next(6) }, () =>
        next(2) ? (values[next(values.length)] as string).slice(0, 4 + next(12)) : word(next(10)),
      ).join(next(2) ? '' : ' ');
      expect(redact(text)).toBe(text.replace(alternation, REDACTED));
      expect(containsSecret(text)).toBe(alternation.test(text) || /\bxox|glpat-/.test(text));
      alternation.lastIndex = 0;
    }
    for (const v of values) forgetSecret(v);
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

describe('what the bot sends of a trace (issue 46)', () => {
  it('replaces each well-known token, key and password shape, keeping what says where it was', () => {
    const cases: [string, string][] = [
      ['git clone https://oauth2:glpat-Zq3xY7wV9uT5sR1p@host/x.git', `git clone https://oauth2:${REDACTED}@host/x.git`],
      ['postgres://bot:hunter2@db:5432/bot', `postgres://bot:${REDACTED}@db:5432/bot`],
      ['Authorization: Basic dXNlcjpwYXNz', `Authorization: Basic ${REDACTED}`],
      ['Authorization: Bearer abc.def.ghi', `Authorization: Bearer ${REDACTED}`],
      ['JOB-TOKEN: 64_abcdefghijkl', `JOB-TOKEN: ${REDACTED}`],
      ['key AKIAIOSFODNN7EXAMPLE used', `key ${REDACTED} used`],
      ['AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCY', `AWS_SECRET_ACCESS_KEY=${REDACTED}`],
      ['"client_secret": "s3cr3t-value-1"', `"client_secret": "${REDACTED}"`],
      ['hook https://hooks.slack.com/services/T0/B0/XyZ', `hook ${REDACTED}`],
      ['runner GR1348941abcdefghij', `runner ${REDACTED}`],
      ['xoxe.xoxp-1-abc', `xoxe.${REDACTED}`],
    ];
    for (const [text, shown] of cases) expect(redactTrace(text)).toBe(shown);
  });

  it('removes a PEM block whole, and one cut off before its end', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';
    expect(redactTrace(`before\n${pem}\nafter`)).toBe(`before\n${REDACTED}\nafter`);
    expect(redactTrace('x\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB')).toBe(`x\n${REDACTED}`);
    expect(redactTrace('{"private_key":"-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n"}')).toBe(
      `{"private_key":"${REDACTED}\\n"}`,
    );
  });

  it('leaves ordinary trace lines alone and is the same when run twice', () => {
    const ordinary = 'Checking token validity\n$ npm test\nERROR: Job failed: exit code 1\nSecret scanning: passed';
    expect(redactTrace(ordinary)).toBe(ordinary);
    const once = redactTrace('PRIVATE-TOKEN: abcdefgh12 and password=hunter22');
    expect(redactTrace(once)).toBe(once);
  });

  it("registers the bot's own secrets, in each form they may be printed", () => {
    const key = crypto.randomBytes(32);
    const config = loadConfig({
      SLACK_BOT_TOKEN: `xoxb-${crypto.randomBytes(6).toString('hex')}`,
      SLACK_SIGNING_SECRET: crypto.randomBytes(16).toString('hex'),
      TOKEN_ENCRYPTION_KEY: key.toString('base64'),
      GITLAB_URL: 'http://gitlab.example',
      DATABASE_URL: 'postgres://bot:p%40ss-w0rd-long@db:5432/bot',
    });
    registerOwnSecrets(config);
    const signing = config.slack.signingSecret as string;
    expect(redactTrace(`s=${signing}`)).not.toContain(signing);
    expect(redact(`the key ${key.toString('hex')}`)).toBe(`the key ${REDACTED}`);
    expect(redact(`echo ${key.toString('base64')}`)).toBe(`echo ${REDACTED}`);
    expect(redact('pw p@ss-w0rd-long and p%40ss-w0rd-long')).toBe(`pw ${REDACTED} and ${REDACTED}`);
  });
});
