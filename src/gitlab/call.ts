import type { Readable } from 'node:stream';
import { z } from 'zod';
import { ResponseShapeError } from './errors.js';
import type { HttpMethod, Transport, TransportResponse } from './http.js';
import { type HeaderBag, type Page, toPage } from './paginate.js';
import type { Params } from './params.js';
import { toApiPath } from './paths.js';

/** A 304 ("nothing changed": already subscribed, already a todo) is an answer, not an error. */
export type Changed<T> = { changed: true; value: T } | { changed: false };

/** The shared plumbing of the resource files: one token, requests, and a zod parse of every answer. */
export interface Caller {
  get<S extends z.ZodType>(path: string, schema: S, query?: Params): Promise<z.output<S>>;
  list<S extends z.ZodType>(path: string, itemSchema: S, query?: Params): Promise<Page<z.output<S>>>;
  send<S extends z.ZodType>(method: HttpMethod, path: string, schema: S, form?: Params): Promise<z.output<S>>;
  sendVoid(method: HttpMethod, path: string, form?: Params): Promise<void>;
  sendChanged<S extends z.ZodType>(
    method: HttpMethod,
    path: string,
    schema: S,
    form?: Params,
  ): Promise<Changed<z.output<S>>>;
  text(path: string, query?: Params): Promise<string>;
  stream(path: string, query?: Params): Promise<{ headers: HeaderBag; stream: Readable }>;
  /** The undecoded answer, for the few calls whose body shape depends on the server. */
  raw(method: HttpMethod, path: string, form?: Params): Promise<TransportResponse<unknown>>;
}

export function parseAnswer<S extends z.ZodType>(
  schema: S,
  response: TransportResponse<unknown>,
  method: HttpMethod,
  path: string,
): z.output<S> {
  const result = schema.safeParse(response.body);
  if (result.success) return result.data;
  throw new ResponseShapeError({ status: response.status, method, path: toApiPath(path), issues: result.error.issues });
}

// One array schema per item schema: zod builds and wires a schema on construction (and its memoizer walks the
// tree on first use), work a list call would otherwise redo on every answer.
const arraySchemas = new WeakMap<z.ZodType, z.ZodArray<z.ZodType>>();
function arrayOf(itemSchema: z.ZodType): z.ZodArray<z.ZodType> {
  let schema = arraySchemas.get(itemSchema);
  if (!schema) {
    schema = z.array(itemSchema);
    arraySchemas.set(itemSchema, schema);
  }
  return schema;
}

export function createCaller(transport: Transport, token: string): Caller {
  const raw = (method: HttpMethod, path: string, form?: Params) => transport.request({ method, path, token, form });

  return {
    async get(path, schema, query) {
      const response = await transport.request({ method: 'GET', path, token, query });
      return parseAnswer(schema, response, 'GET', path);
    },
    async list(path, itemSchema, query) {
      const response = await transport.request({ method: 'GET', path, token, query });
      return toPage(
        parseAnswer(arrayOf(itemSchema), response, 'GET', path) as z.output<typeof itemSchema>[],
        response.headers,
      );
    },
    async send(method, path, schema, form) {
      return parseAnswer(schema, await raw(method, path, form), method, path);
    },
    async sendVoid(method, path, form) {
      await raw(method, path, form);
    },
    async sendChanged(method, path, schema, form) {
      const response = await raw(method, path, form);
      if (response.status === 304) return { changed: false };
      return { changed: true, value: parseAnswer(schema, response, method, path) };
    },
    async text(path, query) {
      const response = await transport.request({ method: 'GET', path, token, query, responseType: 'text' });
      return response.body;
    },
    async stream(path, query) {
      const response = await transport.request({ method: 'GET', path, token, query, responseType: 'stream' });
      return { headers: response.headers, stream: response.body };
    },
    raw,
  };
}
