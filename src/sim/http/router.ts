// A route table matched segment by segment on the raw path, so an encoded
// project path (`demo%2Fweb`) stays one segment until it is decoded.

import type { Handler } from './context.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Route = [Method, string, Handler];

interface CompiledRoute {
  segments: string[];
  handler: Handler;
}

export interface Match {
  handler: Handler;
  route: Record<string, string>;
}

export interface Router {
  match(method: string, path: string): Match | null;
}

export function createRouter(routes: readonly Route[]): Router {
  const table = new Map<string, CompiledRoute[]>();
  for (const [method, pattern, handler] of routes) {
    const segments = pattern.split('/').filter(Boolean);
    const key = `${method} ${segments.length}`;
    const bucket = table.get(key) ?? [];
    bucket.push({ segments, handler });
    table.set(key, bucket);
  }
  return {
    match(method, path) {
      const parts = path.split('/').filter(Boolean);
      const bucket = table.get(`${method} ${parts.length}`);
      if (!bucket) return null;
      outer: for (const candidate of bucket) {
        const route: Record<string, string> = {};
        for (let i = 0; i < parts.length; i++) {
          const want = candidate.segments[i] as string;
          const got = parts[i] as string;
          if (want.startsWith(':')) {
            try {
              route[want.slice(1)] = decodeURIComponent(got);
            } catch {
              continue outer;
            }
          } else if (want !== got) {
            continue outer;
          }
        }
        return { handler: candidate.handler, route };
      }
      return null;
    },
  };
}
