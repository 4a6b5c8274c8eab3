import crypto from 'node:crypto';

/** Slack's v0 request signature: HMAC-SHA256 of `v0:<timestamp>:<raw body>` with the signing secret. */
export function signSlackRequest(signingSecret: string, timestamp: number, rawBody: string): string {
  return `v0=${crypto.createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

export interface SignOptions {
  secret?: string;
  timestamp?: number;
  signature?: string;
  omitSignature?: boolean;
  omitTimestamp?: boolean;
  mutateAfterSigning?: (raw: string) => string;
}

/** Headers (and the body actually sent) for a request signed as Slack would, or deliberately not. */
export function signedRequest(signingSecret: string, rawBody: string, o: SignOptions = {}) {
  const timestamp = o.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = o.signature ?? signSlackRequest(o.secret ?? signingSecret, timestamp, rawBody);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (!o.omitTimestamp) headers['x-slack-request-timestamp'] = String(timestamp);
  if (!o.omitSignature) headers['x-slack-signature'] = signature;
  return { headers, body: o.mutateAfterSigning ? o.mutateAfterSigning(rawBody) : rawBody };
}
