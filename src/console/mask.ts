import { redact } from '../redact.js';

// What the console shows of a line it echoes: words shaped like tokens keep their prefix
// (so a person sees which kind they typed) and lose the rest; secrets the bot has
// registered are removed whatever their shape.

/** Shown instead of a secret answer, and instead of the secret part of a token. */
export const MASK = '********';

const TOKEN_SHAPES =
  /\b(glpat|gloas|gldt|glrt|glcbt|glptt|glft|glimt|glagent|glsoat|glffct|xox[abeoprs]|xapp)-[A-Za-z0-9_.-]+|\b(sim)-[a-z0-9_]+-token\b/g;

export function maskTokens(text: string): string {
  return redact(text.replace(TOKEN_SHAPES, (_m, prefix?: string, sim?: string) => `${prefix ?? sim}-${MASK}`));
}
