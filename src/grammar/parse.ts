import { bindPositionals, refersToResource } from './binding.js';
import { type Context, type Failure, fail } from './failure.js';
import {
  type Entry,
  entriesForVerb,
  entriesOf,
  entryByKey,
  lookupNoun,
  type NounHit,
  nounCandidates,
  nounsWithVerb,
  verbCandidates,
} from './nouns.js';
import { isUrl, parseSigilRef, parseWebUrl, withArticle } from './references.js';
import type { ParseResult } from './result.js';
import { findTokenShapedWord, type TokenShape } from './secrets.js';
import type { Command } from './spec/index.js';
import type { ArgSpec, FlagSpec, NounSpec } from './spec-types.js';
import { closest } from './suggest.js';
import { echo, escapeMrkdwn, normalizeWord, readSlackText, type SlackMention } from './text.js';
import { type Token, tokenize } from './tokenize.js';
import type { ParseOptions } from './types.js';
import { commandWords, DEFAULT_SLASH_COMMAND, flagWord, type ProblemContext } from './usage.js';
import { type GivenFlag, helpCommand, isFlag, readFlags, readWords, splitFlag, VERB_LIKE } from './words.js';

/** Reported only if a bug slips past the parser: the contract is that it never throws. */
export const INTERNAL_ERROR_MESSAGE = 'Sorry, I could not read that command.';

/**
 * What a person who typed a token into a command is told. It never repeats any of the text: the token must not be
 * shown again, in Slack or anywhere the message is kept.
 */
export function secretRefusal(shape: Pick<TokenShape, 'kind'>, slash: string): Failure {
  const revoke =
    shape.kind === 'slack'
      ? "revoke it in the Slack app's settings and make a new one"
      : 'revoke it on the server now and create a new one';
  const message = [
    'Part of that command looked like an access token, so I did not run it and I am not showing it back.',
    `A token typed into a chat is no longer secret: ${revoke}.`,
    `To connect your account, type \`${slash} connect\` and paste the new token into the form it opens, never into a command.`,
  ].join('\n');
  return { ok: false, error: { kind: 'secret', message: escapeMrkdwn(message) } };
}

/**
 * Parse one slash-command text into a typed command or a usage error (Slack mrkdwn, with the nearest usage and a
 * "did you mean"). A text holding something shaped like an access token is refused first, without repeating it.
 * Pure: no I/O, never throws.
 */
export function parseCommand(text: string, options: ParseOptions): ParseResult {
  const context: Context = { serverUrl: options.serverUrl, slash: options.slashCommand ?? DEFAULT_SLASH_COMMAND };
  try {
    const raw = typeof text === 'string' ? text : '';
    const slackText = readSlackText(raw);
    // Both spellings: unescaping drops a link's target, and joins what `&amp;` split.
    const secret = findTokenShapedWord(raw) ?? findTokenShapedWord(slackText.text);
    if (secret) return secretRefusal(secret, context.slash);
    return parseText(slackText.text, slackText.mentions, context);
  } catch {
    return {
      ok: false,
      error: { message: escapeMrkdwn(`${INTERNAL_ERROR_MESSAGE} Try \`${context.slash} help\`.`) },
    };
  }
}

function parseText(clean: string, mentions: SlackMention[], context: Context): ParseResult {
  const { slash } = context;
  const tokenized = tokenize(clean, mentions);
  if (!tokenized.ok) {
    const firstWord = /^\s*(\S+)/.exec(clean)?.[1] ?? '';
    const noun = lookupNoun(firstWord)?.noun;
    return fail(
      `A quote is not closed: ${echo(tokenized.unclosed)}. Close it, or leave the quotes out.`,
      noun ? { noun, slash } : { slash },
    );
  }
  const tokens = tokenized.tokens;
  const first = tokens[0];
  if (first === undefined) return { ok: true, command: helpCommand(undefined) };
  if (isFlag(first)) {
    if (normalizeWord(splitFlag(first.text).name) === 'help') return { ok: true, command: helpCommand(undefined) };
    return fail(`Start with what to work on, e.g. \`${slash} jobs\`: ${echo(first.text)} is a flag.`, { slash });
  }
  let hit = first.quoted ? undefined : lookupNoun(first.text);
  let rest = tokens.slice(1);
  if (hit === undefined) {
    const implied = impliedNoun(first, context);
    if (implied === undefined) return unknownNoun(first, context);
    if (!('noun' in implied)) return implied;
    hit = implied;
    rest = tokens;
  }
  return parseAfterNoun(hit, rest, context);
}

