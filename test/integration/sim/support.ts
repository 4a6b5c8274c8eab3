// Talking to a simulator started in-process: plain fetch, the demo tokens,
// and a fixed clock so every timestamp is the same on every run.

import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type RunningSimulator, type SimulatorOptions, startSimulator } from '../../../src/sim/index.js';

export const NOW = new Date('2026-03-02T10:00:00.000Z');

import { TOKENS } from '../../support/start-sim.js';

export { TOKENS };

export type Who = keyof typeof TOKENS | null;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in the tests
export type Loose = any;

export interface CallOptions {
  as?: Who;
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
  form?: Record<string, string | number | boolean | (string | number)[] | undefined>;
  json?: unknown;
  headers?: Record<string, string>;
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  data: T;
  text: string;
  bytes: Buffer;
}

export const enc = (s: string | number) => encodeURIComponent(String(s));
export const WEB = enc('demo/web');
export const SECRET = enc('demo/secret');
export const DOCS = enc('demo/docs');

function append(p: URLSearchParams, values: CallOptions['query']) {
  for (const [k, v] of Object.entries(values ?? {})) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) p.append(`${k}[]`, String(x));
    else p.append(k, String(v));
  }
}

export function client(baseUrl: () => string) {
  async function call<T = Loose>(method: string, path: string, opts: CallOptions = {}): Promise<Answer<T>> {
    const url = new URL(`${baseUrl()}${path.startsWith('/__sim') ? '' : '/api/v4'}${path}`);
    append(url.searchParams, opts.query);
    const headers: Record<string, string> = { ...opts.headers };
    const who = opts.as === undefined ? 'alice' : opts.as;
    if (who) headers['PRIVATE-TOKEN'] = TOKENS[who];
    let body: string | undefined;
    if (opts.form) {
      const p = new URLSearchParams();
      append(p, opts.form);
      body = p.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(url, { method, headers, body });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    let data: unknown = null;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) data = JSON.parse(text);
    return { status: res.status, headers: res.headers, data: data as T, text, bytes };
  }
  return {
    call,
    get: <T = Loose>(path: string, opts?: CallOptions) => call<T>('GET', path, opts),
    post: <T = Loose>(path: string, opts?: CallOptions) => call<T>('POST', path, opts),
    put: <T = Loose>(path: string, opts?: CallOptions) => call<T>('PUT', path, opts),
    del: <T = Loose>(path: string, opts?: CallOptions) => call<T>('DELETE', path, opts),
  };
}

/** One simulator for a test file, reset before each test so tests do not depend on each other. */
export function useSimulator(options: SimulatorOptions = {}) {
  let sim: RunningSimulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, now: () => NOW, ...options });
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(() => {
    sim?.reset();
  });
  const api = client(() => (sim as RunningSimulator).url);
  return {
    ...api,
    sim: () => sim as RunningSimulator,
    /** every item of a list, following X-Next-Page */
    async all<T = Loose>(path: string, opts: CallOptions = {}): Promise<T[]> {
      const out: T[] = [];
      let page: string | null = '1';
      while (page) {
        const r: Answer<T[]> = await api.get<T[]>(path, { ...opts, query: { ...opts.query, per_page: 100, page } });
        if (r.status !== 200) throw new Error(`GET ${path} -> ${r.status} ${r.text}`);
        out.push(...r.data);
        page = r.headers.get('x-next-page') || null;
      }
      return out;
    },
  };
}
