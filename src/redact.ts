// Secrets must never reach a log line, a message or an error. Known secret values are registered when
// they are loaded (tokens, keys) and forgotten when they stop being used (disconnect, revoke); well-known
// token shapes are scrubbed even when nobody registered them. The set is bounded: the oldest values go
// first, and tokens in use are registered again each time they are opened.

const MAX_REGISTERED = 2000;
const registered = new Map<string, true>();
let combined: RegExp | null = null;

const PATTERNS: RegExp[] = [
  /\bxox[abeoprs]-[A-Za-z0-9-]+/g,
  /\bxapp-[A-Za-z0-9-]+/g,
  /\bgl(?:pat|oas|dt|rt|ptt|ft|imt|agent|cbt|soat)-[A-Za-z0-9_-]+/g,
  /(private-token["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
  /(authorization["']?\s*[:=]\s*["']?(?:bearer\s+)?)[^\s"',}]+/gi,
];

export const REDACTED = '[redacted]';

/** Remember a secret value so that every later redaction removes it. Short values are ignored (they would blank ordinary words). */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < 8) return;
  if (registered.has(value)) {
    // Most recently used last, so the bound drops what is no longer in use.
    registered.delete(value);
    registered.set(value, true);
    return;
  }
  registered.set(value, true);
  if (registered.size > MAX_REGISTERED) registered.delete(registered.keys().next().value as string);
  combined = null;
}

/** Forget a secret that is no longer in use (a disconnected or revoked token). */
export function forgetSecret(value: string | undefined | null): void {
  if (value && registered.delete(value)) combined = null;
}

/** How many values are remembered (for tests of the bound). */
export function registeredSecretCount(): number {
  return registered.size;
}

function registeredPattern(): RegExp | null {
  if (registered.size === 0) return null;
  combined ??= new RegExp(
    [...registered.keys()]
      .sort((a, b) => b.length - a.length)
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
  return combined;
}

/** Whether a text holds a registered secret or something shaped like a well-known token. */
export function containsSecret(text: string): boolean {
  const known = registeredPattern();
  if (known) {
    known.lastIndex = 0;
    if (known.test(text)) return true;
  }
  return PATTERNS.some((re) => {
    re.lastIndex = 0;
    return re.test(text);
  });
}

export function redact(text: string): string {
  let out = text;
  const known = registeredPattern();
  if (known) out = out.replace(known, REDACTED);
  for (const re of PATTERNS) {
    out = out.replace(re, (_m, prefix?: string) => (typeof prefix === 'string' ? `${prefix}${REDACTED}` : REDACTED));
  }
  return out;
}
