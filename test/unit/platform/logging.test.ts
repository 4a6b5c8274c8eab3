import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
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
