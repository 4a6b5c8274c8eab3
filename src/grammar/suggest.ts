import { normalizeWord } from './text.js';

/** Words longer than this are not worth comparing: nothing in the table is that long. */
const MAX_COMPARED = 48;

/** A known word with its normalised spelling, computed once per table rather than per keystroke. */
export type Candidate = { word: string; normalized: string };

export function candidates(words: Iterable<string>, normalize: (w: string) => string = normalizeWord): Candidate[] {
  return [...new Set(words)].map((word) => ({ word, normalized: normalize(word) }));
}

let scratch = new Int32Array(3 * 64);

/** Optimal-string-alignment distance: Levenshtein plus swaps of two neighbours (`retyr` → `retry` is 1). */
export function editDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  const width = m + 1;
  // Three rows of scratch space, reused across calls: suggestions run on every unknown word.
  if (scratch.length < 3 * width) scratch = new Int32Array(3 * width);
  const rows = scratch;
  let beforePrevious = 0;
  let previous = width;
  let current = 2 * width;
  for (let j = 0; j <= m; j++) rows[previous + j] = j;
  for (let i = 1; i <= n; i++) {
    rows[current] = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1);
      let best = Math.min(
        (rows[previous + j] as number) + 1,
        (rows[current + j - 1] as number) + 1,
        (rows[previous + j - 1] as number) + (ai === bj ? 0 : 1),
      );
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        best = Math.min(best, (rows[beforePrevious + j - 2] as number) + 1);
      }
      rows[current + j] = best;
    }
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return rows[previous + m] as number;
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
