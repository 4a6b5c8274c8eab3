import { findBlockViolations } from '../views/limits.js';

// What the fake Slack checks and computes the way Slack documents it, kept apart from the
// server: message timestamps, message metadata, link unfurls and history pages.

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

export interface MessageMetadata {
  event_type: string;
  event_payload: Obj;
}

/** Slack's `ts`: seconds and a six-digit sequence, compared as numbers (as floats they lose digits). */
export function compareTs(a: string, b: string): number {
  const [as = '0', af = '0'] = a.split('.');
  const [bs = '0', bf = '0'] = b.split('.');
  const d = BigInt(as) - BigInt(bs);
  if (d !== 0n) return d < 0n ? -1 : 1;
  const f = BigInt(af.padEnd(6, '0')) - BigInt(bf.padEnd(6, '0'));
  return f === 0n ? 0 : f < 0n ? -1 : 1;
}

export const isTs = (x: unknown): x is string => typeof x === 'string' && /^\d+(\.\d{1,6})?$/.test(x);

/** `metadata` of chat.postMessage / chat.update: JSON (or a JSON string) with event_type and an event_payload object. */
export function parseMetadata(raw: unknown): { metadata: MessageMetadata } | { error: string } {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { error: 'invalid_metadata_format' };
    }
  }
  if (!isObj(value)) return { error: 'invalid_metadata_format' };
  const { event_type, event_payload } = value;
  if (typeof event_type !== 'string' || event_type.trim() === '' || !isObj(event_payload))
    return { error: 'invalid_metadata_schema' };
  return { metadata: { event_type, event_payload } };
}

/**
 * `unfurls` of chat.unfurl: a map from URLs that appear in the message to an unfurl (blocks, or
 * the fields of a legacy attachment). Blocks of each unfurl must keep a message's limits.
 */
export function checkUnfurls(
  raw: unknown,
  messageText: string,
): { unfurls: Record<string, Obj> } | { error: string; violations: string[] } {
  let value = raw;
  if (raw === undefined || raw === null || raw === '') return { error: 'missing_unfurls', violations: [] };
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { error: 'invalid_unfurls_format', violations: [] };
    }
  }
  if (!isObj(value) || Object.keys(value).length === 0) return { error: 'invalid_unfurls_format', violations: [] };
  const violations: string[] = [];
  for (const [url, unfurl] of Object.entries(value)) {
    if (!isObj(unfurl)) return { error: 'cannot_parse_attachment', violations: [`${url}: not an object`] };
    if (!linksTo(messageText, url))
      return { error: 'cannot_unfurl_message', violations: [`${url}: not in the message`] };
    if (unfurl.blocks !== undefined)
      violations.push(...findBlockViolations(unfurl.blocks, 'message').map((v) => `${url}: ${v}`));
  }
  if (violations.length) return { error: 'invalid_blocks', violations };
  return { unfurls: value as Record<string, Obj> };
}

/** Whether a message's text carries `url`, bare or as Slack writes links (`<url>`, `<url|label>`). */
function linksTo(text: string, url: string): boolean {
  return text.includes(`<${url}>`) || text.includes(`<${url}|`) || text.split(/\s+/).includes(url);
}

export interface HistoryQuery {
  limit?: unknown;
  oldest?: unknown;
  latest?: unknown;
  inclusive?: unknown;
  cursor?: unknown;
}

const truthy = (x: unknown) => x === true || x === 'true' || x === '1' || x === 1;
const MAX_LIMIT = 999;

const encodeCursor = (ts: string) => Buffer.from(`next_ts:${ts}`).toString('base64');
function decodeCursor(cursor: string): string | null {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  const ts = text.startsWith('next_ts:') ? text.slice('next_ts:'.length) : null;
  return ts && isTs(ts) ? ts : null;
}

/**
 * One page of conversations.history: newest first, between `oldest` and `latest` (exclusive
 * unless `inclusive`), at most `limit` (default 100, at most 999), continued by a cursor.
 */
export function historyPage<T extends { ts: string }>(
  messages: T[],
  q: HistoryQuery,
): { messages: T[]; has_more: boolean; next_cursor: string } | { error: string } {
  let limit = 100;
  if (q.limit !== undefined && q.limit !== '') {
    const n = Number(q.limit);
    if (!Number.isInteger(n) || n < 0) return { error: 'invalid_arguments' };
    // Slack reads 0 as "the default"
    if (n > 0) limit = Math.min(n, MAX_LIMIT);
  }
  for (const key of ['oldest', 'latest'] as const) {
    const v = q[key];
    if (v !== undefined && v !== '' && !isTs(String(v))) return { error: `invalid_ts_${key}` };
  }
  const inclusive = truthy(q.inclusive);
  const oldest = q.oldest ? String(q.oldest) : null;
  const latest = q.latest ? String(q.latest) : null;
  let upTo: string | null = null;
  if (typeof q.cursor === 'string' && q.cursor !== '') {
    upTo = decodeCursor(q.cursor);
    if (!upTo) return { error: 'invalid_cursor' };
  }
  const inRange = messages.filter((m) => {
    if (oldest !== null) {
      const c = compareTs(m.ts, oldest);
      if (c < 0 || (c === 0 && !inclusive)) return false;
    }
    if (latest !== null) {
      const c = compareTs(m.ts, latest);
      if (c > 0 || (c === 0 && !inclusive)) return false;
    }
    return upTo === null || compareTs(m.ts, upTo) <= 0;
  });
  inRange.sort((a, b) => compareTs(b.ts, a.ts));
  const page = inRange.slice(0, limit);
  const next = inRange[limit];
  return { messages: page, has_more: next !== undefined, next_cursor: next ? encodeCursor(next.ts) : '' };
}
