import { editDistance } from '../edit-distance.js';
import { normalizeWord } from './text.js';

/** Words longer than this are not worth comparing: nothing in the table is that long. */
const MAX_COMPARED = 48;

/** A known word with its normalised spelling, computed once per table rather than per keystroke. */
export type Candidate = { word: string; normalized: string };

export function candidates(words: Iterable<string>, normalize: (w: string) => string = normalizeWord): Candidate[] {
  return [...new Set(words)].map((word) => ({ word, normalized: normalize(word) }));
}

/**
 * The candidate closest to `word`, if it is close enough to be a likely typo (or `word` is a clear prefix of it).
 * Comparison is on normalised spellings; the candidate is returned as written.
 */
export function closest(
  word: string,
  known: readonly Candidate[],
  normalize: (w: string) => string = normalizeWord,
): string | undefined {
  if (word.length > MAX_COMPARED * 2) return undefined;
  const typed = normalize(word);
  if (typed.length === 0 || typed.length > MAX_COMPARED) return undefined;
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const { word: candidate, normalized } of known) {
    if (normalized === typed) return candidate;
    let score: number;
    if (typed.length >= 3 && normalized.startsWith(typed)) score = 0.5;
    else if (Math.abs(normalized.length - typed.length) > limit) continue;
    else score = editDistance(typed, normalized);
    if (score <= limit && score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
