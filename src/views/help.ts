import type { HelpText, UsageError } from '../grammar/index.js';
import { header, message, type SlackMessage, section } from './blocks.js';
import { Md } from './mrkdwn.js';

// Help and usage texts come from the grammar, already written as escaped mrkdwn.

export function buildHelpMessage(help: HelpText): SlackMessage {
  return message(help.title, [
    header(help.title),
    // The grammar's help says what `--share` does where it applies (the overview, a noun with reads).
    ...help.sections.slice(0, 45).map((s) => section(Md.trusted(s))),
  ]);
}

export function buildUsageMessage(error: UsageError): SlackMessage {
  const first = error.message.split('\n')[0] ?? 'That command was not understood.';
  return message(Md.trusted(first), [section(Md.trusted(error.message))]);
}
