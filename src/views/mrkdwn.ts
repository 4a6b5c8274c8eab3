// Slack reads `text` and mrkdwn fields as markup: `<!channel>` notifies everyone, `<https://x|y>` is a
// link. Anything from the server or a person is data, so every builder escapes plain strings, and only
// `Md` values — made here, from escaped parts — are sent as markup. Escaping is by construction: a view
// cannot place a server string in a message without it being escaped.

/** Slack mrkdwn that is safe to send as it is. */
export class Md {
  private constructor(readonly text: string) {}

  /** Markup the bot wrote itself (or the grammar produced, already escaped). Never for server data. */
  static trusted(text: string): Md {
    return new Md(text);
  }

  toString(): string {
    return this.text;
  }
}

/** Text for a mrkdwn place: a plain string (data, escaped when placed) or markup. */
export type Text = string | Md;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const NEEDS_ESCAPE = /[&<>]/;

/** Slack needs only &, < and > escaped. Most texts hold none of them, and then the text is its own escape. */
export function escapeText(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(/[&<>]/g, (c) => ENTITIES[c] as string) : text;
}

/** The mrkdwn for a text: markup as it is, data escaped. */
export function toMrkdwn(text: Text): string {
  return text instanceof Md ? text.text : escapeText(text);
}

export function esc(text: string): Md {
  return Md.trusted(escapeText(text));
}

type Part = Text | number | null | undefined | false;

/** A template whose literal parts are markup and whose values are escaped unless they are `Md`. */
export function md(literals: TemplateStringsArray, ...values: Part[]): Md {
  let out = literals[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && v !== undefined && v !== false) out += typeof v === 'number' ? String(v) : toMrkdwn(v);
    out += literals[i + 1] ?? '';
  }
  return Md.trusted(out);
}

/** Joins texts with a markup separator. */
export function joinMd(parts: readonly Text[], separator = ''): Md {
  return Md.trusted(parts.map(toMrkdwn).join(separator));
}

/** A URL that cannot break out of the <…|…> syntax of a link. */
export function linkUrl(url: string): string {
  return /[<>|\s]/.test(url) ? url.replace(/[<>|\s]/g, encodeURIComponent) : url;
}

/** A link whose label is escaped and whose URL cannot break out of the <…|…> syntax. */
export function link(url: string, label: Text): Md {
  const text = toMrkdwn(label);
  return Md.trusted(`<${linkUrl(url)}|${text.includes('|') ? text.replace(/\|/g, '¦') : text}>`);
}

/** A link when there is a URL, else the label alone. */
export function linked(url: string | null | undefined, label: Text): Md {
  return url ? link(url, label) : Md.trusted(toMrkdwn(label));
}

export function mention(slackUserId: string): Md {
  return /^[UW][A-Z0-9]+$/.test(slackUserId) ? Md.trusted(`<@${slackUserId}>`) : esc(slackUserId);
}

/** A channel as Slack shows it to each reader (`#name`); anything that is not a channel id stays text. */
export function channelMention(channelId: string): Md {
  return /^[CGD][A-Z0-9]+$/.test(channelId) ? Md.trusted(`<#${channelId}>`) : esc(channelId);
}

export function code(text: string): Md {
  return Md.trusted(`\`${codeText(text)}\``);
}

/** The inside of a `code` span: escaped, and a backtick (which would end it) made a quote. */
export function codeText(text: string): string {
  const escaped = escapeText(text);
  return escaped.includes('`') ? escaped.replace(/`/g, "'") : escaped;
}

export function bold(text: Text): Md {
  return Md.trusted(`*${toMrkdwn(text)}*`);
}

export function italic(text: Text): Md {
  return Md.trusted(`_${toMrkdwn(text)}_`);
}

/**
 * Text for a plain_text place (headers, buttons, modal titles, file titles): Slack does not read markup
 * there, but a title may be reused as notification text, so anything that could start an entity (`<!…>`,
 * `<@…>`, `<#…>`, `<https://…|…>`) is broken up with a zero-width space, without turning it into entities a
 * person would see.
 */
export function plainText(text: string): string {
  return text.includes('<') ? text.replace(/<(?=[!@#A-Za-z])/g, '<\u200b') : text;
}
