/** Zero-width characters Slack clients sometimes leave in pasted text; they would split or glue words invisibly. */
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;
/** A Slack escape (`<…>`) or one of the three entities, read in one pass so `&amp;lt;` stays `&lt;`. */
const SLACK_ESCAPE = /<([^<>]*)>|&(amp|lt|gt);/g;
const ENTITY_VALUE: Record<string, string> = { amp: '&', lt: '<', gt: '>' };
const USER_MENTION = /^@([UW][A-Z0-9]+)(?:\||$)/;

/** A Slack mention of a person, where its `@name` stands in the unescaped text (`start` inclusive, `end` not). */
export type SlackMention = { start: number; end: number; userId: string };

export type SlackText = { text: string; mentions: SlackMention[] };

/**
 * Undo Slack's escaping so words read as the person typed them: `<https://…|label>` → the URL, `<#C1|name>` →
 * `#name`, `<@U1|name>` → `@name`, `<!here>` → `@here`, then `&amp;` `&lt;` `&gt;`. A `<` without its `>` is left as
 * typed. The user id of each person mentioned is kept beside the text, for the flags that take a person.
 */
export function readSlackText(input: string): SlackText {
  const source = input.replace(ZERO_WIDTH, '');
  const mentions: SlackMention[] = [];
  let text = '';
  let from = 0;
  for (const match of source.matchAll(SLACK_ESCAPE)) {
    text += source.slice(from, match.index);
    from = match.index + match[0].length;
    const [, inner, entity] = match;
    if (entity !== undefined) {
      text += ENTITY_VALUE[entity] ?? '';
      continue;
    }
    const shown = decodeEntities(unwrap(inner ?? ''));
    const userId = USER_MENTION.exec(inner ?? '')?.[1];
    if (userId !== undefined) mentions.push({ start: text.length, end: text.length + shown.length, userId });
    text += shown;
  }
  return { text: text + source.slice(from), mentions };
}

/** `readSlackText` without the mentions. */
export function unescapeSlack(text: string): string {
  return readSlackText(text).text;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (_whole, name: string) => ENTITY_VALUE[name] ?? '');
}

function unwrap(inner: string): string {
  const bar = inner.indexOf('|');
  const link = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? '' : inner.slice(bar + 1);
  if (/^https?:\/\//i.test(link)) return link;
  if (link.startsWith('#')) return `#${label || link.slice(1)}`;
  if (link.startsWith('@')) return `@${label.replace(/^@/, '') || link.slice(1)}`;
  if (link.startsWith('!')) {
    const special = link.slice(1).split('^')[0] ?? '';
    if (special === 'date') return label;
    if (label) return label.startsWith('@') ? label : `@${label}`;
    return `@${special}`;
  }
  if (/^mailto:/i.test(link)) return label || link.slice('mailto:'.length);
  return label || link;
}

/** Slack mrkdwn needs `&`, `<` and `>` escaped, or `<!channel>` in an echoed word would ping a channel. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (c) => MRKDWN_ENTITY[c] ?? c);
}

const MRKDWN_ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** A word the person typed, safe to show inside backticks: short, one line, no backtick of its own. */
export function echo(word: string, max = 40): string {
  const flat = word.replace(/[\r\n\t]+/g, ' ').replace(/`/g, "'");
  const short = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return `\`${short}\``;
}

/** Verbs, nouns, flags and enum values compare case-insensitively, with `-` and `_` (and none) interchangeable. */
export function normalizeWord(word: string): string {
  return word.toLowerCase().replace(/[-_]/g, '');
}

export function kebabCase(camel: string): string {
  return camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
