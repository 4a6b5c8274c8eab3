import { describe, expect, it } from 'vitest';
import { listAll, type Page, parseLinkHeader, toPage } from '../../../src/gitlab/paginate.js';

const pageOf = (items: number[], page: number, nextPage: number | null): Page<number> => ({
  items,
  page,
  perPage: items.length,
  nextPage,
  prevPage: page > 1 ? page - 1 : null,
  total: null,
  totalPages: null,
});

describe('toPage', () => {
  it('reads every pagination header', () => {
    const page = toPage([1, 2], {
      'x-page': '2',
      'x-per-page': '20',
      'x-next-page': '3',
      'x-prev-page': '1',
      'x-total': '57',
      'x-total-pages': '3',
    });
    expect(page).toEqual({ items: [1, 2], page: 2, perPage: 20, nextPage: 3, prevPage: 1, total: 57, totalPages: 3 });
  });

  it('treats empty headers (the last page) and absent X-Total as null', () => {
    const page = toPage([], { 'x-page': '3', 'x-next-page': '', 'x-prev-page': '2' });
    expect(page).toMatchObject({ nextPage: null, total: null, totalPages: null });
  });

  it('takes an empty X-Next-Page or X-Prev-Page as "none" without reading the Link header', () => {
    const link = '<http://h/api/v4/projects/1/issues?page=2&per_page=2>; rel="next"';
    const page = toPage([1], { 'x-page': '1', 'x-next-page': '', 'x-prev-page': ' ', link });
    expect(page).toMatchObject({ nextPage: null, prevPage: null });
  });

  it('falls back on the Link header when X-Next-Page is absent', () => {
    const link =
      '<http://h/api/v4/projects/1/issues?page=1&per_page=2>; rel="prev", ' +
      '<http://h/api/v4/projects/1/issues?page=3&per_page=2>; rel="next", ' +
      '<http://h/api/v4/projects/1/issues?page=1&per_page=2>; rel="first"';
    const page = toPage([1], { link });
    expect(page.nextPage).toBe(3);
    expect(page.prevPage).toBe(1);
  });

  it('reads a relation named in capitals, and none that the Link header does not name', () => {
    const link =
      '<http://h/api/v4/projects/1/jobs?page=1>; REL="PREV", <http://h/api/v4/projects/1/jobs?page=9>; rel=last';
    expect(toPage([1], { link, 'x-next-page': '' })).toMatchObject({ nextPage: null, prevPage: 1 });
  });
});

describe('parseLinkHeader', () => {
  it('maps rel names to URLs', () => {
    expect(parseLinkHeader('<https://x/a?page=2>; rel="next", <https://x/a?page=9>; rel=last')).toEqual({
      next: 'https://x/a?page=2',
      last: 'https://x/a?page=9',
    });
  });

  it('ignores garbage', () => {
    expect(parseLinkHeader('nonsense')).toEqual({});
    expect(parseLinkHeader(undefined)).toEqual({});
  });
});

describe('listAll', () => {
  const pages = new Map([
    [1, pageOf([1, 2], 1, 2)],
    [2, pageOf([3, 4], 2, 3)],
    [3, pageOf([5], 3, null)],
  ]);
  const fetchPage = async (page: number) => pages.get(page)!;

  it('follows next pages to the end', async () => {
    await expect(listAll(fetchPage)).resolves.toEqual({ items: [1, 2, 3, 4, 5], truncated: false, pagesFetched: 3 });
  });

  it('stops at maxPages and says the list was cut', async () => {
    await expect(listAll(fetchPage, { maxPages: 2 })).resolves.toEqual({
      items: [1, 2, 3, 4],
      truncated: true,
      pagesFetched: 2,
    });
  });

  it('stops at maxItems and cuts the items to it', async () => {
    await expect(listAll(fetchPage, { maxItems: 3 })).resolves.toEqual({
      items: [1, 2, 3],
      truncated: true,
      pagesFetched: 2,
    });
  });

  it('is not truncated when the cap is met exactly on the last page', async () => {
    await expect(listAll(fetchPage, { maxItems: 5 })).resolves.toMatchObject({ truncated: false });
  });

  it('does not loop when a server points back at a page already read', async () => {
    const looping = async (page: number) => pageOf([page], page, 1);
    await expect(listAll(looping)).resolves.toEqual({ items: [1], truncated: false, pagesFetched: 1 });
  });
});
