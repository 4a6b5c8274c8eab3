import type {
  ActionsBlock,
  Button,
  ConfirmationDialog,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock,
} from '@slack/types';
import { actionIdFor, type ButtonDef, encodeButtonValue } from '../ids.js';
import type { Block, SlackMessage } from '../slack-message.js';
import { LIMITS, truncate } from './limits.js';
import { plainText, type Text, toMrkdwn } from './mrkdwn.js';

// Small, limit-aware Block Kit builders: every text is cut to what Slack accepts, so a long job
// name or issue title can never make Slack refuse a whole message, and every text from the server
// is escaped on the way in (see mrkdwn.ts).

export type { Block, SlackMessage };

export const plain = (text: string, max: number = LIMITS.sectionText): PlainTextElement => ({
  type: 'plain_text',
  text: truncate(plainText(text), max),
  emoji: true,
});

export const mrkdwn = (text: Text, max: number = LIMITS.sectionText): MrkdwnElement => ({
  type: 'mrkdwn',
  text: cut(toMrkdwn(text), max),
});

/** Slack refuses an empty mrkdwn text: a blank place gets one space. The text is escaped once. */
const filled = (text: Text, max: number): MrkdwnElement => {
  const escaped = toMrkdwn(text);
  return { type: 'mrkdwn', text: escaped.length === 0 ? ' ' : cut(escaped, max) };
};

/** Cuts markup without leaving half an entity or half a link behind. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = text.slice(0, Math.max(0, max - 1));
  out = out.replace(/&[a-z]{0,4}$/, '');
  const open = out.lastIndexOf('<');
  if (open > out.lastIndexOf('>')) out = out.slice(0, open);
  return `${out}…`;
}

export function header(text: string): HeaderBlock {
  return { type: 'header', text: plain(text, LIMITS.headerText) };
}

export function section(text: Text, accessory?: Button): SectionBlock {
  const filledText = filled(text, LIMITS.sectionText);
  return accessory ? { type: 'section', text: filledText, accessory } : { type: 'section', text: filledText };
}

/** The first `max` items, each made into an element: one array, not a cut copy and then a mapped one. */
function elementsOf(items: readonly Text[], max: number, textMax: number): MrkdwnElement[] {
  const out = new Array<MrkdwnElement>(Math.min(items.length, max));
  for (let i = 0; i < out.length; i++) out[i] = filled(items[i] as Text, textMax);
  return out;
}

/** A section of two-column fields (at most 10). */
export function fields(items: Text[]): SectionBlock {
  return { type: 'section', fields: elementsOf(items, LIMITS.fields, LIMITS.fieldText) };
}

export function context(items: Text[]): ContextBlock {
  return { type: 'context', elements: elementsOf(items, LIMITS.contextElements, LIMITS.contextText) };
}

export function divider(): DividerBlock {
  return { type: 'divider' };
}

export function actions(buttons: Button[], blockId?: string): ActionsBlock {
  const block: ActionsBlock = { type: 'actions', elements: buttons.slice(0, LIMITS.actionsElements) };
  if (blockId) block.block_id = blockId;
  return block;
}

/** What a person is asked before an action that cannot be undone; one text for dialogs and typed prompts. */
export interface Confirmation {
  /** Dialog title, e.g. "Erase this job?". */
  title: string;
  /** The question, e.g. "Erase job #8 (rspec) in demo/web? Its trace and artifacts are deleted for good." */
  question: Text;
  /** The dialog's confirm button, e.g. "Erase". */
  confirm: string;
  /** The typed prompt's button, e.g. "Yes, erase job #8". */
  yes: string;
  deny?: string;
}

export function confirmDialog(c: Confirmation): ConfirmationDialog {
  return {
    title: plain(c.title, LIMITS.confirmTitle),
    text: mrkdwn(c.question, LIMITS.confirmText),
    confirm: plain(c.confirm, LIMITS.confirmButton),
    deny: plain(c.deny ?? 'Never mind', LIMITS.confirmButton),
    style: 'danger',
  };
}

export interface ButtonSpec<D extends ButtonDef> {
  text: string;
  def: D;
  value: Parameters<typeof encodeButtonValue<D>>[1];
  style?: 'primary' | 'danger';
  confirm?: Confirmation;
  /** Tells apart two buttons of the same kind in one actions block. */
  slot?: string | number;
}

export function button<D extends ButtonDef>(spec: ButtonSpec<D>): Button {
  return encodedButton(spec, encodeButtonValue(spec.def, spec.value));
}

/** A button whose value is already encoded, exactly as `encodeButtonValue` writes it (see `rowValues` in lists). */
export function encodedButton(spec: Omit<ButtonSpec<ButtonDef>, 'value'>, value: string): Button {
  const text = plain(spec.text, LIMITS.buttonText);
  const action_id = actionIdFor(spec.def, spec.slot);
  const { style } = spec;
  // Each shape written whole, keys in the same order: a key added after the object is made costs it a second
  // allocation (its property store), on every button of every list.
  if (spec.confirm) {
    const confirm = confirmDialog(spec.confirm);
    return style
      ? { type: 'button', text, action_id, value, style, confirm }
      : { type: 'button', text, action_id, value, confirm };
  }
  return style ? { type: 'button', text, action_id, value, style } : { type: 'button', text, action_id, value };
}

/** Fallback text and blocks; the text is what notifications and screen readers show, so it is escaped too. */
export function message(text: Text, blocks?: Block[]): SlackMessage {
  const t = cut(toMrkdwn(text), LIMITS.fallbackText);
  return blocks ? { text: t, blocks } : { text: t };
}