/** A pasted link or a bare reference (`demo/web#3`, `!34`) shows that resource without a noun. */
function impliedNoun(token: Token, context: Context): NounHit | Failure | undefined {
  if (token.quoted) return undefined;
  const nounFor: Record<string, string> = {
    issue: 'issue',
    merge_request: 'mr',
    job: 'job',
    pipeline: 'pipeline',
    schedule: 'schedule',
  };
  let kind: string | undefined;
  if (isUrl(token.text)) {
    const link = parseWebUrl(token.text, context.serverUrl);
    if (!link.ok) return fail(`${echo(token.text)} ${link.problem}.`, { slash: context.slash });
    if (link.value.kind === 'project') {
      const problem = `${echo(token.text)} is a project: put what you want in front, e.g. \`${context.slash} issues\`.`;
      return fail(problem, { slash: context.slash });
    }
    kind = link.value.kind;
  } else {
    const ref = parseSigilRef(token.text, context.serverUrl);
    if (ref?.ok) kind = ref.value.kind;
  }
  const nounName = kind === undefined ? undefined : nounFor[kind];
  return nounName === undefined ? undefined : lookupNoun(nounName);
}

function unknownNoun(token: Token, context: Context): Failure {
  const { slash } = context;
  const word = token.text;
  const asVerb = nounsWithVerb(word);
  if (!token.quoted && asVerb.length > 0) {
    const shown = asVerb.slice(0, 4).map((noun) => `\`${slash} ${noun.name} ${word} …\``);
    const forms = asVerb.length > shown.length ? `${shown.join(', ')}, …` : shown.join(' or ');
    return fail(`${echo(word)} needs a noun in front: ${forms}.`, { slash });
  }
  const suggestion = closest(word, nounCandidates());
  const near = suggestion === undefined ? undefined : lookupNoun(suggestion)?.noun;
  const problem = `I don't know ${echo(word)}.`;
  if (suggestion !== undefined && near !== undefined) return fail(problem, { noun: near, suggestion, slash });
  return fail(problem, { slash });
}

function defaultCandidates(hit: NounHit): Entry[] {
  const defaults: NounSpec['defaults'] = hit.noun.defaults;
  if (defaults === undefined) return [];
  if (hit.form === 'plural') return [entryByKey(defaults.plural)];
  const show = defaults.singularTarget;
  return show === undefined ? [entryByKey(defaults.singular)] : [entryByKey(defaults.singular), entryByKey(show)];
}

/** The entries the words after the noun can mean: by verb, by shortcut, or the noun's defaults. */
function chooseEntries(
  hit: NounHit,
  tokens: Token[],
  slash: string,
): { choices: Entry[]; rest: Token[]; verbGiven: boolean } | ParseResult {
  if (hit.shortcut) return { choices: [hit.shortcut], rest: tokens, verbGiven: false };
  const noun = hit.noun;
  const next = tokens[0];
  const plain = next !== undefined && !next.quoted && !isFlag(next);
  // `/gl jobs help` reads like `/gl help jobs`; `help` itself takes a noun, so it is not asked this.
  if (plain && noun.name !== 'help' && normalizeWord(next.text) === 'help') {
    return { ok: true, command: helpCommand(noun.name) };
  }
  const viaVerb = plain ? entriesForVerb(hit, next.text) : [];
  if (viaVerb.length > 0) return { choices: viaVerb, rest: tokens.slice(1), verbGiven: true };
  const verbs = verbCandidates(noun);
  if (plain && verbs.length > 0 && VERB_LIKE.test(next.text)) {
    const suggestion = closest(next.text, verbs);
    const typedNoun = hit.form === 'plural' && noun.plural ? noun.plural : noun.name;
    const unknown = `I don't know ${echo(next.text)} after \`${slash} ${typedNoun}\``;
    if (suggestion) return fail(`${unknown}.`, { noun, slash, suggestion });
    return fail(notAVerb(unknown, next.text, defaultCandidates(hit)), { noun, slash });
  }
  const choices = defaultCandidates(hit);
  if (choices.length === 0) {
    const asksHelp = tokens.some((t) => isFlag(t) && normalizeWord(splitFlag(t.text).name) === 'help');
    if (asksHelp) return { ok: true, command: helpCommand(noun.name) };
    const typedNoun = hit.form === 'plural' && noun.plural ? noun.plural : noun.name;
    const verbList = [...new Set(entriesOf(noun).map((e) => `\`${e.verb}\``))].join(', ');
    return fail(`\`${slash} ${typedNoun}\` needs a verb: ${verbList}.`, { noun, slash });
  }
  return { choices, rest: tokens, verbGiven: false };
}

