import type { HelpText, UsageError } from '../grammar/index.js';
import { context, header, message, type SlackMessage, section } from './blocks.js';
import { Md } from './mrkdwn.js';

// Help and usage texts come from the grammar, already written as escaped mrkdwn.

export function buildHelpMessage(help: HelpText): SlackMessage {
  return message(help.title, [
    header(help.title),
    ...help.sections.slice(0, 45).map((s) => section(Md.trusted(s))),
    context(['Add `--share` to a read to post the answer in the channel.'].map((t) => Md.trusted(t))),
  ]);
}

export function buildUsageMessage(error: UsageError): SlackMessage {
  const first = error.message.split('\n')[0] ?? 'That command was not understood.';
  return message(Md.trusted(first), [section(Md.trusted(error.message))]);
}
