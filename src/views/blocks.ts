import type {
  ActionsBlock,
  Button,
  ConfirmationDialog,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  KnownBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock,
} from '@slack/types';
import { actionIdFor, type ButtonName, type ButtonValue, encodeButtonValue } from '../ids.js';
import { LIMITS, truncate } from './limits.js';

// Small, limit-aware Block Kit builders: every text is cut to what Slack accepts, so a
// long job name or issue title can never make Slack refuse a whole message.

export type Block = KnownBlock;

/** A message as views return it: fallback text for notifications plus blocks. */
export interface SlackMessage {
  text: string;
  blocks?: Block[];
}

export const plain = (text: string, max: number = LIMITS.sectionText): PlainTextElement => ({
  type: 'plain_text',
  text: truncate(text, max),
  emoji: true,
});

export const mrkdwn = (text: string, max: number = LIMITS.sectionText): MrkdwnElement => ({
  type: 'mrkdwn',
  text: truncate(text, max),
});

export function header(text: string): HeaderBlock {
  return { type: 'header', text: plain(text, LIMITS.headerText) };
}

export function section(text: string, accessory?: Button): SectionBlock {
  const block: SectionBlock = { type: 'section', text: mrkdwn(text.length > 0 ? text : ' ') };
  if (accessory) block.accessory = accessory;
  return block;
}

/** A section of two-column fields (at most 10). */
export function fields(items: string[]): SectionBlock {
  return {
    type: 'section',
    fields: items.slice(0, LIMITS.fields).map((t) => mrkdwn(t.length > 0 ? t : ' ', LIMITS.fieldText)),
  };
}

export function context(items: string[]): ContextBlock {
  return {
    type: 'context',
    elements: items.slice(0, LIMITS.contextElements).map((t) => mrkdwn(t.length > 0 ? t : ' ', LIMITS.contextText)),
  };
}

export function divider(): DividerBlock {
  return { type: 'divider' };
}

export function actions(buttons: Button[], blockId?: string): ActionsBlock {
  const block: ActionsBlock = { type: 'actions', elements: buttons.slice(0, LIMITS.actionsElements) };
  if (blockId) block.block_id = blockId;
  return block;
}

export interface ConfirmSpec {
  title: string;
  text: string;
  confirm: string;
  deny?: string;
}

export function confirmDialog(spec: ConfirmSpec): ConfirmationDialog {
  return {
    title: plain(spec.title, LIMITS.confirmTitle),
    text: mrkdwn(spec.text, LIMITS.confirmText),
    confirm: plain(spec.confirm, LIMITS.confirmButton),
    deny: plain(spec.deny ?? 'Never mind', LIMITS.confirmButton),
    style: 'danger',
  };
}

export interface ButtonSpec<N extends ButtonName> {
  text: string;
  name: N;
  value: ButtonValue<N>;
  style?: 'primary' | 'danger';
  confirm?: ConfirmSpec;
  /** Tells apart two buttons of the same kind in one actions block. */
  slot?: string | number;
}

export function button<N extends ButtonName>(spec: ButtonSpec<N>): Button {
  const b: Button = {
    type: 'button',
    text: plain(spec.text, LIMITS.buttonText),
    action_id: actionIdFor(spec.name, spec.slot),
    value: encodeButtonValue(spec.name, spec.value),
  };
  if (spec.style) b.style = spec.style;
  if (spec.confirm) b.confirm = confirmDialog(spec.confirm);
  return b;
}

/** A button that only opens a URL (Slack still sends an action, which the bot acknowledges and ignores). */
export function linkButton(text: string, url: string, slot?: string | number): Button {
  return {
    type: 'button',
    text: plain(text, LIMITS.buttonText),
    action_id: actionIdFor('link.open', slot),
    url: truncate(url, LIMITS.url),
  };
}

/** Fallback text and blocks; the text is what notifications and screen readers show. */
export function message(text: string, blocks?: Block[]): SlackMessage {
  return blocks ? { text: truncate(text, 3000), blocks } : { text: truncate(text, 3000) };
}
