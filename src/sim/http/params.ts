// Request parameters: parsing the wire forms (query string, form body, JSON
// body; `name[]` arrays) and reading typed values the way Grape validates them.

import { invalid, missing, notAValidValue } from './errors.js';

export type ParamValue = unknown;
export type Params = Record<string, ParamValue>;

/** `a=1&b[]=x&b[]=y` -> `{ a: '1', b: ['x', 'y'] }`; a repeated bare key keeps its last value, as Rack does. */
export function parseUrlEncoded(text: string): Params {
  const out: Params = {};
  if (!text) return out;
  for (const [rawKey, value] of new URLSearchParams(text)) {
    if (rawKey.endsWith('[]')) {
      const key = rawKey.slice(0, -2);
      const prev = out[key];
      if (Array.isArray(prev)) prev.push(value);
      else out[key] = [value];
    } else {
      out[rawKey] = value;
    }
  }
  return out;
}

/** The parsed body, or null when there is none. Throws a 400 on malformed JSON. */
export function parseBody(raw: Buffer, contentType: string | undefined): Params | null {
  if (raw.length === 0) return null;
  const text = raw.toString('utf8');
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw invalid('body');
    }
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Params) : {};
  }
  if (type === 'application/x-www-form-urlencoded' || type === '' || type === 'text/plain')
    return parseUrlEncoded(text);
  return {};
}

function scalar(v: ParamValue): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.length ? scalar(v[v.length - 1]) : undefined;
  if (typeof v === 'object') return undefined;
  return String(v);
}

export function has(p: Params, name: string): boolean {
  return p[name] !== undefined && p[name] !== null;
}

export function str(p: Params, name: string): string | undefined {
  return scalar(p[name]);
}

export function requireStr(p: Params, name: string): string {
  const v = str(p, name);
  if (v === undefined || v.trim() === '') throw missing(name);
  return v;
}

export function int(p: Params, name: string): number | undefined {
  const v = str(p, name);
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(v.trim())) throw invalid(name);
  return Number(v);
}

export function requireInt(p: Params, name: string): number {
  const v = int(p, name);
  if (v === undefined) throw missing(name);
  return v;
}

export function bool(p: Params, name: string): boolean | undefined {
  const v = p[name];
  if (typeof v === 'boolean') return v;
  const s = scalar(v)?.toLowerCase();
  if (s === undefined || s === '') return undefined;
  if (['true', '1', 't', 'yes', 'y'].includes(s)) return true;
  if (['false', '0', 'f', 'no', 'n'].includes(s)) return false;
  throw invalid(name);
}

/** An array parameter given as `name[]=a&name[]=b`, a JSON array, a single `name=a` or `name=a,b`. */
export function list(p: Params, name: string): string[] | undefined {
  const v = p[name];
  if (v === undefined || v === null) return undefined;
  const items = Array.isArray(v) ? v : typeof v === 'object' ? Object.values(v as object) : [v];
  return items
    .flatMap((x) => String(x).split(','))
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

export function intList(p: Params, name: string): number[] | undefined {
  const items = list(p, name);
  if (items === undefined) return undefined;
  if (items.some((x) => !/^\d+$/.test(x))) throw invalid(name);
  return items.map(Number);
}

export function oneOf<T extends string>(p: Params, name: string, values: readonly T[]): T | undefined {
  const v = str(p, name);
  if (v === undefined || v === '') return undefined;
  if (!(values as readonly string[]).includes(v)) throw notAValidValue(name);
  return v as T;
}

/** A date-time (`2026-03-01` or ISO 8601) as epoch ms. */
export function dateTime(p: Params, name: string): number | undefined {
  const v = str(p, name);
  if (v === undefined || v === '') return undefined;
  const t = /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00Z`) : Date.parse(v);
  if (Number.isNaN(t)) throw invalid(name);
  return t;
}

/** A calendar date `YYYY-MM-DD` (Grape's Date type). */
export function date(p: Params, name: string): string | undefined {
  const v = str(p, name);
  if (v === undefined || v === '') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
  if (!m || Number.isNaN(Date.parse(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`))) throw invalid(name);
  return `${m[1]}-${m[2]}-${m[3]}`;
}
