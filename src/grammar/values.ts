import { validate as validateCron } from 'node-cron';
import { cronRangeProblem } from './cron-fields.js';
import { parseDuration } from './duration.js';
import { lookupNoun, nounCandidates } from './nouns.js';
import {
  type Parsed,
  parseGroupText,
  parseId,
  parsePositiveInt,
  parseProjectText,
  type ServerUrls,
} from './references.js';
import type { ValueSpec, ValueType } from './spec-types.js';
import { candidates, closest } from './suggest.js';
import { echo, normalizeWord } from './text.js';
import type { WordMention } from './tokenize.js';
import type { UserRef } from './types.js';

const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
  true: true,
  yes: true,
  on: true,
  '1': true,
  false: false,
  no: false,
  off: false,
  '0': false,
};

const LIST_TYPES: ReadonlySet<ValueType> = new Set(['enum-list', 'list', 'labels', 'int-list', 'user-list']);

/** List flags merge `--x a,b` and `--x a --x b` into one list. */
export function isListType(type: ValueType): boolean {
  return LIST_TYPES.has(type);
}

export function parseBoolean(text: string): boolean | undefined {
  return BOOLEAN_WORDS[text.toLowerCase()];
}

const INTEGER = /^[+]?\d+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
const EMOJI_NAME = /^[a-z0-9_+-]+$/;
const USERNAME = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;

/** Slack spells a few emoji differently from GitLab, and phones send the characters themselves. */
const EMOJI_ALIASES: Readonly<Record<string, string>> = {
  '+1': 'thumbsup',
  '-1': 'thumbsdown',
  '👍': 'thumbsup',
  '👎': 'thumbsdown',
  '🎉': 'tada',
  '❤️': 'heart',
  '❤': 'heart',
  '🚀': 'rocket',
  '👀': 'eyes',
};

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match || !isCalendarDate(match[1] ?? '')) return false;
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4] ?? 0)];
  return hour <= 23 && minute <= 59 && second <= 59;
}

function parseInteger(spec: { min?: number; max?: number }, text: string): Parsed<number> {
  const value = INTEGER.test(text) ? Number(text) : Number.NaN;
  const min = spec.min ?? 0;
  const range = spec.max === undefined ? `from ${min}` : `from ${min} to ${spec.max}`;
  if (!Number.isSafeInteger(value) || value < min || (spec.max !== undefined && value > spec.max)) {
    return { ok: false, problem: `must be a whole number ${range}` };
  }
  return { ok: true, value };
}

function parseEnumValue(values: readonly string[], text: string): Parsed<string> {
  const typed = normalizeWord(text);
  const found = values.find((v) => normalizeWord(v) === typed);
  if (found !== undefined) return { ok: true, value: found };
  const suggestion = closest(text, candidates(values));
  return { ok: false, problem: `must be one of ${values.join(', ')}`, ...(suggestion ? { suggestion } : {}) };
}

const cronCache = new Map<string, boolean>();
/**
 * node-cron's validate expands ranges and steps into arrays before it checks their bounds: `1-99999999` takes
 * seconds and gigabytes, `*99999999999999999999` kills the process. No field of a cron expression needs a
 * number of more than two digits (minutes go to 59), so longer ones are refused before node-cron sees them.
 */
const LONG_NUMBER = /\d{3,}/;
const CRON_SHAPE = 'must be a cron expression of 5 fields: minute hour day-of-month month weekday';
function isCron(expression: string): boolean {
  if (LONG_NUMBER.test(expression)) return false;
  let valid = cronCache.get(expression);
  if (valid === undefined) {
    try {
      valid = validateCron(expression);
    } catch {
      valid = false;
    }
    if (cronCache.size < 1000) cronCache.set(expression, valid);
  }
  return valid;
}

const zoneCache = new Map<string, string | null>();

/** Title-case a zone typed in lower case: `asia/kolkata` → `Asia/Kolkata`. */
function titleCaseZone(text: string): string {
  return text.replace(/(^|[/_-])([a-z])/g, (_m, sep: string, letter: string) => sep + letter.toUpperCase());
}

/**
 * The zone as the person named it, in its proper case, or null if Intl does not know it. ICU's own canonical
 * names are legacy ones (`Asia/Kolkata` → `Asia/Calcutta`), so they are used only to fix the case of the same name.
 */
