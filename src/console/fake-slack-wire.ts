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

/** The uploaded bytes, whether sent raw or as multipart/form-data. */
export function extractUpload(buf: Buffer, contentType: string): string {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) return buf.toString('utf8');
  const boundary = `--${m[1] ?? m[2]}`;
  const text = buf.toString('utf8');
  const part = text.split(boundary).find((p) => /filename="/.test(p));
  if (!part) return text;
  const start = part.indexOf('\r\n\r\n');
  return part.slice(start + 4).replace(/\r\n$/, '');
}
