import {
  type Entry,
  entriesForVerb,
  entriesOf,
  entryByKey,
  lookupNoun,
  type Noun,
  type NounHit,
  nounCandidates,
  nounsWithVerb,
  verbCandidates,
} from './nouns.js';
import {
  isUrl,
  KIND_WORDS,
  looksLikeProject,
  looksLikeProjectPath,
  parseId,
  parsePositiveInt,
  parseProjectText,
  parseSigilRef,
  parseWebUrl,
  withArticle,
} from './references.js';
import { findTokenShapedWord, type TokenShape } from './secrets.js';
import type { Command } from './spec/index.js';
import type { ArgSpec, FlagSpec, NounSpec } from './spec-types.js';
import { candidates, closest } from './suggest.js';
import { echo, escapeMrkdwn, normalizeWord, readSlackText, type SlackMention } from './text.js';
import { type Token, tokenize, type WordMention } from './tokenize.js';
import type { ParseOptions, ProjectRef, Target, UsageError } from './types.js';
import {
  commandWords,
  DEFAULT_SLASH_COMMAND,
  flagSynopsis,
  flagWord,
  type ProblemContext,
  usageError,
} from './usage.js';
import { exampleValue, isListType, parseBoolean, parseValue } from './values.js';

export type ParseResult = { ok: true; command: Command } | { ok: false; error: UsageError };

type Failure = { ok: false; error: UsageError };
type Context = { serverUrl: string; slash: string };
type GivenFlag = { flag: FlagSpec; words: string[]; typed: string; mentions: WordMention[] };
type Bound = { ok: true; target: Target; args: Record<string, unknown> };

