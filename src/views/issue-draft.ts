import { DESCRIPTION_MAX } from './issue-form.js';
import { slackMarkupToPlain, type WriteMention } from './slack-markup.js';

// A new issue drafted from a Slack message: the title from its first line, the description from its whole text
// (Slack markup as plain text), the names of its files, and a link back to the message. Everything fits the form's
// fields; a message too long for them is cut, never the link.

/** Long enough for a sentence, short enough to read in a list of issues. */
export const DRAFT_TITLE_MAX = 100;
/** Files beyond these are counted, not named. */
const FILES_NAMED = 20;
const FILE_NAME_MAX = 80;
const CUT_NOTE = '… (cut here: the whole message is in Slack)';

export interface MessageForIssue {
  /** The message's text as Slack sends it (markup and all). */
  text: string;
  files: readonly { name: string }[];
  /** The message's permalink (chat.getPermalink), when Slack gave one. */
  permalink: string | null;
}

export interface IssueDraft {
  title: string;
  description: string;
  /** The message was longer than the description can hold. */
  cut: boolean;
}

/** `text` cut to at most `max` characters, at a space when there is one in its last part, ending with `tail`. */
export function cutAtWord(text: string, max: number, tail = '…'): string {
  if (text.length <= max) return text;
  const room = max - tail.length;
  const head = text.slice(0, room);
  const space = head.search(/\s\S*$/);
  return `${(space > room / 2 ? head.slice(0, space) : head).trimEnd()}${tail}`;
}

function filesPart(files: MessageForIssue['files']): string {
  if (files.length === 0) return '';
  const named = files
    .slice(0, FILES_NAMED)
    .map((file) => `- ${cutAtWord(file.name.replace(/\s+/g, ' '), FILE_NAME_MAX)}`);
  const more = files.length > FILES_NAMED ? [`- and ${files.length - FILES_NAMED} more`] : [];
  return ['Files attached to the message in Slack:', ...named, ...more].join('\n');
}

export function draftIssue(message: MessageForIssue, writeMention: WriteMention): IssueDraft {
  const body = slackMarkupToPlain(message.text, writeMention).trim();
  const firstLine =
    body
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ??
    message.files[0]?.name.trim() ??
    '';
  const title = cutAtWord(firstLine.replace(/\s+/g, ' '), DRAFT_TITLE_MAX);
  const tail = [filesPart(message.files), message.permalink ? `From Slack: ${message.permalink}` : '']
    .filter(Boolean)
    .join('\n\n');
  const separator = body && tail ? '\n\n' : '';
  const room = DESCRIPTION_MAX - tail.length - separator.length;
  const cut = body.length > room;
  const kept = cut ? cutAtWord(body, Math.max(room, CUT_NOTE.length), CUT_NOTE) : body;
  return { title, description: `${kept}${separator}${tail}`.slice(0, DESCRIPTION_MAX), cut };
}
