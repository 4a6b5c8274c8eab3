import type { ButtonName, ButtonValue } from '../ids.js';
import { actions, button, message, type SlackMessage, section } from './blocks.js';

/** A typed command that cannot be undone first asks, with the same button a card would carry. */
export function buildConfirmPrompt<N extends ButtonName>(o: {
  question: string;
  yes: string;
  name: N;
  value: ButtonValue<N>;
}): SlackMessage {
  return message(o.question, [
    section(`:warning: ${o.question}`),
    actions([
      button({ text: o.yes, name: o.name, value: o.value, style: 'danger' }),
      button({ text: 'Never mind', name: 'noop.dismiss', value: {} }),
    ]),
  ]);
}
