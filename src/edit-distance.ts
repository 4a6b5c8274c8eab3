// How far apart two spellings are, for the "did you mean" of the command language (grammar/suggest.ts) and of award
// emoji names (gitlab/emoji-names.ts): plain text, so it sits below both.

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
