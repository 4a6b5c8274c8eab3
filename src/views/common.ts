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
import { drawUpcoming, drawWhen, type Readers } from './format.js';
import { LIMITS, truncate } from './limits.js';
import { esc, italic, type Md, md, type Text } from './mrkdwn.js';
import type { Notice } from './notice.js';

// What cards share: the context they are drawn in, link buttons, relative times and the typed
// confirmation prompt.

export interface CardContext {
  serverUrl: string;
  now: Date;
  /** The viewer's IANA time zone: every absolute time on a card for one person is drawn in it. */
  timeZone: string;
  /**
   * The card is read by many (posted in a channel, or redrawn there by anyone's click): its times are Slack's date
   * markup, drawn in each reader's zone, the same text whoever drew it.
   */
  shared?: boolean | undefined;
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

/** What a time on a card is drawn against: the injected now and who reads it (format.ts, `Readers`). */
export type TimeContext = Readers;

/**
 * A time from the server in the house style, "3 Mar 2026, 14:02 · 2 months ago", for its readers (format.ts): in
 * the one reader's zone, or Slack's date markup on a shared message; given only `now`, in UTC and said so.
 */
export function when(iso: string | null | undefined, at: Date | TimeContext): Md {
  if (!iso) return esc('—');
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return esc('—');
  return drawWhen(d, at instanceof Date ? { now: at } : at);
}

/** A planned time (a next run) as `when` draws it, but never "just now" for a time still ahead. */
export function whenNext(at: Date, c: TimeContext): Md {
  return drawUpcoming(at, c);
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