function knownZone(text: string): string | null {
  let zone = zoneCache.get(text);
  if (zone === undefined) {
    try {
      const resolved = /^[A-Za-z][A-Za-z0-9_+/-]*$/.test(text)
        ? new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone
        : undefined;
      if (resolved === undefined) zone = null;
      else if (resolved.toLowerCase() === text.toLowerCase()) zone = resolved;
      else zone = text === text.toLowerCase() ? titleCaseZone(text) : text;
    } catch {
      zone = null;
    }
    if (zoneCache.size < 1000) zoneCache.set(text, zone);
  }
  return zone;
}

function parseEmoji(text: string): Parsed<string> {
  const trimmed = text.trim();
  const alias = EMOJI_ALIASES[trimmed];
  if (alias) return { ok: true, value: alias };
  // `:thumbsup::skin-tone-3:` is Slack's spelling of GitLab's `thumbsup_tone2`.
  const toned = /^:?([^:\s]+):?(?::skin-tone-([2-6]):)?$/.exec(trimmed.toLowerCase());
  const base = toned?.[1];
  if (base === undefined || !EMOJI_NAME.test(base)) {
    return { ok: false, problem: 'must be an emoji name like `:thumbsup:` or `thumbsup`' };
  }
  const name = EMOJI_ALIASES[base] ?? base;
  return { ok: true, value: toned?.[2] ? `${name}_tone${Number(toned[2]) - 1}` : name };
}

const PERSON_PROBLEM = 'must be a user id, a username or a Slack @mention';

/** A Slack mention in the word itself wins; then a numeric id; then a username, with or without its `@`. */
function parseUser(text: string, mentions: readonly WordMention[]): Parsed<UserRef> {
  const word = text.trim();
  const mention = mentions.find((m) => m.text === word);
  if (mention) return { ok: true, value: { kind: 'slack', userId: mention.userId } };
  const id = parsePositiveInt(word);
  if (id !== undefined) return { ok: true, value: { kind: 'id', id } };
  const username = word.replace(/^@/, '');
  return USERNAME.test(username)
    ? { ok: true, value: { kind: 'username', username } }
    : { ok: false, problem: PERSON_PROBLEM };
}

function sameUser(a: UserRef, b: UserRef): boolean {
  if (a.kind === 'id') return b.kind === 'id' && a.id === b.id;
  if (a.kind === 'username') return b.kind === 'username' && a.username.toLowerCase() === b.username.toLowerCase();
  return b.kind === 'slack' && a.userId === b.userId;
}

function parseUsers(text: string, mentions: readonly WordMention[]): Parsed<UserRef[]> {
  const parts = splitList(text);
  if (parts.length === 0) return { ok: false, problem: 'needs one or more people' };
  const people: UserRef[] = [];
  for (const part of parts) {
    const one = parseUser(part, mentions);
    if (!one.ok) return { ok: false, problem: `has ${echo(part)}, but each person ${one.problem}` };
    if (!people.some((p) => sameUser(p, one.value))) people.push(one.value);
  }
  return { ok: true, value: people };
}

/**
 * Turn one raw word (or the merged words of a list flag) into the typed value its spec names. `mentions` are the
 * Slack mentions within those words, for the types that take a person.
 */