/** The name of the id an entry takes first (`job id`, `key id`), if it takes one. */
function idLabel(entry: Entry): string | undefined {
  switch (entry.target) {
    case 'job':
    case 'pipeline':
    case 'schedule':
    case 'deployment':
      return `${entry.target} id`;
    case 'none': {
      const [first] = entry.args as readonly ArgSpec[];
      return first?.type === 'id' && !first.optional ? `${first.of} id` : undefined;
    }
    default:
      return undefined;
  }
}

/** A word after a noun that is no verb of it: say what the noun takes there instead (an id, a project). */
function notAVerb(unknown: string, word: string, defaults: readonly Entry[]): string {
  const label = defaults.map(idLabel).find((l) => l !== undefined);
  const takesProject = defaults.some((e) => e.target === 'project');
  if (label === undefined) return takesProject ? `${unknown}. A project is written \`group/project\`.` : `${unknown}.`;
  const isNumber = `${withArticle(label)} is a number`;
  if (!takesProject) return `${echo(word)} is not ${withArticle(label)}: ${isNumber}.`;
  return `${unknown}: ${isNumber}, and a project is written \`group/project\`.`;
}

function parseAfterNoun(hit: NounHit, tokens: Token[], context: Context): ParseResult {
  const { slash } = context;
  const chosen = chooseEntries(hit, tokens, slash);
  if (!('choices' in chosen)) return chosen;
  const words = readWords(chosen.rest, chosen.choices, hit.noun, slash);
  if (!('positionals' in words)) return words;

  const entry = pickEntry(chosen.choices, {
    verbGiven: chosen.verbGiven,
    given: words.given,
    positionals: words.positionals,
    context,
  });
  const at: ProblemContext = { entry, slash };
  const read = readFlags(entry, words.given, context);
  if (!read.ok) return read;
  const flags = read.flags;
  const bound = bindPositionals(entry, words, context);
  if (!bound.ok) return bound;

  if (words.share && entry.access === 'write' && !entry.shareable) {
    return fail(
      `\`--share\` only goes with commands that read: \`${slash} ${commandWords(entry)}\` changes something.`,
      at,
    );
  }
  if (entry.needsAFlag && words.given.size === 0) {
    const names = (entry.flags as readonly FlagSpec[]).map((f) => `\`${flagWord(f)}\``).join(', ');
    return fail(`Nothing to change: give at least one of ${names}.`, at);
  }
  // `--group`, `--user` and `--clear` name the scope themselves; `--clear=false` does not.
  const scoping = [...words.given.values()].find((g) => g.flag.excludesProject && flags[g.flag.name] !== false);
  const target = bound.target;
  if (target.kind === 'project') {
    if (scoping && target.project !== null) {
      return fail(`${echo(scoping.typed)} and a project do not go together: give one of them.`, at);
    }
    if (entry.projectRequired && target.project === null && !scoping) {
      return fail('Missing `<project>`: give `group/project` or its numeric id.', at);
    }
  }

  const command = { key: entry.key, target, args: bound.args, flags, share: words.share, needsToken: entry.needsToken };
  return { ok: true, command: command as Command };
}

/** Which of several entries the words mean: by a selecting flag after a verb, or list vs show after a noun. */
function pickEntry(
  choices: Entry[],
  {
    verbGiven,
    given,
    positionals,
    context,
  }: { verbGiven: boolean; given: Map<string, GivenFlag>; positionals: Token[]; context: Context },
): Entry {
  const [list, show] = choices as [Entry, ...Entry[]];
  if (show === undefined) return list;
  if (verbGiven) {
    const selected = choices.find((c) => c.selectedBy?.some((name) => given.has(name)));
    return selected ?? choices.find((c) => c.selectedBy === undefined) ?? list;
  }
  return refersToResource(positionals, list.args.length === 0, context) ? show : list;
}
