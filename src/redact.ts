// Secrets must never reach a log line, a message or an error. Known secret
// values are registered when they are loaded (tokens, keys); well-known token
// shapes are scrubbed even when nobody registered them.

const registered = new Set<string>();

const PATTERNS: RegExp[] = [
  /\bxox[abeoprs]-[A-Za-z0-9-]+/g,
  /\bxapp-[A-Za-z0-9-]+/g,
  /\bglpat-[A-Za-z0-9_-]+/g,
  /(private-token["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
  /(authorization["']?\s*[:=]\s*["']?(?:bearer\s+)?)[^\s"',}]+/gi,
];

export const REDACTED = '[redacted]';

/** Remember a secret value so that every later redaction removes it. Short values are ignored (they would blank ordinary words). */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 8) registered.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const secret of registered) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  for (const re of PATTERNS) {
    out = out.replace(re, (_m, prefix?: string) => (typeof prefix === 'string' ? `${prefix}${REDACTED}` : REDACTED));
  }
  return out;
}
