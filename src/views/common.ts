import type { Button } from '@slack/types';
import type { z } from 'zod';
import { LinkButtons, NoopButtons } from '../buttons/common.js';
import { actionIdFor, type ButtonDef } from '../ids.js';
import {
  actions,
  type Block,
  button,
  type Confirmation,
  message,
  plain,
  type SlackMessage,
  section,
} from './blocks.js';
import { formatUpcoming, formatWhen } from './format.js';
import { LIMITS, truncate } from './limits.js';
import { italic, md, type Text } from './mrkdwn.js';
import type { Notice } from './notice.js';

// What cards share: the context they are drawn in, link buttons, relative times and the typed
// confirmation prompt.

export interface CardContext {
  serverUrl: string;
  now: Date;
  /** The viewer's IANA time zone: every absolute time on a card is drawn in it. */
  timeZone: string;
  notice?: Notice | undefined;
  /** The server username of the person the card is drawn for, when known (to leave out what they cannot do). */
  viewer?: string | null;
}

/** A button that only opens a URL (Slack still sends an action, which the bot acknowledges and ignores). */
export function linkButton(text: string, url: string, slot?: string | number): Button {
  return {
    type: 'button',
    text: plain(text, LIMITS.buttonText),
    action_id: actionIdFor(LinkButtons.open, slot),
    url: truncate(url, LIMITS.url),
  };
}

export function openButton(url: string | null, text = 'Open in GitLab'): Button[] {
  return url ? [linkButton(text, url, 'open')] : [];
}

/** What a time on a card is drawn against: the injected now and the viewer's zone (UTC, said so, when unknown). */
export interface TimeContext {
  now: Date;
  timeZone?: string | undefined;
}

/**
 * A time from the server in the house style, "3 Mar 2026, 14:02 · 2 months ago", in the viewer's zone; given
 * only `now` (no zone known), the absolute half is in UTC and says so.
 */
export function when(iso: string | null | undefined, at: Date | TimeContext): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return at instanceof Date ? formatWhen(d, at) : formatWhen(d, at.now, at.timeZone);
}

/** A planned time (a next run) as `when` draws it, but never "just now" for a time still ahead. */
export function whenNext(at: Date, c: TimeContext): string {
  return formatUpcoming(at, c.now, c.timeZone);
}

/** A typed command that cannot be undone first asks, with the button a card would carry and the same words. */
export function buildConfirmPrompt<D extends ButtonDef>(
  c: Confirmation,
  def: D,
  value: z.input<D['schema']>,
): SlackMessage {
  const blocks: Block[] = [
    section(md`:warning: ${c.question}`),
    actions([
      button({ text: c.yes, def, value, style: 'danger' }),
      button({ text: 'Never mind', def: NoopButtons.dismiss, value: {} }),
    ]),
  ];
  return message(c.question, blocks);
}

/** How much of a description a card shows: enough to recognise it, the rest is one click away. */
const DESCRIPTION_SHOWN = 500;

/** A description as cards show it: on one line, trimmed, in italics; none when it is empty. */
export function descriptionBlock(description: string | null | undefined): Block | null {
  const text = description?.trim();
  return text ? section(italic(truncate(text.replace(/\s*\n\s*/g, ' '), DESCRIPTION_SHOWN))) : null;
}

/** ":speech_balloon: 3 comments", when the server counts them. */
export function commentCount(count: number | null | undefined): Text | null {
  if (typeof count !== 'number' || count < 0) return null;
  return md`:speech_balloon: ${count} ${count === 1 ? 'comment' : 'comments'}`;
}
