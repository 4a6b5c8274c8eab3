// Secrets must never reach a log line, a message or an error. Known secret values are registered when
// they are loaded (tokens, keys) and forgotten when they stop being used (disconnect, revoke); well-known
// token shapes are scrubbed even when nobody registered them. The set is bounded: the oldest values go
// first, and tokens in use are registered again each time they are opened.
//
// Registering is constant work whatever the number of values (the pollers open every subscriber's token each
// minute), and so is finding them. Values are found by their first characters (every value has at least
// MIN_LENGTH): each position of a text is looked up by a hash of the MIN_LENGTH characters there, and only where
// some value starts with the same hash are the values of each length looked up whole. Values that share a long
// prefix (a server's own token prefix, Slack's response URLs) cost a look-up per length, not per value. At each
// position the longest value there is replaced, left to right, as one alternation of all the values (longest
// first) would.

const MIN_LENGTH = 8;
/** Above the people whose tokens are opened each minute at the scale the bot is built for (10,000). */
export const MAX_REGISTERED_SECRETS = 50_000;
/** When the bound is reached, the least recently used eighth goes at once: one sort per many registrations. */
const DROPPED_AT_THE_BOUND = MAX_REGISTERED_SECRETS / 8;

/** Every registered value, with the count of registrations at its latest (a larger count: used more recently). */
const lastUse = new Map<string, number>();
let registrations = 0;

/** The values whose first MIN_LENGTH characters have one hash, by length, the lengths longest first. */
interface Bucket {
  lengths: number[];
  byLength: Map<number, Set<string>>;
}
const byHead = new Map<number, Bucket>();
/** How many buckets each slot of the hash's low bits has: a text's position whose slot has none is passed at once. */
const SLOTS = 1 << 16;
const bucketsInSlot = new Uint32Array(SLOTS);

