import { verifySlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { signSlackRequest } from '../../support/signing.js';

// The test harness signs requests itself; Bolt's own verifier proves it signs like Slack.
describe('the request signer', () => {
  it('produces signatures that Bolt verifies', () => {
    const ts = Math.floor(Date.now() / 1000);
    const body = 'command=%2Fgl&text=help';
    expect(() =>
      verifySlackRequest({
        signingSecret: 'secret-1',
        body,
        headers: { 'x-slack-signature': signSlackRequest('secret-1', ts, body), 'x-slack-request-timestamp': ts },
      }),
    ).not.toThrow();
  });

  it('produces signatures that Bolt refuses under another secret or with another body', () => {
    const ts = Math.floor(Date.now() / 1000);
    const sig = signSlackRequest('secret-1', ts, 'a=1');
    const headers = { 'x-slack-signature': sig, 'x-slack-request-timestamp': ts };
    expect(() => verifySlackRequest({ signingSecret: 'secret-2', body: 'a=1', headers })).toThrow();
    expect(() => verifySlackRequest({ signingSecret: 'secret-1', body: 'a=2', headers })).toThrow();
  });
});
