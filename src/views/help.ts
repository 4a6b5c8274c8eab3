import type { HelpText, UsageError } from '../grammar/index.js';
import { context, header, message, type SlackMessage, section } from './blocks.js';

export function buildHelpMessage(help: HelpText): SlackMessage {
  return message(help.title, [
    header(help.title),
    ...help.sections.slice(0, 45).map((s) => section(s)),
    context(['Add `--share` to a read to post the answer in the channel.']),
  ]);
}

export function buildUsageMessage(error: UsageError): SlackMessage {
  return message(error.message.split('\n')[0] ?? 'That command was not understood.', [section(error.message)]);
}