// Each pattern either replaces its whole match or, when it has a first group (a header's name, a URL up to its
// password), keeps that group and replaces the rest.
const PATTERNS: RegExp[] = [
  // A PEM block, even cut off before its end (a trace clipped to its last lines), and one with escaped newlines
  // as a JSON key file holds it.
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  /\bxox[abeoprs]-[A-Za-z0-9-]+/g,
  /\bxapp-[A-Za-z0-9-]+/g,
  /\bhttps:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]+/g,
  /\bgl(?:pat|oas|dt|rt|rtr|ptt|ft|imt|agent|cbt|soat|ffct|wt)-[A-Za-z0-9_-]+/g,
  /\bGR1348941[A-Za-z0-9_-]+/g,
  // AWS access key ids, and Google API keys.
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /((?:private|job|deploy)-token["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
  /(x-gitlab-token["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
  /(authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|bot|digest)\s+)?)[^\s"',}]+/gi,
  // The password of a URL (`postgres://bot:hunter2@db/…`): the user and the host stay.
  /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@"'<>]*:)[^\s/@"'<>]+(?=@)/gi,
];

// Text others wrote that the bot shows (a job's trace) is an environment dump as often as not: a value assigned to
// a name that says it is secret is one, whatever its shape. Kept out of the log's redaction, whose own fields
// (`"tokens": 3`) would read as assignments.
const ASSIGNED_SECRET =
  /(\b[A-Za-z0-9_.-]*(?:secret|password|passwd|pwd|token|api[_-]?key|access[_-]?key|private[_-]?key|accountkey|credentials?)[A-Za-z0-9_.-]*["']?\s*[:=]\s*["']?)(?!\[redacted\])[^\s"',;}]{6,}/gi;

export const REDACTED = '[redacted]';

/** A hash of the MIN_LENGTH characters of `text` from `at` (the caller checks they exist). */
function headHash(text: string, at: number): number {
  let h = 0;
  for (let i = at; i < at + MIN_LENGTH; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

function index(value: string): void {
  const head = headHash(value, 0);
  let bucket = byHead.get(head);
  if (!bucket) {
    bucket = { lengths: [], byLength: new Map() };
    byHead.set(head, bucket);
    const slot = head & (SLOTS - 1);
    bucketsInSlot[slot] = (bucketsInSlot[slot] ?? 0) + 1;
  }
  const same = bucket.byLength.get(value.length);
  if (same) {
    same.add(value);
    return;
  }
  bucket.byLength.set(value.length, new Set([value]));
  let at = 0;
  while (at < bucket.lengths.length && (bucket.lengths[at] as number) > value.length) at++;
  bucket.lengths.splice(at, 0, value.length);
}

function unindex(value: string): void {
  const head = headHash(value, 0);
  const bucket = byHead.get(head);
  const same = bucket?.byLength.get(value.length);
  if (!bucket || !same?.delete(value) || same.size > 0) return;
  bucket.byLength.delete(value.length);
  bucket.lengths.splice(bucket.lengths.indexOf(value.length), 1);
  if (bucket.lengths.length > 0) return;
  byHead.delete(head);
  const slot = head & (SLOTS - 1);
  bucketsInSlot[slot] = (bucketsInSlot[slot] ?? 1) - 1;
}

/** Forgets the least recently used values, down to 7/8 of the bound. */
function dropLeastRecent(): void {
  const uses = Float64Array.from(lastUse.values()).sort();
  const cutoff = uses[DROPPED_AT_THE_BOUND - 1] as number;
  for (const [value, use] of lastUse) {
    if (use > cutoff) continue;
    lastUse.delete(value);
    unindex(value);
  }
}

/** Remember a secret value so that every later redaction removes it. Short values are ignored (they would blank ordinary words). */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < MIN_LENGTH) return;
  registrations += 1;
  // Most recently used last, so the bound drops what is no longer in use.
  const known = lastUse.has(value);
  lastUse.set(value, registrations);
  if (known) return;
  index(value);
  if (lastUse.size > MAX_REGISTERED_SECRETS) dropLeastRecent();
}

/** Forget a secret that is no longer in use (a disconnected or revoked token). */
export function forgetSecret(value: string | undefined | null): void {
  if (value && lastUse.delete(value)) unindex(value);
}

/** How many values are remembered (for tests of the bound). */
export function registeredSecretCount(): number {
  return lastUse.size;
}

/** 31 to the power MIN_LENGTH - 1, in the hash's 32-bit arithmetic: what the leaving character weighs. */
const LEAVING = Array.from({ length: MIN_LENGTH - 1 }).reduce<number>((p) => Math.imul(p, 31), 1);

/** The longest value of the bucket that starts at `at` in `text`, if any. */
function longestAt(text: string, at: number, bucket: Bucket): string | undefined {
  for (const length of bucket.lengths) {
    if (at + length > text.length) continue;
    const candidate = text.slice(at, at + length);
    if (bucket.byLength.get(length)?.has(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Calls `found` with each position of `text` where a registered value starts (the longest there), left to right,
 * not overlapping; stops when `found` returns false. The head's hash rolls one character at a time.
 */
function eachRegistered(text: string, found: (at: number, value: string) => boolean): void {
  if (lastUse.size === 0 || text.length < MIN_LENGTH) return;
  let h = headHash(text, 0);
  for (let at = 0; ; ) {
    const bucket = bucketsInSlot[h & (SLOTS - 1)] === 0 ? undefined : byHead.get(h);
    const value = bucket && longestAt(text, at, bucket);
    if (value !== undefined) {
      if (!found(at, value)) return;
      at += value.length;
      if (at + MIN_LENGTH > text.length) return;
      h = headHash(text, at);
      continue;
    }
    if (at + MIN_LENGTH >= text.length) return;
    h = (Math.imul(h - Math.imul(text.charCodeAt(at), LEAVING), 31) + text.charCodeAt(at + MIN_LENGTH)) | 0;
    at++;
  }
}

function holdsRegistered(text: string): boolean {
  let holds = false;
  eachRegistered(text, () => {
    holds = true;
    return false;
  });
  return holds;
}

function withoutRegistered(text: string): string {
  let out = '';
  let copied = 0;
  eachRegistered(text, (at, value) => {
    out += text.slice(copied, at) + REDACTED;
    copied = at + value.length;
    return true;
  });
  return copied === 0 ? text : out + text.slice(copied);
}

/** Whether a text holds a registered secret or something shaped like a well-known token. */
export function containsSecret(text: string): boolean {
  if (holdsRegistered(text)) return true;
  return PATTERNS.some((re) => {
    re.lastIndex = 0;
    return re.test(text);
  });
}

export function redact(text: string): string {
  let out = withoutRegistered(text);
  for (const re of PATTERNS) {
    out = out.replace(re, (_m, prefix?: string) => (typeof prefix === 'string' ? `${prefix}${REDACTED}` : REDACTED));
  }
  return out;
}

/**
 * What the bot may send of text others wrote (a job's trace, lines cut from one): `redact`, and any value assigned
 * to a secret-sounding name. Run it over the whole text before cutting lines from it, so a PEM block whose start
 * is cut off is still found.
 */
export function redactTrace(text: string): string {
  return redact(text).replace(ASSIGNED_SECRET, (_m, prefix: string) => `${prefix}${REDACTED}`);
}
