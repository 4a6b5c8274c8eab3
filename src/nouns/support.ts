import type { OpenedFrom } from '../ids.js';
import type { RequestContext } from '../operations/context.js';
import type { CardContext } from '../views/common.js';
import type { ListPlace } from '../views/lists.js';
import type { Notice } from '../views/notice.js';
import type { ButtonContext, Platform } from './types.js';

/** What a card is drawn with: the server, the time, and optionally a notice, the viewer's zone and username. */
export async function cardContext(
  ctx: RequestContext,
  s: Platform,
  o: { notice?: Notice | undefined; timeZone?: string; withViewer?: boolean } = {},
): Promise<CardContext> {
  const viewer = o.withViewer ? ((await ctx.session.connection())?.username ?? null) : null;
  return { serverUrl: s.serverUrl, now: ctx.now, timeZone: o.timeZone ?? 'UTC', notice: o.notice, viewer };
}

/** The list a row button sits in, when its value carries one. */
export function placeOf(v: { q?: string | undefined; n?: number | undefined }): ListPlace | null {
  return v.q ? { query: v.q, page: v.n ?? 1 } : null;
}

/** A project key carried by a button, as the grammar would have read it. */
export function refOf(key: string | number) {
  return typeof key === 'number' ? ({ kind: 'id', id: key } as const) : ({ kind: 'path', path: key } as const);
}

/** Where a modal opened by a click was opened from, for its answer to go back there (a message, or the Home tab). */
export function openedFrom(ctx: ButtonContext): OpenedFrom {
  return {
    message: ctx.message,
    responseUrl: ctx.responseUrl ?? null,
    at: ctx.now,
    ...(ctx.surface === 'home' ? { home: true } : {}),
  };
}
