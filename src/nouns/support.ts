import { BotError } from '../errors.js';
import { GitlabError } from '../gitlab/errors.js';
import type { CommandKey } from '../grammar/index.js';
import type { OpenedFrom } from '../ids.js';
import type { RequestContext } from '../operations/context.js';
import type { SlackMessage } from '../views/blocks.js';
import type { CardContext } from '../views/common.js';
import type { Readers } from '../views/format.js';
import type { ListPlace } from '../views/lists.js';
import { buildNoticeOnly, type Notice, unreadAfter } from '../views/notice.js';
import type { ButtonContext, Platform } from './types.js';

/**
 * What a card is drawn with: the server, the time, who reads it (the viewer's zone from their Slack profile unless
 * given; a card read by many, `ctx.shared` unless `shared` says otherwise, has its times drawn for every reader) and
 * optionally a notice and their server username.
 */
export async function cardContext(
  ctx: RequestContext,
  platform: Platform,
  options: { notice?: Notice | undefined; timeZone?: string; withViewer?: boolean; shared?: boolean } = {},
): Promise<CardContext> {
  const [viewer, timeZone] = await Promise.all([
    options.withViewer ? ctx.session.connection().then((c) => c?.username ?? null) : null,
    options.timeZone ?? platform.timeZoneOf(ctx.actor.userId),
  ]);
  const shared = options.shared ?? ctx.shared === true;
  return { serverUrl: platform.serverUrl, now: ctx.now, timeZone, shared, notice: options.notice, viewer };
}

/** Who reads the times of an answer that is not a card: the person's zone, or every reader's when it is shared. */
export async function readersOf(ctx: RequestContext, platform: Platform): Promise<Readers> {
  return { now: ctx.now, timeZone: await platform.timeZoneOf(ctx.actor.userId), shared: ctx.shared === true };
}

/** The list a row button sits in, when its value carries one. */
export function placeOf(value: { q?: string | undefined; n?: number | undefined }): ListPlace | null {
  return value.q ? { query: value.q, page: value.n ?? 1 } : null;
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

/** A read that answers, or says in a few words why it did not. */
export type ReadOrWhy<T> = { ok: true; value: T } | { ok: false; why: string };

/**
 * A read whose failure must not become the answer: made after a write (which happened whatever this read meets),
 * its failure is a line under what was done. Only a fault of the bot itself (not of the server) is thrown.
 */
export async function readOrWhy<T>(read: () => Promise<T>): Promise<ReadOrWhy<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (err) {
    const cause = err instanceof BotError && err.cause instanceof GitlabError ? err.cause : err;
    if (cause instanceof GitlabError) return { ok: false, why: failureWords(cause.status) };
    if (err instanceof BotError) return { ok: false, why: 'the bot could not ask the server' };
    throw err;
  }
}

function failureWords(status: number | null): string {
  switch (status) {
    case null:
      return 'the server did not answer';
    case 403:
      return 'the server refused (403)';
    case 404:
      return 'the server did not find it (404)';
    default:
      return `the server answered ${status}`;
  }
}

/** The list a button sat in, drawn again after what the button did; a list that cannot be read is a line under it. */
export async function redrawListAfterWrite({
  platform,
  ctx,
  place,
  options,
}: {
  platform: Platform;
  ctx: RequestContext;
  place: ListPlace;
  options: { expect: CommandKey; notice: Notice };
}): Promise<SlackMessage> {
  const read = await readOrWhy(() => platform.redrawList(place, ctx, options));
  return read.ok ? read.value : buildNoticeOnly(unreadAfter(options.notice, 'The list', read.why));
}