const SHARE_FLAG: FlagSpec = { name: 'share', type: 'bool', summary: 'post the answer in the channel' };
/** Only these words after a switch are read as its value; `--share 1` must not eat a job id. */
const SWITCH_VALUE = /^(true|false|yes|no|on|off)$/i;
/** A word that can only be meant as a verb: letters and dashes, no digits, slashes or reference sigils. */
const VERB_LIKE = /^[A-Za-z][A-Za-z_-]*$/;
const DIGITS = /^\d+$/;
const SIGIL_AT_END = /[#!$]\d+$/;
const FLAG_START = /^(?:--|[\u2013\u2014]-?)/;

/** Reported only if a bug slips past the parser: the contract is that it never throws. */
export const INTERNAL_ERROR_MESSAGE = 'Sorry, I could not read that command.';

function fail(problem: string, context: ProblemContext): Failure {
  return { ok: false, error: usageError(problem, context) };
}

function withSuggestion(context: ProblemContext, suggestion: string | undefined): ProblemContext {
  return suggestion === undefined ? context : { ...context, suggestion };
}

function isFlag(token: Token): boolean {
  return !token.quoted && FLAG_START.test(token.text) && (token.text.startsWith('--') || token.text.length > 1);
}

/** `--order_by=x` → name `order_by`, inline `x`. An em dash (Slack's autocorrect of `--`) counts as `--`. */
function splitFlag(text: string): { name: string; inline: string | undefined } {
  const body = text.replace(FLAG_START, '');
  const eq = body.indexOf('=');
  return eq === -1 ? { name: body, inline: undefined } : { name: body.slice(0, eq), inline: body.slice(eq + 1) };
}

function helpCommand(topic: string | undefined): Command {
  return {
    key: 'help',
    target: { kind: 'none' },
    args: topic === undefined ? {} : { topic },
    flags: {},
    share: false,
    needsToken: false,
  };
}

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

type Words = {
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
function readWords(rest: Token[], choices: Entry[], noun: Noun, slash: string): Words | ParseResult {
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
function readFlags(
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

function parseAfterNoun(hit: NounHit, tokens: Token[], context: Context): ParseResult {
  const { slash } = context;
  const chosen = chooseEntries(hit, tokens, slash);
  if (!('choices' in chosen)) return chosen;
  const words = readWords(chosen.rest, chosen.choices, hit.noun, slash);
  if (!('positionals' in words)) return words;

  const entry = pickEntry(chosen.choices, chosen.verbGiven, words.given, words.positionals, context);
  const at: ProblemContext = { entry, slash };
  const read = readFlags(entry, words.given, context);
  if (!read.ok) return read;
  const flags = read.flags;
  const bound = bindPositionals(entry, words, context);
  if (!bound.ok) return bound;

  if (words.share && entry.access === 'write') {
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
  verbGiven: boolean,
  given: Map<string, GivenFlag>,
  positionals: Token[],
  context: Context,
): Entry {
  const [list, show] = choices as [Entry, ...Entry[]];
  if (show === undefined) return list;
  if (verbGiven) {
    const selected = choices.find((c) => c.selectedBy?.some((name) => given.has(name)));
    return selected ?? choices.find((c) => c.selectedBy === undefined) ?? list;
  }
  return refersToResource(positionals, list.args.length === 0, context) ? show : list;
}

/**
 * After a singular noun: does the first word name one resource (`123`, `#3`, `demo/web 3`, a resource link)? A
 * project path followed by another word counts when the list takes no words of its own: `job demo/web abc` is a
 * job id that is not a number, not a stray word after a list.
 */
function refersToResource(positionals: Token[], listTakesNone: boolean, context: Context): boolean {
  const [first, second] = positionals;
  if (first === undefined) return false;
  if (isUrl(first.text)) {
    const link = parseWebUrl(first.text, context.serverUrl);
    return !link.ok || link.value.kind !== 'project';
  }
  if (DIGITS.test(first.text) || SIGIL_AT_END.test(first.text)) return true;
  if (second === undefined) return false;
  // A project and a number name one resource however they are quoted (`job "demo/web" "8"`).
  if (looksLikeProject(first.text) && DIGITS.test(second.text)) return true;
  return !first.quoted && listTakesNone && looksLikeProjectPath(first.text);
}

function bindPositionals(entry: Entry, words: Words, context: Context): Bound | Failure {
  const { positionals } = words;
  const at: ProblemContext = { entry, slash: context.slash };
  let used = 0;
  let target: Target;
  switch (entry.target) {
    case 'none':
      target = { kind: 'none' };
      break;
    case 'project': {
      const first = positionals[0];
      const required = entry.args.filter((a) => !('optional' in a && a.optional)).length;
      let project: ProjectRef | null = null;
      const takesProject =
        first !== undefined &&
        (entry.args.length === 0 ||
          (!first.quoted && looksLikeProject(first.text) && positionals.length - 1 >= required));
      if (first !== undefined && takesProject) {
        const parsed = parseProjectText(first.text, context.serverUrl);
        if (!parsed.ok) return fail(`${echo(first.text)} ${parsed.problem}.`, at);
        project = parsed.value;
        used = 1;
      }
      target = { kind: 'project', project };
      break;
    }
    case 'issue':
    case 'merge_request': {
      const bound = bindIidTarget(entry.target, positionals, at, context);
      if (!bound.ok) return bound;
      target = bound.target;
      used = bound.used;
      break;
    }
    case 'awardable': {
      const bound = bindAwardable(positionals, at, context);
      if (!bound.ok) return bound;
      target = bound.target;
      used = bound.used;
      break;
    }
    default: {
      const bound = bindIdTarget(entry.target, positionals, at, context);
      if (!bound.ok) return bound;
      target = bound.target;
      used = bound.used;
    }
  }

  const args: Record<string, unknown> = {};
  for (const arg of entry.args) {
    let text: string | undefined;
    if ('rest' in arg && arg.rest) {
      if (used < positionals.length)
        text = positionals
          .slice(used)
          .map((t) => t.text)
          .join(' ');
      used = positionals.length;
    } else if (used < positionals.length) {
      text = positionals[used]?.text;
      used++;
    }
    if (text === undefined) {
      if ('optional' in arg && arg.optional) continue;
      return fail(`Missing \`${arg.placeholder}\`.`, at);
    }
    const parsed = parseValue(arg, text, context.serverUrl);
    if (!parsed.ok) {
      const hint = parsed.suggestion || (arg as ArgSpec).type === 'id' ? '' : `, e.g. \`${exampleValue(arg)}\``;
      return fail(`${echo(text)} ${parsed.problem}${hint}.`, withSuggestion(at, parsed.suggestion));
    }
    args[arg.name] = parsed.value;
  }
  const stray = positionals[used];
  if (stray !== undefined) {
    const switched = words.afterSwitch.get(stray);
    if (switched) {
      const { flag, typed } = switched;
      const example = `${flagWord(flag)} ${exampleValue(flag)}`;
      return fail(`${echo(`${typed} ${stray.text}`)} must be \`true\` or \`false\`, e.g. \`${example}\`.`, at);
    }
    const extra = positionals
      .slice(used)
      .map((t) => t.text)
      .join(' ');
    return fail(`Too many words: ${echo(extra)}. Put text with spaces in quotes.`, at);
  }
  return { ok: true, target, args };
}

type BoundTarget<T> = { ok: true; target: T; used: number } | Failure;

function bindIdTarget(
  kind: 'job' | 'pipeline' | 'schedule' | 'deployment',
  positionals: Token[],
  at: ProblemContext,
  context: Context,
): BoundTarget<Target> {
  const [first, second] = positionals;
  const label = `${kind} id`;
  if (first === undefined) return fail(`Missing the ${label}: \`<id>\` or \`group/project <id>\`.`, at);
  if (isUrl(first.text)) {
    const link = parseWebUrl(first.text, context.serverUrl);
    if (!link.ok) return fail(`${echo(first.text)} ${link.problem}.`, at);
    if (link.value.kind !== kind) {
      return fail(`${echo(first.text)} is ${KIND_WORDS[link.value.kind]}, not ${KIND_WORDS[kind]}.`, at);
    }
    return { ok: true, target: { kind, project: link.value.project, id: link.value.id }, used: 1 };
  }
  // `demo/web <id>` or `42 <id>`: after a project path any word is meant as the id, after a number only digits are.
  // Nothing but a project can come before an id, so a quoted one counts too.
  const projectFirst =
    second !== undefined &&
    (looksLikeProjectPath(first.text) || (looksLikeProject(first.text) && DIGITS.test(second.text)));
  if (projectFirst) {
    const id = parseId(label, second.text);
    if (!id.ok) return fail(`${echo(second.text)} ${id.problem}.`, at);
    const project = parseProjectText(first.text, context.serverUrl);
    if (!project.ok) return fail(`${echo(first.text)} ${project.problem}.`, at);
    return { ok: true, target: { kind, project: project.value, id: id.value }, used: 2 };
  }
  if (DIGITS.test(first.text)) {
    const id = parseId(label, first.text);
    if (!id.ok) return fail(`${echo(first.text)} ${id.problem}.`, at);
    return { ok: true, target: { kind, project: null, id: id.value }, used: 1 };
  }
  const sigil = parseSigilRef(first.text, context.serverUrl);
  if (sigil?.ok) {
    return fail(
      `${echo(first.text)} is ${KIND_WORDS[sigil.value.kind]}; a ${kind} is named by its number: \`demo/web 123\` or \`123\`.`,
      at,
    );
  }
  if (looksLikeProjectPath(first.text)) return fail(`Missing the ${kind} id after ${echo(first.text)}.`, at);
  return fail(`${echo(first.text)} is not a ${kind} id: give a number, \`group/project <id>\` or a link.`, at);
}

const SIGIL_OF = { issue: '#', merge_request: '!', snippet: '$' } as const;
const ITEM_NAMES = { issue: 'issue', merge_request: 'merge request' } as const;
/** A word that is neither a path nor a reference: `abc`, `0`, `fix-login`. */
const PLAIN_WORD = /^[A-Za-z0-9_-]+$/;

function bindIidTarget(
  kind: 'issue' | 'merge_request',
  positionals: Token[],
  at: ProblemContext,
  context: Context,
): BoundTarget<Target> {
  const [first, second] = positionals;
  const sigil = SIGIL_OF[kind];
  const forms = `\`${sigil}12\`, \`group/project${sigil}12\` or a link`;
  if (first === undefined) return fail(`Missing \`<ref>\`: ${KIND_WORDS[kind]} like ${forms}.`, at);
  if (isUrl(first.text)) {
    const link = parseWebUrl(first.text, context.serverUrl);
    if (!link.ok) return fail(`${echo(first.text)} ${link.problem}.`, at);
    if (link.value.kind !== kind)
      return fail(`${echo(first.text)} is ${KIND_WORDS[link.value.kind]}, not ${KIND_WORDS[kind]}.`, at);
    return { ok: true, target: { kind, project: link.value.project, iid: link.value.id }, used: 1 };
  }
  const ref = parseSigilRef(first.text, context.serverUrl);
  if (ref !== undefined) {
    if (!ref.ok) return fail(`${echo(first.text)} ${ref.problem}.`, at);
    if (ref.value.kind !== kind) {
      return fail(
        `${echo(first.text)} is ${KIND_WORDS[ref.value.kind]}, not ${KIND_WORDS[kind]}: write \`${sigil}${ref.value.iid}\`.`,
        at,
      );
    }
    return { ok: true, target: { kind, project: ref.value.project, iid: ref.value.iid }, used: 1 };
  }
  if (second !== undefined && looksLikeProjectPath(first.text)) {
    const secondIid = parsePositiveInt(second.text);
    if (secondIid !== undefined) {
      const project = parseProjectText(first.text, context.serverUrl);
      if (!project.ok) return fail(`${echo(first.text)} ${project.problem}.`, at);
      return { ok: true, target: { kind, project: project.value, iid: secondIid }, used: 2 };
    }
    // `demo/web abc`: a word where the number goes. (A path or a reference there falls through to "missing".)
    if (PLAIN_WORD.test(second.text)) {
      const number = withArticle(`${ITEM_NAMES[kind]} number`);
      const tooLarge = DIGITS.test(second.text) && !/^0+$/.test(second.text);
      const problem = tooLarge ? `is too large for ${number}` : `is not ${number}: write \`${first.text}${sigil}12\``;
      return fail(`${echo(second.text)} ${problem}.`, at);
    }
  }
  const iid = parsePositiveInt(first.text);
  if (iid !== undefined) return { ok: true, target: { kind, project: null, iid }, used: 1 };
  if (looksLikeProjectPath(first.text)) {
    return fail(`Missing the number after ${echo(first.text)}: write \`${first.text}${sigil}12\`.`, at);
  }
  return fail(`${echo(first.text)} is not ${KIND_WORDS[kind]}: write ${forms}.`, at);
}

function bindAwardable(positionals: Token[], at: ProblemContext, context: Context): BoundTarget<Target> {
  const [first] = positionals;
  const forms = '`#12` (issue), `!34` (merge request) or `$5` (snippet), optionally after `group/project`, or a link';
  if (first === undefined) return fail(`Missing \`<ref>\`: ${forms}.`, at);
  if (isUrl(first.text)) {
    const link = parseWebUrl(first.text, context.serverUrl);
    if (!link.ok) return fail(`${echo(first.text)} ${link.problem}.`, at);
    const { kind } = link.value;
    if (kind !== 'issue' && kind !== 'merge_request' && kind !== 'snippet') {
      return fail(`${echo(first.text)} is ${KIND_WORDS[kind]}; emoji go on issues, merge requests and snippets.`, at);
    }
    return { ok: true, target: { kind, project: link.value.project, iid: link.value.id }, used: 1 };
  }
  const ref = parseSigilRef(first.text, context.serverUrl);
  if (ref !== undefined) {
    if (!ref.ok) return fail(`${echo(first.text)} ${ref.problem}.`, at);
    return { ok: true, target: { kind: ref.value.kind, project: ref.value.project, iid: ref.value.iid }, used: 1 };
  }
  if (DIGITS.test(first.text)) return fail(`${echo(first.text)} could be several things: write ${forms}.`, at);
  return fail(`${echo(first.text)} is not a reference: write ${forms}.`, at);
}
