import type { State, UserRecord } from '../model.js';
import type { Params } from './params.js';

/** What a route handler gets: the state, the authenticated caller and the request's parameters. */
export interface RequestContext {
  state: State;
  user: UserRecord;
  /** query string and body merged, the body winning */
  params: Params;
  /** decoded path parameters (`:id`, `:job_id` …) */
  route: Record<string, string>;
  /** `http://<Host header>`, so web URLs point where the caller came from */
  baseUrl: string;
  /** the raw request path, still URL-encoded */
  path: string;
  query: Params;
  now: Date;
  /** events carry their `id` (servers after 9.5); 9.5 sends none */
  eventIds: boolean;
  clientIp: string;
  userAgent: string;
  /** A fault: pages of this many items whatever per_page asks, as a server that ignores it would send. */
  pageSize?: number;
}

export interface SimResponse {
  status: number;
  /** serialised as JSON */
  body?: unknown;
  /** sent as is (artifacts, traces) */
  raw?: Buffer | string;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => SimResponse;

export const json = (status: number, body: unknown, headers?: Record<string, string>): SimResponse =>
  headers ? { status, body, headers } : { status, body };

export const empty = (status: 204 | 304): SimResponse => ({ status });
