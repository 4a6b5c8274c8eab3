import type { SlackMention } from './text.js';

/** A Slack mention inside a word: the `@name` it reads as, and the person's Slack user id. */
export type WordMention = { text: string; userId: string };

export type Token = {
  text: string;
  /** It began with a quote: never a flag, a verb, a project or a noun, always plain text. */
  quoted: boolean;
  /** The Slack mentions within this word, when there are any. */
  mentions?: WordMention[];
};

export type TokenizeResult = { ok: true; tokens: Token[] } | { ok: false; unclosed: string };

/** Each opening quote and the characters that may close it (phones and Slack turn `"` into “…” or „…“). */
const CLOSERS: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '“': '”“',
  '”': '”',
  '„': '“”',
  '‘': '’',
  '’': '’',
  '«': '»',
};

/** A cheap test before the table lookup: every opening quote is one of these code units. */
function isQuoteCode(code: number): boolean {
  return code === 0x22 || code === 0x27 || code === 0xab || (code >= 0x2018 && code <= 0x201e);
}

function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

function closingIndex(text: string, from: number, closers: string): number {
  let best = -1;
  for (const closer of closers) {
    const at = text.indexOf(closer, from);
    if (at !== -1 && (best === -1 || at < best)) best = at;
  }
  return best;
}

/**
 * Split on whitespace, keeping quoted stretches whole. A quote opens only at the start of a word or right after
 * `--flag=`, so apostrophes inside words (`don't`, `it’s`) stay plain characters. Each word gets the `mentions`
 * (positions in `input`) that lie within it.
 */
export function tokenize(input: string, mentions: readonly SlackMention[] = []): TokenizeResult {
  const tokens: Token[] = [];
  const length = input.length;
  let i = 0;
  while (i < length) {
    while (i < length && isSpace(input.charCodeAt(i))) i++;
    if (i >= length) break;
    const start = i;
    let text = '';
    let quoted = false;
    let plainFrom = i;
    while (i < length && !isSpace(input.charCodeAt(i))) {
      const code = input.charCodeAt(i);
      const closers = isQuoteCode(code) ? CLOSERS[input.charAt(i)] : undefined;
      if (closers !== undefined) {
        const before = text + input.slice(plainFrom, i);
        if (before === '' || (before.startsWith('--') && before.endsWith('='))) {
          const end = closingIndex(input, i + 1, closers);
          if (end === -1) return { ok: false, unclosed: input.slice(i) };
          if (before === '') quoted = true;
          text = before + input.slice(i + 1, end);
          i = end + 1;
          plainFrom = i;
          continue;
        }
      }
      i++;
    }
    const token: Token = { text: text + input.slice(plainFrom, i), quoted };
    const within = mentions.filter((m) => m.start >= start && m.end <= i);
    if (within.length > 0)
      token.mentions = within.map((m) => ({ text: input.slice(m.start, m.end), userId: m.userId }));
    tokens.push(token);
  }
  return { ok: true, tokens };
}
