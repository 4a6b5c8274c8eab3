import { type CommandKey, NOUNS, type NounName, SPEC } from './spec/index.js';
import type { CommandSpec, NounSpec } from './spec-types.js';
import { type Candidate, candidates } from './suggest.js';
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

const entriesByNoun = new Map<string, Entry[]>(
  NOUN_LIST.map((n) => [n.name, ENTRIES.filter((e) => e.noun === n.name)]),
);

export function entriesOf(noun: Noun): readonly Entry[] {
  return entriesByNoun.get(noun.name) ?? [];
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

/** A noun's name, plural, aliases and shortcuts. */
export function spellingsOfNoun(noun: Noun): string[] {
  return [
    noun.name,
    ...(noun.plural ? [noun.plural] : []),
    ...(noun.aliases ?? []),
    ...Object.keys(noun.shortcuts ?? {}),
  ];
}

const NOUN_CANDIDATES = candidates(NOUN_LIST.flatMap(spellingsOfNoun));

/** Every spelling of every noun, for "did you mean". */
export function nounCandidates(): readonly Candidate[] {
  return NOUN_CANDIDATES;
}

export function verbSpellings(entry: Entry): string[] {
  return entry.verb === null ? [] : [entry.verb, ...(entry.verbAliases ?? [])];
}

const verbIndex = new Map<string, Map<string, Entry[]>>();
const verbCandidatesByNoun = new Map<string, Candidate[]>();
const nounsByVerb = new Map<string, Noun[]>();
for (const noun of NOUN_LIST) {
  const index = new Map<string, Entry[]>();
  for (const entry of entriesOf(noun)) {
    for (const verb of verbSpellings(entry)) {
      const key = normalizeWord(verb);
      index.set(key, [...(index.get(key) ?? []), entry]);
      const owners = nounsByVerb.get(key) ?? [];
      if (!owners.includes(noun)) nounsByVerb.set(key, [...owners, noun]);
    }
  }
  verbIndex.set(noun.name, index);
  verbCandidatesByNoun.set(noun.name, candidates(entriesOf(noun).flatMap(verbSpellings)));
}

/** The entries a verb word reaches after this noun spelling. */
export function entriesForVerb(hit: NounHit, word: string): Entry[] {
  const reached = verbIndex.get(hit.noun.name)?.get(normalizeWord(word)) ?? [];
  return reached.filter((e) => e.form === undefined || e.form === hit.form);
}

/** The verbs of a noun (with aliases), for "did you mean". */
export function verbCandidates(noun: Noun): readonly Candidate[] {
  return verbCandidatesByNoun.get(noun.name) ?? [];
}

/** The nouns that have this word as a verb (`retry` → job, pipeline). */
export function nounsWithVerb(word: string): readonly Noun[] {
  return nounsByVerb.get(normalizeWord(word)) ?? [];
}

/** The word used for a shortcut entry (`unaward`), if it has one. */
export function shortcutWord(entry: Entry): string | undefined {
  const noun = nounByCanonicalName(entry.noun);
  for (const [word, key] of Object.entries(noun.shortcuts ?? {})) if (key === entry.key) return word;
  return undefined;
}
