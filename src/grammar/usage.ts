import { allNouns, type Entry, entriesOf, type Noun, nounByCanonicalName, shortcutWord } from './nouns.js';
import type { FlagSpec } from './spec-types.js';
import { escapeMrkdwn, kebabCase } from './text.js';
import type { UsageError } from './types.js';

export const DEFAULT_SLASH_COMMAND = '/gl';

const PAGING_FLAGS = new Set(['page', 'perPage']);

/** How a person types the noun (and verb) of an entry: `jobs`, `job retry`, `awards`, `unaward`. */
export function commandWords(entry: Entry): string {
  const shortcut = shortcutWord(entry);
  if (shortcut) return shortcut;
  const noun = nounByCanonicalName(entry.noun);
  const defaults = noun.defaults;
  const plural = noun.plural;
  if (entry.verb === null) return noun.name;
  if (defaults === undefined) return `${noun.name} ${entry.verb}`;
  if (entry.key === defaults.plural && (entry.verb === 'list' || entry.key !== defaults.singular)) {
    return plural ?? noun.name;
  }
  if (entry.key === defaults.singular || entry.key === defaults.singularTarget) {
    return noun.name;
  }
  return `${entry.form === 'plural' && plural ? plural : noun.name} ${entry.verb}`;
}

export function flagWord(flag: FlagSpec): string {
  return `--${kebabCase(flag.name)}`;
}

function valuePlaceholder(flag: FlagSpec): string {
  if (flag.placeholder) return flag.placeholder;
  const values = flag.type === 'enum' || flag.type === 'enum-list' ? flag.values.join('|') : '';
  if (flag.type === 'enum' && values.length <= 30) return values;
  if (flag.type === 'enum-list') return `<${kebabCase(flag.name)},…>`;
  return `<${kebabCase(flag.name)}>`;
}

/** `--scope failed,manual`, `--full` or `--active true|false`: the flag as typed, with a placeholder for its value. */
export function flagSynopsis(flag: FlagSpec): string {
  if (flag.type === 'bool') return flag.explicit ? `${flagWord(flag)} true|false` : flagWord(flag);
  return `${flagWord(flag)} ${valuePlaceholder(flag)}`;
}

export function targetSynopsis(entry: Entry): string {
  switch (entry.target) {
    case 'none':
      return '';
    case 'project':
      return entry.projectRequired ? '<project>' : '[<project>]';
    case 'issue':
    case 'merge_request':
    case 'awardable':
      return '<ref>';
    default:
      return '[<project>] <id>';
  }
}

/** One line of usage, e.g. `/gl job trace [<project>] <id> [--lines <n>] [--full]`. */
export function synopsis(entry: Entry, slash: string, withFlags: boolean): string {
  const parts = [slash, commandWords(entry), targetSynopsis(entry)];
  for (const arg of entry.args) parts.push(arg.optional ? `[${arg.placeholder}]` : arg.placeholder);
  const flags: readonly FlagSpec[] = entry.flags;
  if (withFlags) {
    for (const flag of flags) {
      if (PAGING_FLAGS.has(flag.name)) continue;
      parts.push(flag.required ? flagSynopsis(flag) : `[${flagSynopsis(flag)}]`);
    }
    if (flags.some((f) => PAGING_FLAGS.has(f.name))) parts.push('[--page <n>] [--per-page <n>]');
    if (entry.shareable) parts.push('[--share]');
  } else {
    for (const flag of flags) if (flag.required) parts.push(flagSynopsis(flag));
    if (flags.some((f) => !f.required)) parts.push('[flags]');
  }
  return parts.filter((p) => p !== '').join(' ');
}

export function example(entry: Entry, slash: string): string {
  return `${slash} ${entry.example}`;
}

/** Usage text depends only on the table and the slash command, so each block is built once. */
const usageCache = new Map<string, string>();
function cached(key: string, build: () => string): string {
  let text = usageCache.get(key);
  if (text === undefined) {
    text = build();
    if (usageCache.size < 1000) usageCache.set(key, text);
  }
  return text;
}

/** Every form of a noun, one line each: what an unknown verb or a confused target gets. */
export function nounUsage(noun: Noun, slash: string): string {
  return cached(`noun ${noun.name} ${slash}`, () => {
    const lines = entriesOf(noun).map((e) => `\`${synopsis(e, slash, false)}\` — ${e.summary}`);
    return `*Usage:*\n${lines.join('\n')}\n\`${slash} help ${noun.name}\` shows every flag with examples.`;
  });
}

/** One form in full: what a bad flag, a missing argument or a bad value gets. */
export function entryUsage(entry: Entry, slash: string): string {
  return cached(
    `entry ${entry.key} ${slash}`,
    () =>
      `*Usage:* \`${synopsis(entry, slash, true)}\`\ne.g. \`${example(entry, slash)}\` · \`${slash} help ${entry.noun}\` for more`,
  );
}

/** The list of nouns, for a first word that is nothing like any of them. */
export function nounsLine(slash: string): string {
  return cached(`nouns ${slash}`, () => {
    const words = allNouns().map((n) => n.plural ?? n.name);
    return `I know: ${words.map((w) => `\`${w}\``).join(', ')}. Try \`${slash} help\`.`;
  });
}

export type ProblemContext = { noun?: Noun; entry?: Entry; suggestion?: string; slash: string };

/** Compose the whole mrkdwn message: what is wrong, "did you mean", then the nearest usage. */
export function usageError(problem: string, context: ProblemContext): UsageError {
  const lines = [problem];
  if (context.suggestion) lines[0] = `${problem} Did you mean \`${context.suggestion}\`?`;
  if (context.entry) lines.push(entryUsage(context.entry, context.slash));
  else if (context.noun) lines.push(nounUsage(context.noun, context.slash));
  else lines.push(nounsLine(context.slash));
  const error: UsageError = { message: escapeMrkdwn(lines.join('\n')) };
  const nounName = context.entry?.noun ?? context.noun?.name;
  if (nounName) error.noun = nounName;
  if (context.suggestion) error.suggestion = context.suggestion;
  return error;
}
