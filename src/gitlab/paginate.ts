import { parseLinkHeader as parseLinks } from 'got';

/** One page of a list answer, with what the pagination headers said (null where a header was absent or empty). */
export interface Page<T> {
  items: T[];
  page: number | null;
  perPage: number | null;
  nextPage: number | null;
  prevPage: number | null;
  /** Only a hint: real servers drop X-Total (and X-Total-Pages) above 10,000 rows. */
  total: number | null;
  totalPages: number | null;
}

export interface PageOptions {
  page?: number;
  per_page?: number;
}

export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function positiveInt(value: string | undefined): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) ? n : null;
}

/** `<url>; rel="next", <url>; rel="last"` → { next: url, last: url }, read with got's parser. */
export function parseLinkHeader(value: string | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  if (!value) return links;
  let parsed: ReturnType<typeof parseLinks>;
  try {
    parsed = parseLinks(value);
  } catch {
    return links; // a Link header got cannot read names no page; X-Next-Page and X-Prev-Page still may
  }
  for (const { reference, parameters } of parsed) {
    const relKey = Object.keys(parameters).find((name) => name.toLowerCase() === 'rel');
    const rel = relKey ? parameters[relKey]?.replace(/^"|"$/g, '').trim() : '';
    if (!rel) continue;
    for (const name of rel.split(/\s+/)) links[name.toLowerCase()] = reference;
  }
  return links;
}

function pageOfLink(url: string | undefined): number | null {
  if (!url) return null;
  try {
    return positiveInt(new URL(url, 'http://placeholder.invalid').searchParams.get('page') ?? undefined);
  } catch {
    return null;
  }
}

/** Reads X-Page, X-Per-Page, X-Next-Page, X-Prev-Page, X-Total, X-Total-Pages, falling back on `Link` for next/prev. */
export function toPage<T>(items: T[], headers: HeaderBag): Page<T> {
  // The Link header is read only when an X- header does not say (GitLab sends both on every list answer). An empty
  // X-Next-Page or X-Prev-Page says there is none (the first or last page, most list answers): nothing to look up.
  let links: Record<string, string> | undefined;
  const neighbour = (name: string, rel: 'next' | 'prev') => {
    const value = header(headers, name);
    if (value !== undefined && value.trim() === '') return null;
    const page = positiveInt(value);
    if (page !== null) return page;
    links ??= parseLinkHeader(header(headers, 'link'));
    return pageOfLink(links[rel]);
  };
  return {
    items,
    page: positiveInt(header(headers, 'x-page')),
    perPage: positiveInt(header(headers, 'x-per-page')),
    nextPage: neighbour('x-next-page', 'next'),
    prevPage: neighbour('x-prev-page', 'prev'),
    total: positiveInt(header(headers, 'x-total')),
    totalPages: positiveInt(header(headers, 'x-total-pages')),
  };
}

export interface ListAllOptions {
  /** Stop after this many pages (default 10). */
  maxPages?: number;
  /** Stop once this many items were collected (default 1000); the result is cut to it. */
  maxItems?: number;
  /** First page to fetch (default 1). */
  startPage?: number;
}

export interface ListAllResult<T> {
  items: T[];
  /** True when a cap stopped the walk while the server still had more. */
  truncated: boolean;
  pagesFetched: number;
}

/**
 * Walks a list by `nextPage` (X-Next-Page, or Link rel="next") until the server says there is no
 * next page or a cap is reached. Never looks at X-Total.
 */
export async function listAll<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  options: ListAllOptions = {},
): Promise<ListAllResult<T>> {
  const maxPages = options.maxPages ?? 10;
  const maxItems = options.maxItems ?? 1000;
  const items: T[] = [];
  let page: number | null = options.startPage ?? 1;
  let pagesFetched = 0;
  while (page !== null) {
    if (pagesFetched >= maxPages || items.length >= maxItems) return { items, truncated: true, pagesFetched };
    const current: Page<T> = await fetchPage(page);
    pagesFetched += 1;
    items.push(...current.items);
    if (items.length > maxItems) return { items: items.slice(0, maxItems), truncated: true, pagesFetched };
    // A next page that does not move forward would loop for ever.
    page = current.nextPage !== null && current.nextPage > page ? current.nextPage : null;
  }
  return { items, truncated: false, pagesFetched };
}
