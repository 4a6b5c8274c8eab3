import type { Page } from '../gitlab/paginate.js';

// Reads a list that the server serves newest first, page after page, until it reaches back to a moment or a cap of
// pages. Pages after the first are asked a few at a time: the first page says how many there are (when the server
// says), and a batch stops the reading as soon as one of its pages goes back far enough.

export interface ReadBack<T> {
  items: T[];
  /** Pages asked for. */
  pages: number;
  /** The cap was reached while the list still went on, newer than `since`: what was read stops short of it. */
  capped: boolean;
}

export async function readBack<T>(o: {
  page(n: number): Promise<Page<T>>;
  /** When an item happened (epoch ms); the list is newest first by this, or close to it. */
  timeOf(item: T): number;
  since: number;
  maxPages: number;
  /** Pages asked at once after the first. */
  parallel: number;
}): Promise<ReadBack<T>> {
  const first = await o.page(1);
  const items = [...first.items];
  let pages = 1;
  const reachedBack = (p: Page<T>) => p.items.length === 0 || p.items.some((i) => o.timeOf(i) < o.since);
  let more = !reachedBack(first) && first.nextPage !== null;
  let next = 2;
  while (more && next <= o.maxPages) {
    const last = Math.min(o.maxPages, first.totalPages ?? Number.POSITIVE_INFINITY, next + o.parallel - 1);
    if (last < next) break;
    const batch = await Promise.all(Array.from({ length: last - next + 1 }, (_, k) => o.page(next + k)));
    pages += batch.length;
    for (const p of batch) items.push(...p.items);
    more = !batch.some(reachedBack) && (batch.at(-1) as Page<T>).nextPage !== null;
    next = last + 1;
  }
  return { items, pages, capped: more && next > o.maxPages };
}
