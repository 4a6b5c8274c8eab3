import type http from 'node:http';

// How the fake Slack reads a request: a JSON or form body (form fields that carry JSON, such as `blocks`, decoded as
// Slack decodes them), and the bytes of an upload sent raw or as multipart/form-data.

export type Body = Record<string, unknown>;

const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'files', 'metadata', 'unfurls', 'user_auth_blocks']);
export const truthy = (x: unknown) => x === true || x === 'true' || x === '1' || x === 1;

export function parseBody(buf: Buffer, contentType: string): Body {
  const text = buf.toString('utf8');
  if (contentType.includes('application/json')) {
    try {
      return text ? (JSON.parse(text) as Body) : {};
    } catch {
      return { __unparsable: text };
    }
  }
  const out: Body = {};
  for (const [k, v] of new URLSearchParams(text)) {
    if (JSON_FIELDS.has(k) && /^\s*[[{]/.test(v)) {
      try {
        out[k] = JSON.parse(v);
        continue;
      } catch {
        /* keep the raw string */
      }
    }
    out[k] = v;
  }
  return out;
}

export const readAll = (req: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** The uploaded bytes, whether sent raw or as multipart/form-data (binary-safe: a PNG arrives intact). */
export function extractUpload(buf: Buffer, contentType: string): Buffer {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) return buf;
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  let at = buf.indexOf(boundary);
  while (at !== -1) {
    const next = buf.indexOf(boundary, at + boundary.length);
    const part = buf.subarray(at + boundary.length, next === -1 ? buf.length : next);
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd !== -1 && /filename="/.test(part.subarray(0, headEnd).toString('utf8'))) {
      const body = part.subarray(headEnd + 4);
      const crlf = body.length >= 2 && body[body.length - 2] === 13 && body[body.length - 1] === 10;
      return crlf ? body.subarray(0, body.length - 2) : body;
    }
    at = next;
  }
  return buf;
}
