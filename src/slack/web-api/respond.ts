import http from 'node:http';
import https from 'node:https';
import type { RespondArguments } from '@slack/bolt';
import got, { RequestError } from 'got';

// Answers through a response_url with got (the project's HTTP client), over kept-alive sockets: every command and
// click answers this way, and a new connection per answer would cost a TCP (and TLS) handshake each.

const TIMEOUT_MS = 10_000;

/**
 * One POST per answer. A kept-alive connection can be closed by the other side's idle timeout just as an answer is
 * sent on it: the POST fails with ECONNRESET before any answer, and got sends it once more (on a new connection).
 * Without that the person read an unexpected error although their command had done its work
 * (test/integration/console/reused-connection.test.ts). Nothing else is tried again: a refusal is told.
 */
const slack = got.extend({
  agent: {
    http: new http.Agent({ keepAlive: true, maxSockets: 128 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 128 }),
  },
  headers: { 'content-type': 'application/json' },
  timeout: { request: TIMEOUT_MS },
  retry: { limit: 1, methods: ['POST'], statusCodes: [], errorCodes: ['ECONNRESET'], backoffLimit: 0 },
  throwHttpErrors: false,
});

/** A failed POST to a response_url (expired, rate limited, refused): it reaches the error middleware. */
export class ResponseUrlError extends Error {
  constructor(readonly status: number | null) {
    super(status === null ? 'the response_url could not be reached' : `the response_url answered ${status}`);
    this.name = 'ResponseUrlError';
  }
}

async function post(url: string, body: Buffer): Promise<void> {
  let status: number;
  try {
    ({ statusCode: status } = await slack.post(url, { body }));
  } catch (err) {
    if (err instanceof RequestError) throw new ResponseUrlError(null);
    throw err;
  }
  if (status < 200 || status >= 300) throw new ResponseUrlError(status);
}

/** Posts an answer to the response_url of a command, a click or the click that opened a modal. */
export type Respond = (message: RespondArguments | string) => Promise<void>;

/** A respond function for a response_url, or undefined when the payload carries none. */
export function respondTo(url: unknown): Respond | undefined {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return undefined;
  return (message) => {
    // Encoded before it goes: nothing here keeps the message itself (its blocks) while the answer is on its way.
    let body: Buffer;
    try {
      body = Buffer.from(JSON.stringify(typeof message === 'string' ? { text: message } : message));
    } catch (err) {
      return Promise.reject(err);
    }
    return post(url, body);
  };
}
