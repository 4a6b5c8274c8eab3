// Slack's markup in a message people wrote (`<@U1>`, `<#C1|name>`, `<https://x|label>`, `<!here>`, &amp;), turned
// back into the plain text a person would read, for places that are not Slack (an issue's title and description).

/** How a mentioned person is written: their id as Slack sends it, and the name the mention itself carried, if any. */
export type WriteMention = (userId: string, given: string | null) => string;

const ENTITY = /&(amp|lt|gt);/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>' };

/** Slack escapes only &, < and > in message text. */
export function unescapeSlack(text: string): string {
  return text.replace(ENTITY, (_, e: string) => ENTITIES[e] as string);
}

/** The people a text mentions (`<@U1>`, `<@W1|alice>`), each once, in order. */
export function mentionedUsers(text: string): string[] {
  return [...new Set([...text.matchAll(/<@([UW][A-Z0-9]+)(?:\|[^<>]*)?>/g)].map((m) => m[1] as string))];
}

/** A link as a URL a person can follow anywhere: the URL alone when its label says the same, else "label (url)". */
function linkText(url: string, label: string | null): string {
  const address = url.startsWith('mailto:') ? url.slice('mailto:'.length) : url;
  if (!label) return address;
  const bare = (u: string) => u.replace(/^[a-z][a-z0-9+.-]*:(\/\/)?/i, '').replace(/\/$/, '');
  return label === address || bare(label) === bare(address) ? address : `${label} (${address})`;
}

/** One `<…>` entity of Slack markup as plain text. */
function entityText(inner: string, writeMention: WriteMention): string {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? null : unescapeSlack(inner.slice(bar + 1));
  if (target.startsWith('@')) return writeMention(target.slice(1), label);
  if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
  if (target.startsWith('!')) {
    // <!here>, <!channel>, <!subteam^S1|@team>, <!date^…|fallback>: what Slack shows when it cannot format it.
    if (label) return label.startsWith('@') || target.startsWith('!date') ? label : `@${label}`;
    const word = target.slice(1).split('^')[0] ?? '';
    return `@${word}`;
  }
  return linkText(unescapeSlack(target), label);
}

/** A message's text with Slack's markup as plain text: mentions as @names, links as URLs, entities unescaped. */
export function slackMarkupToPlain(text: string, writeMention: WriteMention): string {
  let out = '';
  let at = 0;
  for (const entity of text.matchAll(/<([^<>\n]*)>/g)) {
    out += unescapeSlack(text.slice(at, entity.index));
    out += entityText(entity[1] ?? '', writeMention);
    at = entity.index + entity[0].length;
  }
  return out + unescapeSlack(text.slice(at));
}
