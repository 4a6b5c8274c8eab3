// Slack's mrkdwn drawn as Slack draws it (links, mentions, dates, emoji shortcodes, code, bold, italic, strike,
// quotes), built as DOM nodes. Every piece of text goes in through a text node: nothing in a message — GitLab data,
// what a person typed — can become markup, whatever it holds.

/** Shortcode → emoji, the table the terminal console uses too (GET /api/emoji). */
let emojiTable = {};

export function setEmoji(table) {
  emojiTable = table;
}

const unescapeSlack = (t) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

/** Shortcodes in plain text (a plain_text object with `emoji: true`), as text. */
export function plainEmoji(text) {
  return text.replace(/:([a-z0-9_+'-]+):/g, (m, name) => emojiTable[name] ?? m);
}

const SAFE_LINK = /^(https?:|mailto:)/i;

const DATE_STYLE = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/** A date as Slack shows it: in the zone of whoever reads it (this browser's), its fallback on hover. */
function slackDate(target, fallback) {
  const epoch = Number(target.split('^')[1]);
  if (!Number.isFinite(epoch)) return document.createTextNode(fallback);
  const span = el('span', 'date', new Date(epoch * 1000).toLocaleString('en-GB', DATE_STYLE));
  span.title = fallback;
  return span;
}

/** What Slack shows for `<…>`: a link, a mention of a person or channel, a date's fallback, or the text itself. */
function special(inner, ctx) {
  const bar = inner.indexOf('|');
  const target = bar >= 0 ? inner.slice(0, bar) : inner;
  const label = bar >= 0 ? inner.slice(bar + 1) : null;
  if (/^@[UW][A-Z0-9]+$/.test(target)) {
    const id = target.slice(1);
    return el('span', 'mention', `@${label ?? ctx.userName(id) ?? id}`);
  }
  if (/^#[CGD][A-Z0-9]+$/.test(target)) {
    const id = target.slice(1);
    return el('span', 'mention', `#${label ?? ctx.channelName(id) ?? id}`);
  }
  if (/^!(here|channel|everyone)$/.test(target)) return el('span', 'mention broadcast', `@${target.slice(1)}`);
  if (target.startsWith('!subteam^')) return el('span', 'mention', unescapeSlack(label ?? target));
  if (target.startsWith('!date^')) return slackDate(target, unescapeSlack(label ?? ''));
  const url = unescapeSlack(target);
  if (SAFE_LINK.test(url)) {
    const a = el('a', 'link', unescapeSlack(label ?? url));
    a.href = url;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    return a;
  }
  return document.createTextNode(unescapeSlack(`<${inner}>`));
}

// Code spans, <…>, :shortcodes:, and *bold*, _italic_, ~strike~ that start and end at word edges, as Slack reads them.
const TOKEN =
  /`([^`\n]+)`|<([^<>\n]+)>|:([a-z0-9_+'-]+):|(?<![\w*])\*(?!\s)([^*\n]+?)\*(?![\w*])|(?<![\w_])_(?!\s)([^_\n]+?)_(?![\w_])|(?<![\w~])~(?!\s)([^~\n]+?)~(?![\w~])/g;

function inline(text, parent, ctx) {
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m.index > last) parent.append(unescapeSlack(text.slice(last, m.index)));
    last = m.index + m[0].length;
    const [whole, code, angle, shortcode, bold, italic, strike] = m;
    if (code !== undefined) parent.append(el('code', 'code', unescapeSlack(code)));
    else if (angle !== undefined) parent.append(special(angle, ctx));
    else if (shortcode !== undefined) {
      const glyph = emojiTable[shortcode];
      parent.append(glyph ? el('span', 'emoji', glyph) : unescapeSlack(whole));
      if (glyph) parent.lastChild.title = `:${shortcode}:`;
    } else {
      const tag = bold !== undefined ? 'b' : italic !== undefined ? 'i' : 's';
      const node = el(tag);
      inline(bold ?? italic ?? strike, node, ctx);
      parent.append(node);
    }
  }
  if (last < text.length) parent.append(unescapeSlack(text.slice(last)));
}

/** Lines, with runs of `>` lines as a quote. */
function lines(text, parent, ctx) {
  const all = text.split('\n');
  let quote = null;
  all.forEach((line, i) => {
    const q = /^(?:&gt;|>)\s?(.*)$/.exec(line);
    if (q) {
      if (!quote) {
        quote = el('blockquote', 'quote');
        parent.append(quote);
      } else quote.append(el('br'));
      inline(q[1], quote, ctx);
      return;
    }
    quote = null;
    inline(line, parent, ctx);
    if (i < all.length - 1 && !/^(?:&gt;|>)/.test(all[i + 1] ?? '')) parent.append(el('br'));
  });
}

/** mrkdwn → a fragment of DOM nodes. `ctx` names people and channels by id. */
export function mrkdwn(text, ctx) {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const m of text.matchAll(/```([\s\S]*?)```/g)) {
    if (m.index > last) lines(text.slice(last, m.index), out, ctx);
    out.append(el('pre', 'code-block', unescapeSlack(m[1].replace(/^\n/, ''))));
    last = m.index + m[0].length;
  }
  if (last < text.length) lines(text.slice(last), out, ctx);
  return out;
}

/** A text object of Block Kit: mrkdwn drawn, plain_text as text (its shortcodes as emoji). */
export function textObject(t, ctx) {
  if (!t) return document.createDocumentFragment();
  if (typeof t === 'string') return mrkdwn(t, ctx);
  if (t.type === 'mrkdwn') return mrkdwn(t.text ?? '', ctx);
  return document.createTextNode(t.emoji === false ? (t.text ?? '') : plainEmoji(t.text ?? ''));
}
