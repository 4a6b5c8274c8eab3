import { findTokenShapedWord } from '../grammar/secrets.js';
import { redact } from '../redact.js';

// What the console shows of a line it echoes: words shaped like tokens keep their prefix
// (so a person sees which kind they typed) and lose the rest; secrets the bot has
// registered are removed whatever their shape. Every word the bot itself takes for a token
// (grammar/secrets.ts: any GitLab or Slack prefix in any case, unprefixed random runs) is
// masked too, so the echo never shows one the bot would refuse to show.

/** Shown instead of a secret answer, and instead of the secret part of a token. */
export const MASK = '********';

const TOKEN_SHAPES =
  /\b(glpat|gloas|gldt|glrt|glcbt|glptt|glft|glimt|glagent|glsoat|glffct|xox[abeoprs]|xapp)-[A-Za-z0-9_.-]+|\b(sim)-[a-z0-9_]+-token\b/g;

/** The visible part of a token-shaped word: its prefix and dash, when it has one. */
const PREFIX = /^(?:[A-Za-z]+-)?[A-Za-z]+-(?=[A-Za-z0-9_])/;

export function maskTokens(text: string): string {
  let out = text.replace(TOKEN_SHAPES, (_m, prefix?: string, sim?: string) => `${prefix ?? sim}-${MASK}`);
  // Each pass masks one word, so the loop ends after as many passes as there are words.
  for (let found = findTokenShapedWord(out); found; found = findTokenShapedWord(out)) {
    const kept = found.kind === 'generic' ? '' : (PREFIX.exec(found.word)?.[0] ?? '');
    out = out.split(found.word).join(`${kept}${MASK}`);
  }
  return redact(out);
}
