import { type Context, type Failure, fail, withSuggestion } from './failure.js';
import type { Entry, Noun } from './nouns.js';
import type { ParseResult } from './result.js';
import type { Command } from './spec/index.js';
import type { FlagSpec } from './spec-types.js';
import { candidates, closest } from './suggest.js';
import { echo, normalizeWord } from './text.js';
import type { Token, WordMention } from './tokenize.js';
import { commandWords, flagSynopsis, flagWord, type ProblemContext } from './usage.js';
import { exampleValue, isListType, parseBoolean, parseValue } from './values.js';

// The words after a command's noun and verb: flags (typed, defaulted, checked) apart from positionals.

export type GivenFlag = { flag: FlagSpec; words: string[]; typed: string; mentions: WordMention[] };

/** A word that can only be meant as a verb: letters and dashes, no digits, slashes or reference sigils. */
export const VERB_LIKE = /^[A-Za-z][A-Za-z_-]*$/;
export const SHARE_FLAG: FlagSpec = { name: 'share', type: 'bool', summary: 'post the answer in the channel' };
/** Only these words after a switch are read as its value; `--share 1` must not eat a job id. */
const SWITCH_VALUE = /^(true|false|yes|no|on|off)$/i;
const FLAG_START = /^(?:--|[\u2013\u2014]-?)/;

export function isFlag(token: Token): boolean {
  return !token.quoted && FLAG_START.test(token.text) && (token.text.startsWith('--') || token.text.length > 1);
}

/** `--order_by=x` → name `order_by`, inline `x`. An em dash (Slack's autocorrect of `--`) counts as `--`. */
export function splitFlag(text: string): { name: string; inline: string | undefined } {
  const body = text.replace(FLAG_START, '');
  const eq = body.indexOf('=');
  return eq === -1 ? { name: body, inline: undefined } : { name: body.slice(0, eq), inline: body.slice(eq + 1) };
}

export type Words = {
  given: Map<string, GivenFlag>;
  positionals: Token[];
  share: boolean;
  /** Plain words right after a switch that usually takes a value (`--active 2`), by the flag as typed. */
  afterSwitch: Map<Token, { flag: FlagSpec; typed: string }>;
};

/**
 * Separate flags from positionals. Whether a flag takes the next word depends on its type, so this reads the flags
 * of every entry still possible (they agree on switch vs value; a test checks). `--help` anywhere is help.
 */
export function readWords(rest: Token[], choices: Entry[], noun: Noun, slash: string): Words | ParseResult {
  const known = new Map<string, FlagSpec>();
  for (const choice of choices) {
    for (const flag of choice.flags as readonly FlagSpec[]) {
      known.set(normalizeWord(flag.name), flag);
      for (const alias of flag.aliases ?? []) known.set(normalizeWord(alias), flag);
    }
  }
  const lone = choices.length === 1 ? choices[0] : undefined;
  const where: ProblemContext = lone ? { entry: lone, slash } : { noun, slash };
  const words: Words = { given: new Map(), positionals: [], share: false, afterSwitch: new Map() };
  let endOfFlags = false;
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i] as Token;
    if (endOfFlags || !isFlag(token)) {
      words.positionals.push(token);
      continue;
    }
    const { name, inline } = splitFlag(token.text);
    if (name === '' && inline === undefined) {
      endOfFlags = true;
      continue;
    }
    const typed = `--${name}`;
    const normalized = normalizeWord(name);
    if (normalized === 'help') return { ok: true, command: helpCommand(noun.name) };
    const flag = normalized === 'share' ? SHARE_FLAG : known.get(normalized);
    if (flag === undefined) {
      const suggestion = closest(typed, candidates([...[...known.values()].map(flagWord), '--share']));
      const subject = lone ? `\`${slash} ${commandWords(lone)}\`` : `\`${slash} ${noun.name}\``;
      return fail(`${echo(typed)} is not a flag of ${subject}.`, withSuggestion(where, suggestion));
    }
    let word: string;
    const mentions = [...(token.mentions ?? [])];
    const after = rest[i + 1];
    if (inline !== undefined) {
      word = inline;
    } else if (flag.type === 'bool') {
      const plainNext = after !== undefined && !isFlag(after);
      // A switch that usually takes a value reads a plain word as one, so `--active maybe` is a bad value.
      const takesNext =
        plainNext &&
        ((!after.quoted && SWITCH_VALUE.test(after.text)) || (flag.explicit === true && VERB_LIKE.test(after.text)));
      word = takesNext ? after.text : 'true';
      if (takesNext) i++;
      else if (plainNext && flag.explicit) words.afterSwitch.set(after, { flag, typed });
    } else {
      if (after === undefined || isFlag(after)) {
        return fail(`${echo(typed)} needs a value, e.g. \`${flagWord(flag)} ${exampleValue(flag)}\`.`, where);
      }
      word = after.text;
      mentions.push(...(after.mentions ?? []));
      i++;
    }
    if (flag === SHARE_FLAG) {
      const value = parseBoolean(word);
      if (value === undefined) return fail('`--share` is a switch: `--share` or `--share=false`.', where);
      words.share = value;
      continue;
    }
    const prior = words.given.get(flag.name);
    if (prior === undefined) {
      words.given.set(flag.name, { flag, words: [word], typed, mentions });
      continue;
    }
    if (!isListType(flag.type)) return fail(`${echo(typed)} is given twice: give it once.`, where);
    prior.words.push(word);
    prior.mentions.push(...mentions);
  }
  return words;
}

/** Typed flag values, with defaults filled in and required flags checked. */
export function readFlags(
  entry: Entry,
  given: Map<string, GivenFlag>,
  context: Context,
): { ok: true; flags: Record<string, unknown> } | Failure {
  const at: ProblemContext = { entry, slash: context.slash };
  const flags: Record<string, unknown> = {};
  for (const { flag, typed } of given.values()) {
    if (!(entry.flags as readonly FlagSpec[]).includes(flag)) {
      const suggestion = closest(typed, candidates((entry.flags as readonly FlagSpec[]).map(flagWord)));
      const problem = `${echo(typed)} does not go with \`${context.slash} ${commandWords(entry)}\`.`;
      return fail(problem, withSuggestion(at, suggestion));
    }
  }
  for (const { flag, words, typed, mentions } of given.values()) {
    const text = isListType(flag.type) ? words.join(',') : (words[0] ?? '');
    const parsed = parseValue(flag, text, context.serverUrl, mentions);
    if (!parsed.ok) {
      const hint = parsed.suggestion ? '' : `, e.g. \`${flagWord(flag)} ${exampleValue(flag)}\``;
      const shown = echo(`${typed} ${text}`.trim());
      return fail(`${shown} ${parsed.problem}${hint}.`, withSuggestion(at, parsed.suggestion));
    }
    flags[flag.name] = parsed.value;
  }
  for (const flag of entry.flags as readonly FlagSpec[]) {
    if (flag.required && !given.has(flag.name)) return fail(`Missing \`${flagSynopsis(flag)}\`.`, at);
    if (flag.default !== undefined && !given.has(flag.name)) flags[flag.name] = flag.default;
  }
  return { ok: true, flags };
}

/** `/gl help [topic]` as a command: `--help` anywhere asks for it too. */
export function helpCommand(topic: string | undefined): Command {
  return {
    key: 'help',
    target: { kind: 'none' },
    args: topic === undefined ? {} : { topic },
    flags: {},
    share: false,
    needsToken: false,
  };
}
