import http from 'node:http';
import https from 'node:https';
import type { RespondArguments } from '@slack/bolt';

// Answers through a response_url over kept-alive sockets. Bolt's own respond goes through fetch, which costs
// several times the CPU and memory of one plain POST per answer; every command and click answers this way.

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 128 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 128 }),
};

const TIMEOUT_MS = 10_000;

/** A failed POST to a response_url (expired, rate limited, refused): it reaches the error middleware. */
export class ResponseUrlError extends Error {
  constructor(readonly status: number | null) {
    super(status === null ? 'the response_url could not be reached' : `the response_url answered ${status}`);
    this.name = 'ResponseUrlError';
  }
}

/**
 * A kept-alive connection can be closed by the other side's idle timeout just as an answer is sent on it: the request
 * fails with ECONNRESET on a reused socket before any answer, and it is sent once more on a new connection (the case
 * Node's documentation gives for `request.reusedSocket`). Without it the person read an unexpected error although
 * their command had done its work.
 */
function post(url: string, body: Buffer, fresh = false): Promise<void> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        agent: fresh ? false : secure ? agents.https : agents.http,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        answered = true;
        // Drained, so the socket goes back to the pool.
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new ResponseUrlError(status));
        });
        res.on('error', () => reject(new ResponseUrlError(null)));
      },
    );
    req.on('timeout', () => req.destroy(new ResponseUrlError(null)));
    req.on('error', (err) => {
      if (!fresh && !answered && req.reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET') {
        post(url, body, true).then(resolve, reject);
        return;
      }
      reject(err instanceof ResponseUrlError ? err : new ResponseUrlError(null));
    });
    req.end(body);
  });
}

/** Posts an answer to the response_url of a command, a click or the click that opened a modal. */
export type Respond = (message: RespondArguments | string) => Promise<void>;

/** A respond function for a response_url, or undefined when the payload carries none. */
export function respondTo(url: unknown): Respond | undefined {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return undefined;
  return (message) => {
    // Encoded once: its length and what is written (and written again on a fresh connection) are the same bytes.
    // A Buffer, not the string: a string would be joined to the headers and copied once more on its way to the
    // socket. Nothing here keeps the message itself (its blocks) while the answer is on its way.
    let body: Buffer;
    try {
      body = Buffer.from(JSON.stringify(typeof message === 'string' ? { text: message } : message));
    } catch (err) {
      return Promise.reject(err);
    }
    return post(url, body);
  };
}
