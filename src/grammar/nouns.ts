import { type CommandKey, NOUNS, type NounName, SPEC } from './spec.js';
import type { CommandSpec, NounSpec } from './spec-types.js';
import { normalizeWord } from './text.js';

export type Noun = (typeof NOUNS)[number] & NounSpec;
export type Entry = (typeof SPEC)[number] & CommandSpec;

export type NounHit = {
  noun: Noun;
  form: 'singular' | 'plural';
  /** Set when the word names a verb too (`unaward`). */
  shortcut?: Entry;
};

const ENTRIES: readonly Entry[] = SPEC;
const NOUN_LIST: readonly Noun[] = NOUNS;

const byKey = new Map<string, Entry>(ENTRIES.map((e) => [e.key, e]));
const nounByName = new Map<string, Noun>(NOUN_LIST.map((n) => [n.name, n]));

export function entryByKey(key: CommandKey | string): Entry {
  const entry = byKey.get(key);
  if (!entry) throw new Error(`no spec entry ${key}`);
  return entry;
}

export function nounByCanonicalName(name: NounName | string): Noun {
  const noun = nounByName.get(name);
  if (!noun) throw new Error(`no noun ${name}`);
  return noun;
}

export function allNouns(): readonly Noun[] {
  return NOUN_LIST;
}

export function allEntries(): readonly Entry[] {
  return ENTRIES;
}

export function entriesOf(noun: Noun): Entry[] {
  return ENTRIES.filter((e) => e.noun === noun.name);
}

/** An alias is plural when dropping its final `s` gives another spelling of the same noun (`deploys`). */
function aliasForm(noun: Noun, alias: string): 'singular' | 'plural' {
  const spellings: readonly string[] = [noun.name, ...(noun.aliases ?? [])];
  return alias.endsWith('s') && spellings.includes(alias.slice(0, -1)) ? 'plural' : 'singular';
}

const nounWords = new Map<string, NounHit>();
for (const noun of NOUN_LIST) {
  nounWords.set(normalizeWord(noun.name), { noun, form: 'singular' });
  if (noun.plural) nounWords.set(normalizeWord(noun.plural), { noun, form: 'plural' });
  for (const alias of noun.aliases ?? []) nounWords.set(normalizeWord(alias), { noun, form: aliasForm(noun, alias) });
  for (const [word, key] of Object.entries(noun.shortcuts ?? {})) {
    nounWords.set(normalizeWord(word), { noun, form: 'singular', shortcut: entryByKey(key) });
  }
}

export function lookupNoun(word: string): NounHit | undefined {
  return nounWords.get(normalizeWord(word));
}

/** Every spelling of every noun, for "did you mean". */
export function nounSpellings(): string[] {
  const words: string[] = [];
  for (const noun of NOUN_LIST) {
    words.push(noun.name);
    if (noun.plural) words.push(noun.plural);
    words.push(...(noun.aliases ?? []), ...Object.keys(noun.shortcuts ?? {}));
  }
  return words;
}

export function verbSpellings(entry: Entry): string[] {
  return entry.verb === null ? [] : [entry.verb, ...(entry.verbAliases ?? [])];
}

/** The entries a verb word reaches after this noun spelling. */
export function entriesForVerb(hit: NounHit, word: string): Entry[] {
  const typed = normalizeWord(word);
  return entriesOf(hit.noun).filter(
    (e) => (e.form === undefined || e.form === hit.form) && verbSpellings(e).some((v) => normalizeWord(v) === typed),
  );
}

/** The word used for a shortcut entry (`unaward`), if it has one. */
export function shortcutWord(entry: Entry): string | undefined {
  const noun = nounByCanonicalName(entry.noun);
  for (const [word, key] of Object.entries(noun.shortcuts ?? {})) if (key === entry.key) return word;
  return undefined;
}
