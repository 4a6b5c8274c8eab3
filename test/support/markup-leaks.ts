import type { FakeRecord } from './fake-slack.js';

// Whether anything the bot sent to Slack carries markup it did not write itself: `<!channel>` (notifies
// everyone), `<https://…|label>` (a disguised link), `<@U…>`, or a bare `<`/`>` that Slack would read as
// the start of one. Every string of every payload is looked at, by what Slack does with it:
//  - mrkdwn (a message's `text`, `mrkdwn` objects, confirm texts): only the bot's own entities may stand,
//    `<@U…>` and `<#C…>` mentions, links to the allowed URLs and the date markup of times on shared cards; any
//    other `<` or `>` must arrive escaped;
//  - plain_text objects, file titles: Slack shows them as they are, but a title may turn into notification
//    text, so nothing in them may start an entity (`<!`, `<@`, `<#`, `<http`);
//  - file names: letters, digits, dots, dashes and underscores only;
//  - values, ids, URLs of buttons and the like: not shown as text, not checked.

export interface LeakCheckOptions {
  /** Links may point here (the server the bot talks to); any other link target is a leak. */
  linkPrefixes: string[];
}

const NOT_TEXT = new Set([
  'action_id',
  'block_id',
  'value',
  'url',
  'image_url',
  'private_metadata',
  'callback_id',
  'trigger_id',
  'channel',
  'channel_id',
  'ts',
  'thread_ts',
  'user',
  'user_id',
  'users',
  'response_type',
  'type',
  'style',
  'id',
  'external_id',
  'content',
  'length',
  'token',
  'view_id',
  'hash',
  'event_type',
  'event_payload',
]);

const ENTITY_IN_PLAIN = /<(?:[!@#]|https?:|mailto:)/i;

function mrkdwnLeaks(text: string, o: LeakCheckOptions): string[] {
  const out: string[] = [];
  const stripped = text.replace(/<([^<>]*)>/g, (whole, inner: string) => {
    if (/^@[UW][A-Z0-9]+$/.test(inner) || /^#[CGD][A-Z0-9]+$/.test(inner)) return '';
    // A time on a shared card: Slack's date markup as views/format.ts writes it, with a fallback of plain words.
    if (/^!date\^\d+\^\{date_short_pretty\} \{time\}\|[^<>|&]*$/.test(inner)) return '';
    const target = inner.split('|')[0] ?? '';
    if (/^https?:\/\//i.test(target)) {
      if (o.linkPrefixes.some((p) => target.startsWith(p))) return '';
      out.push(`a link to ${target}`);
      return '';
    }
    out.push(`the entity ${whole}`);
    return '';
  });
  if (/[<>]/.test(stripped)) out.push('an unescaped < or >');
  return out;
}

/** Every leak in these payloads, as lines that say where and what. */
export function findMarkupLeaks(payloads: { where: string; body: unknown }[], o: LeakCheckOptions): string[] {
  const problems: string[] = [];
  const visit = (value: unknown, where: string, key: string, parent: Record<string, unknown> | null) => {
    if (typeof value === 'string') {
      if (NOT_TEXT.has(key)) return;
      const snippet = value.length > 120 ? `${value.slice(0, 120)}…` : value;
      if (key === 'filename') {
        if (!/^[\w.-]+$/.test(value)) problems.push(`${where}: file name ${JSON.stringify(snippet)}`);
        return;
      }
      const plain = parent?.type === 'plain_text' || key === 'title' || key === 'alt_text';
      if (plain) {
        if (ENTITY_IN_PLAIN.test(value))
          problems.push(`${where}: plain text starts an entity: ${JSON.stringify(snippet)}`);
        return;
      }
      for (const leak of mrkdwnLeaks(value, o)) problems.push(`${where}: ${leak} in ${JSON.stringify(snippet)}`);
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        visit(v, `${where}[${i}]`, key, parent);
      });
      return;
    }
    if (value && typeof value === 'object') {
      const obj = value as Record<string, unknown>;
      for (const [k, v] of Object.entries(obj)) visit(v, `${where}.${k}`, k, obj);
    }
  };
  for (const p of payloads) visit(p.body, p.where, '', null);
  return problems;
}

/**
 * The payloads of fake Slack records (what the bot sent: messages, views such as the Home tab, link unfurls),
 * named by sequence number and method.
 */
export function payloadsOf(records: FakeRecord[]): { where: string; body: unknown }[] {
  return records.map((r) => ({ where: `#${r.seq} ${r.method}`, body: r.body }));
}
