// GitLab's offset pagination: page/per_page (default 20, at most 100) and the
// X-* and Link headers it answers with.

import type { RequestContext, SimResponse } from './context.js';
import { int, type Params } from './params.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

function linkFor(ctx: RequestContext, page: number, perPage: number): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(ctx.query as Params)) {
    if (key === 'page' || key === 'per_page') continue;
    if (Array.isArray(value)) for (const v of value) search.append(`${key}[]`, String(v));
    else if (value !== undefined && value !== null) search.append(key, String(value));
  }
  search.set('page', String(page));
  search.set('per_page', String(perPage));
  return `${ctx.baseUrl}${ctx.path}?${search.toString()}`;
}

/** One page of `items` (already filtered and sorted), presented, with the pagination headers. */
export function paginate<T>(ctx: RequestContext, items: readonly T[], present: (item: T) => unknown): SimResponse {
  const askedPer = int(ctx.params, 'per_page');
  const perPage =
    ctx.pageSize ?? (askedPer === undefined || askedPer < 1 ? DEFAULT_PER_PAGE : Math.min(askedPer, MAX_PER_PAGE));
  const askedPage = int(ctx.params, 'page');
  const page = askedPage === undefined || askedPage < 1 ? 1 : askedPage;
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const links = [];
  if (page > 1) links.push(`<${linkFor(ctx, Math.min(page - 1, totalPages), perPage)}>; rel="prev"`);
  if (page < totalPages) links.push(`<${linkFor(ctx, page + 1, perPage)}>; rel="next"`);
  links.push(`<${linkFor(ctx, 1, perPage)}>; rel="first"`);
  links.push(`<${linkFor(ctx, totalPages, perPage)}>; rel="last"`);
  return {
    status: 200,
    body: slice.map(present),
    headers: {
      'X-Page': String(page),
      'X-Per-Page': String(perPage),
      'X-Total': String(total),
      'X-Total-Pages': String(totalPages),
      'X-Next-Page': page < totalPages ? String(page + 1) : '',
      'X-Prev-Page': page > 1 ? String(page - 1) : '',
      Link: links.join(', '),
    },
  };
}
