import type { Button } from '@slack/types';
import type { z } from 'zod';
import { ListButtons } from '../buttons/common.js';
import type { ButtonDef } from '../ids.js';
import { actions, type Block, button, context, header, message, type SlackMessage, section } from './blocks.js';
import type { Text } from './mrkdwn.js';
import { type Notice, noticeBlocks } from './notice.js';

// Every list message has the same frame: a title, the filters, a notice after a row action, one
// section per row and a footer with the page and a Next page button. A list can redraw itself: its
// command text travels in its buttons and is parsed again on a click, so the filters stay.

/**
 * Rows of one list message: one section each, which with the frame keeps a list inside Slack's 50
 * blocks. Lists ask the server for pages no longer than this, so that no row of a page is left out.
 */
export const LIST_ROWS = 40;

/** Longer command texts are not carried in buttons (Slack limits a value to 2000 characters). */
const MAX_QUERY = 1200;

/** Where a list came from, so its rows and its Next page button can redraw it. */
export interface ListPlace {
  query: string;
  page: number;
}

/** The place of a list typed as `text`, or null when the text is too long to travel with its buttons. */
export function listPlaceOf(text: string, page: number | undefined): ListPlace | null {
  const query = text.replace(/\s+--page(?:=|\s+)\d+/gi, '').trim();
  return query.length > 0 && query.length <= MAX_QUERY ? { query, page: page ?? 1 } : null;
}

/** The page size to ask for: what the person asked, but never more rows than a message shows. */
export function pageSize(perPage: number | undefined): number | undefined {
  return perPage ? Math.min(perPage, LIST_ROWS) : undefined;
}

export interface PageInfo {
  page: number | null;
  nextPage: number | null;
  total: number | null;
}

export interface ListSpec<T> {
  title: string;
  filters?: Text;
  notice?: Notice | undefined;
  /** Said when the page is empty. */
  empty: Text;
  items: readonly T[];
  row(item: T, slot: number): Block;
  page: PageInfo;
  place: ListPlace | null;
  /** Blocks after the rows and before the footer (e.g. a Mark all done button). */
  footer?: Block[];
  /** What identifies a row: a notice's row of an item the page itself shows is not drawn a second time. */
  key?(item: T): string | number;
}

/** Flags as a person typed them, for the "Filters:" line (paging left out). */
export function describeFilters(flags: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(flags)) {
    if (v === undefined || v === false || k === 'page' || k === 'perPage') continue;
    const name = k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const shown = Array.isArray(v) ? v.map(describeValue).join(',') : describeValue(v);
    parts.push(v === true ? `--${name}` : `--${name} ${shown}`);
  }
  return parts.length ? `Filters: ${parts.join(' ')}` : '';
}

function describeValue(v: unknown): string {
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.path === 'string') return o.path;
    if (typeof o.username === 'string') return o.username;
    if (typeof o.id === 'number') return String(o.id);
    if (typeof o.text === 'string') return o.text;
  }
  return String(v);
}

/** The block that says a list page is empty: a list command shared into a channel is answered privately then. */
const EMPTY_BLOCK_ID = 'list-empty';

/** Whether a message is a list page without rows. */
export function isEmptyList(m: SlackMessage): boolean {
  return m.blocks?.some((b) => b.block_id === EMPTY_BLOCK_ID) ?? false;
}

export function buildList<T>(input: ListSpec<T>): SlackMessage {
  const rows = input.items.slice(0, LIST_ROWS);
  // The item just acted on is drawn once: in its place on the page when the fresh read has it there; when it is
  // not there (a retried job's new attempt is not among the failed ones), the list gives way to that item alone,
  // with a way back to the list: never the item on top of a page whose rows and counts leave it out.
  if (input.notice?.row && input.notice.rowKey !== undefined && input.key && !onPage(input, rows)) {
    return actedOnAlone(input.title, input.notice, input.place);
  }
  const spec = onPage(input, rows) ? { ...input, notice: withoutRow(input.notice) } : input;
  const blocks: Block[] = [header(spec.title)];
  // An empty page's sentence names the filters itself: a line of them above it would say them twice.
  if (spec.filters && (rows.length > 0 || spec.notice?.row)) blocks.push(context([spec.filters]));
  blocks.push(...noticeBlocks(spec.notice));
  // Under the row just acted on, "No jobs match" would read as if it were about that row.
  if (rows.length === 0) {
    const empty = spec.notice?.row ? context(['Nothing else is in the list now.']) : section(spec.empty);
    blocks.push({ ...empty, block_id: EMPTY_BLOCK_ID });
  }
  rows.forEach((item, i) => {
    blocks.push(spec.row(item, i));
  });
  if (spec.footer) blocks.push(...spec.footer);
  blocks.push(...pagingBlocks(spec.place, spec.page, rows.length));
  return message(`${spec.title}: ${rows.length} shown`, blocks);
}

/** The acted-on item as it is now, in place of a list page that does not show it, and a button back to that page. */
function actedOnAlone(title: string, notice: Notice, place: ListPlace | null): SlackMessage {
  const back = place
    ? [actions([button({ text: 'Back to the list', def: ListButtons.page, value: { q: place.query, n: place.page } })])]
    : [];
  const where = context([`Not on page ${place?.page ?? 1} of this list now.`]);
  return message(`${title}: the item acted on, not on this page now`, [
    header(title),
    ...noticeBlocks(notice),
    where,
    ...back,
  ]);
}

function onPage<T>(spec: ListSpec<T>, rows: readonly T[]): boolean {
  const key = spec.notice?.rowKey;
  return key !== undefined && spec.key !== undefined && rows.some((item) => spec.key?.(item) === key);
}

function withoutRow(n: Notice | undefined): Notice | undefined {
  if (!n) return n;
  const { row: _row, rowKey: _key, ...rest } = n;
  return rest as Notice;
}

function pagingBlocks(place: ListPlace | null, page: PageInfo, shown: number): Block[] {
  const where = [
    `Page ${currentPage(page, place)}`,
    ...(page.total !== null ? [`${page.total} in all`] : []),
    `${shown} shown`,
  ].join(' · ');
  const blocks: Block[] = [context([where])];
  const turns = place ? pageTurns(page, place, (n) => ({ def: ListButtons.page, value: { q: place.query, n } })) : [];
  if (turns.length > 0) blocks.push(actions(turns));
  return blocks;
}

/** The page a list shows: what the server said, else what its buttons asked for. */
export function currentPage(page: PageInfo, place: ListPlace | null): number {
  return page.page ?? place?.page ?? 1;
}

/**
 * Previous page (after page one) and Next page (when the server has one), each drawn by `to` with the button
 * that turns to page n of this list.
 */
export function pageTurns<D extends ButtonDef>(
  page: PageInfo,
  place: ListPlace,
  to: (n: number) => { def: D; value: z.input<D['schema']> },
): Button[] {
  const at = currentPage(page, place);
  const out: Button[] = [];
  if (at > 1) out.push(button({ text: 'Previous page', ...to(at - 1), slot: 'previous' }));
  if (page.nextPage) out.push(button({ text: 'Next page', ...to(page.nextPage) }));
  return out;
}

/** An empty list asked for with `--share`, answered to the person alone with why. */
export function withEmptyShareNote(m: SlackMessage): SlackMessage {
  const note = context([':information_source: Nothing was posted in the channel: there is nothing to share.']);
  return { ...m, blocks: [...(m.blocks ?? []), note] };
}