export function parseValue(
  spec: ValueSpec,
  text: string,
  serverUrl: ServerUrls,
  mentions: readonly WordMention[] = [],
): Parsed<unknown> {
  switch (spec.type) {
    case 'int':
      return parseInteger(spec, text);
    case 'id':
      return parseId(`${spec.of} id`, text);
    case 'string':
      return text === '' && !spec.allowEmpty ? { ok: false, problem: 'needs a value' } : { ok: true, value: text };
    case 'enum':
      return parseEnumValue(spec.values, text);
    case 'enum-list': {
      const parts = splitList(text);
      if (parts.length === 0) return { ok: false, problem: `needs one or more of ${spec.values.join(', ')}` };
      const chosen: string[] = [];
      for (const part of parts) {
        const one = parseEnumValue(spec.values, part);
        if (!one.ok) return { ...one, problem: `has ${echo(part)}, but each value ${one.problem}` };
        if (!chosen.includes(one.value)) chosen.push(one.value);
      }
      return { ok: true, value: chosen };
    }
    case 'bool': {
      const value = parseBoolean(text);
      return value === undefined ? { ok: false, problem: 'must be `true` or `false`' } : { ok: true, value };
    }
    case 'list': {
      const parts = splitList(text);
      return parts.length === 0 ? { ok: false, problem: 'needs a value' } : { ok: true, value: parts };
    }
    case 'labels': {
      const parts = splitList(text);
      if (parts.length === 0) return { ok: false, problem: 'needs a value' };
      // The API's spelling of "no label at all"; the operation joins with ',' and the wire carries `No+Label`.
      return { ok: true, value: parts.length === 1 && parts[0]?.toLowerCase() === 'none' ? ['No Label'] : parts };
    }
    case 'int-list': {
      const parts = splitList(text);
      const numbers = parts.map((part) => parsePositiveInt(part.replace(/^\+/, '')));
      if (parts.length === 0 || numbers.some((n) => n === undefined)) {
        return { ok: false, problem: 'must be whole numbers from 1, separated by commas' };
      }
      return { ok: true, value: [...new Set(numbers)] };
    }
    case 'date':
      return isCalendarDate(text) ? { ok: true, value: text } : { ok: false, problem: 'must be a date as YYYY-MM-DD' };
    case 'date-time':
      return isCalendarDate(text) || isDateTime(text)
        ? { ok: true, value: text }
        : { ok: false, problem: 'must be an ISO 8601 date or date-time' };
    case 'duration': {
      const duration = parseDuration(text, spec.signed === true);
      return duration.ok ? duration : { ok: false, problem: `${duration.problem} (units: mo, w, d, h, m)` };
    }
    case 'cron': {
      const fields = text.trim().split(/\s+/);
      const expression = fields.join(' ');
      if (fields.length !== 5 || !isCron(expression)) {
        const outOfRange = fields.length === 5 ? cronRangeProblem(fields) : null;
        return { ok: false, problem: outOfRange ?? CRON_SHAPE };
      }
      return { ok: true, value: expression };
    }
    case 'timezone': {
      const zone = knownZone(text.trim());
      return zone === null ? { ok: false, problem: 'must be an IANA time zone' } : { ok: true, value: zone };
    }
    case 'emoji':
      return parseEmoji(text);
    case 'project':
      return parseProjectText(text, serverUrl);
    case 'group':
      return parseGroupText(text);
    case 'user':
      return parseUser(text, mentions);
    case 'user-list':
      return parseUsers(text, mentions);
    case 'mr-iid': {
      const iid = parsePositiveInt(text.replace(/^!/, ''));
      return iid === undefined
        ? { ok: false, problem: 'must be a merge request like `!34`' }
        : { ok: true, value: iid };
    }
    case 'noun': {
      const hit = lookupNoun(text);
      if (hit) return { ok: true, value: hit.noun.name };
      const suggestion = closest(text, nounCandidates());
      return { ok: false, problem: 'is not a command I know', ...(suggestion ? { suggestion } : {}) };
    }
  }
}

/** What to show after "e.g." for a bad value: a value that parses, or for free text its placeholder. */
export function exampleValue(spec: ValueSpec & { default?: string | number; placeholder?: string }): string {
  switch (spec.type) {
    case 'int':
      return String(spec.default ?? (spec.max !== undefined ? Math.min(20, spec.max) : 12));
    case 'id':
      return '12';
    case 'string':
      return spec.placeholder ?? '"some text"';
    case 'enum':
      return spec.values[0] ?? '';
    case 'enum-list':
      return spec.values.slice(0, 2).join(',');
    case 'bool':
      return 'true';
    case 'list':
    case 'labels':
      return 'bug,ui';
    case 'int-list':
      return '1,2,3';
    case 'date':
      return '2026-12-01';
    case 'date-time':
      return '2026-12-01T09:30:00Z';
    case 'duration':
      return spec.signed ? '1h30m' : '3h30m';
    case 'cron':
      return `"${typeof spec.default === 'string' ? spec.default : '0 9 * * 1-5'}"`;
    case 'timezone':
      return 'Europe/Berlin';
    case 'emoji':
      return ':thumbsup:';
    case 'project':
      return 'demo/web';
    case 'group':
      return 'demo';
    case 'user':
      return 'alice';
    case 'user-list':
      return 'alice,bob';
    case 'mr-iid':
      return '!34';
    case 'noun':
      return 'jobs';
  }
}
