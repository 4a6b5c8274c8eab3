/** Words longer than this are not worth comparing: nothing in the table is that long. */
const MAX_COMPARED = 48;

/** Optimal-string-alignment distance: Levenshtein plus swaps of two neighbours (`retyr` → `retry` is 1). */
export function editDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  let beforePrevious: number[] = [];
  let previous: number[] = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const current: number[] = [i];
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        best = Math.min(best, (beforePrevious[j - 2] ?? 0) + 1);
      }
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[m] ?? Math.max(n, m);
}

/**
 * The candidate closest to `word`, if it is close enough to be a likely typo (or `word` is a clear prefix of it).
 * Comparison is on normalised spellings; the candidate is returned as written.
 */
export function closest(
  word: string,
  candidates: Iterable<string>,
  normalize: (w: string) => string = (w) => w.toLowerCase(),
): string | undefined {
  const typed = normalize(word);
  if (typed.length === 0 || typed.length > MAX_COMPARED) return undefined;
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const known = normalize(candidate);
    if (known === typed) return candidate;
    const distance = editDistance(typed, known);
    const score = typed.length >= 3 && known.startsWith(typed) ? 0.5 : distance;
    if (score <= limit && score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
