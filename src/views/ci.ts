import type { Button } from '@slack/types';
import type { Job, PipelineBasic, PipelineSchedule } from '../gitlab/schemas.js';
import { type ProjectKey, projectLabel } from '../operations/projects.js';

export { type ProjectKey, projectLabel };

import { type Block, button, context, linkButton } from './blocks.js';
import { formatRelative } from './format.js';
import { esc, link, mention } from './mrkdwn.js';
import { DONE_BY } from './status.js';

// What CI cards and lists share: web links, the "Retried by @name" line, list paging.

export interface CardContext {
  serverUrl: string;
  now: Date;
  /** The viewer's IANA time zone, for times that people plan around (schedules). */
  timeZone: string;
  notice?: Notice;
}

/** Who just did what to the resource on the card. */
export interface Notice {
  action: keyof typeof DONE_BY | string;
  actorId: string;
  detail?: string;
  /** On a list: the resource as it is now, shown under the line (a retried job is a new, pending one). */
  subject?:
    | { kind: 'job'; job: Job }
    | { kind: 'pipeline'; pipeline: PipelineBasic }
    | { kind: 'schedule'; schedule: PipelineSchedule };
}

/**
 * Rows of one list message: one section each, which with the header, filters, notice and paging
 * keeps a list inside Slack's 50 blocks. Lists ask the server for pages no longer than this, so
 * that no row of a page is left out.
 */
export const LIST_ROWS = 40;

/** Where a list came from, so its rows and its Next page button can redraw it. */
export interface ListContext {
  query: string;
  page: number;
}

/** The project's web address, when the project is known by path (numeric ids have none without a lookup). */
export function projectUrl(serverUrl: string, project: ProjectKey): string | null {
  return typeof project === 'string' ? `${serverUrl}/${project.split('/').map(encodeURIComponent).join('/')}` : null;
}

export function webUrl(serverUrl: string, project: ProjectKey, suffix: string): string | null {
  const base = projectUrl(serverUrl, project);
  return base ? `${base}/${suffix}` : null;
}

export function linked(url: string | null | undefined, label: string): string {
  return url ? link(url, label) : esc(label);
}

export function noticeBlock(n: Notice | undefined): Block[] {
  if (!n) return [];
  const verb = DONE_BY[n.action] ?? n.action;
  return [
    context([`:arrows_counterclockwise: ${verb} by ${mention(n.actorId)}${n.detail ? ` · ${esc(n.detail)}` : ''}`]),
  ];
}

export function when(iso: string | null | undefined, now: Date): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  // Something the server made a moment ago may carry a time a little ahead of the bot's clock.
  return Math.abs(d.getTime() - now.getTime()) < 60_000 ? 'just now' : formatRelative(d, now);
}

export function openButton(url: string | null, text = 'Open in GitLab'): Button[] {
  return url ? [linkButton(text, url, 'open')] : [];
}

/** Page footer: where we are, and a Next page button that carries the next page number. */
export function pagingBlocks(
  list: ListContext | null,
  page: { page: number | null; nextPage: number | null; total: number | null; shown: number },
): Block[] {
  const where = `Page ${page.page ?? list?.page ?? 1}${page.total !== null ? ` · ${page.total} in all` : ''} · ${page.shown} shown`;
  const blocks: Block[] = [context([where])];
  if (list && page.nextPage) {
    blocks.push({
      type: 'actions',
      elements: [button({ text: 'Next page', name: 'list.page', value: { q: list.query, n: page.nextPage } })],
    });
  }
  return blocks;
}
