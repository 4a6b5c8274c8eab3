import { type Context, type Failure, fail, withSuggestion } from './failure.js';
import type { Entry } from './nouns.js';
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
import type { ArgSpec } from './spec-types.js';
import { echo } from './text.js';
import type { Token } from './tokenize.js';
import type { ProjectRef, Target } from './types.js';
import { flagWord, type ProblemContext } from './usage.js';
import { exampleValue, parseValue } from './values.js';
import type { Words } from './words.js';

// Positionals bound to what an entry takes: its target (a project, an id, an issue or merge request reference, an
// awardable) and its arguments.

const DIGITS = /^\d+$/;
const SIGIL_AT_END = /[#!$]\d+$/;

export type Bound = { ok: true; target: Target; args: Record<string, unknown> };

/**
 * After a singular noun: does the first word name one resource (`123`, `#3`, `demo/web 3`, a resource link)? A
 * project path followed by another word counts when the list takes no words of its own: `job demo/web abc` is a
 * job id that is not a number, not a stray word after a list.
 */
export function refersToResource(positionals: Token[], listTakesNone: boolean, context: Context): boolean {
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

export function bindPositionals(entry: Entry, words: Words, context: Context): Bound | Failure {
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
      // A word that is no command at all is better answered by the list of commands than by one example.
      const hint =
        parsed.suggestion || (arg as ArgSpec).type === 'id'
          ? ''
          : (arg as ArgSpec).type === 'noun'
            ? `: \`${context.slash} help\` lists the commands`
            : `, e.g. \`${exampleValue(arg)}\``;
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
