import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.js';
import { redact, registerSecret } from '../../../src/redact.js';

describe('redaction', () => {
  it('scrubs well-known token shapes and header values even when nobody registered them', () => {
    const text = redact(
      'xoxb-123-abc xapp-1-A glpat-abcdefghij {"PRIVATE-TOKEN":"sekrit"} Authorization: Bearer abc.def',
    );
    expect(text).not.toMatch(/xoxb-123|xapp-1-A|glpat-abc|sekrit|abc\.def/);
  });

  it('scrubs registered secrets wherever they appear', () => {
    registerSecret('sim-alice-token-for-test');
    expect(redact('token=sim-alice-token-for-test;')).toBe('token=[redacted];');
  });

  it('writes JSON lines at or above the level, redacted', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', sink: (l) => lines.push(l) });
    registerSecret('another-registered-secret');
    log.debug('hidden');
    log.info('shown', { value: 'another-registered-secret', err: new Error('boom') });
    log.child({ component: 'x' }).warn('child');
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0] as string);
    expect(first).toMatchObject({ level: 'info', msg: 'shown', value: '[redacted]', err: { message: 'boom' } });
    expect(JSON.parse(lines[1] as string)).toMatchObject({ component: 'x', level: 'warn' });
  });
});

describe('the log through pino', () => {
  const collect = (level: 'debug' | 'info' = 'debug') => {
    const lines: string[] = [];
    return { lines, log: createLogger({ level, sink: (l) => lines.push(l) }) };
  };

  it('writes one JSON line per entry: level by name, ISO time, bindings, fields, message', () => {
    const { lines, log } = collect('info');
    log.child({ component: 'gitlab' }).child({ req: 'ab12cd34' }).info('a call', { status: 200 });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] as string);
    expect(line).toMatchObject({ level: 'info', component: 'gitlab', req: 'ab12cd34', status: 200, msg: 'a call' });
    expect(new Date(line.time).toISOString()).toBe(line.time);
    expect(log.isLevelEnabled('debug')).toBe(false);
  });

  it('never writes a token, the encryption key or the password of DATABASE_URL, by field or by content', () => {
    const botToken = `xoxb-${crypto.randomBytes(8).toString('hex')}`;
    const key = crypto.randomBytes(32).toString('base64');
    const password = `pw-${crypto.randomBytes(9).toString('hex')}`;
    const gitlabToken = `person-${crypto.randomBytes(10).toString('hex')}`;
    const databaseUrl = `postgres://glbot:${password}@db.internal:5432/glbot`;
    // What the bot registers at start (own-secrets.ts) and when it opens a person's token.
    for (const secret of [key, password, gitlabToken]) registerSecret(secret);
    const { lines, log } = collect();
    log.info('config', { token: gitlabToken, slack: { botToken }, databaseUrl, encryptionKey: key });
    log.warn(`could not reach ${databaseUrl}`, { detail: `key ${key} and token ${gitlabToken}` });
    log.error('a failure', { error: new Error(`PRIVATE-TOKEN: ${gitlabToken} refused; ${databaseUrl}`) });
    log.child({ headers: { authorization: `Bearer ${botToken}` } }).debug('headers');
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      for (const secret of [botToken, key, password, gitlabToken]) expect(line).not.toContain(secret);
      expect(() => JSON.parse(line)).not.toThrow();
    }
    expect(JSON.parse(lines[0] as string)).toMatchObject({ token: '[redacted]', encryptionKey: '[redacted]' });
  });
});
