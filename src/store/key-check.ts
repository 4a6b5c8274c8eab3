// What the stored tokens say about the encryption keys at start-up, in words for the operator.
//
// Decision: tokens the keys cannot open never stop the bot. One unreadable row (or all of them, after a
// key was lost) would otherwise keep everyone out; instead the bot starts, says what is wrong and what to
// do, and each person whose token cannot be read is asked to connect again when they next use it. An
// operator who changed the key by mistake restores it and restarts, and nothing is lost.

export interface KeyFinding {
  level: 'warn' | 'info';
  message: string;
  fields: Record<string, unknown>;
}

export interface KeyCensus {
  /** Stored tokens by the id of the key that sealed them. */
  byKey: ReadonlyMap<string, number>;
  currentKeyId: string;
  previousKeyId: string | null;
  /** Re-sealed under the current key at this start. */
  resealed: number;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function findKeyProblems(c: KeyCensus): KeyFinding[] {
  const out: KeyFinding[] = [];
  let total = 0;
  const unknown: [string, number][] = [];
  for (const [keyId, n] of c.byKey) {
    total += n;
    if (keyId !== c.currentKeyId && keyId !== c.previousKeyId) unknown.push([keyId, n]);
  }
  const unknownCount = unknown.reduce((sum, [, n]) => sum + n, 0);
  const keyIds = unknown.map(([id]) => id);

  if (unknownCount > 0 && c.previousKeyId) {
    out.push({
      level: 'warn',
      message: `${plural(unknownCount, 'stored token was', 'stored tokens were')} sealed under a key that is neither TOKEN_ENCRYPTION_KEY nor TOKEN_ENCRYPTION_KEY_PREVIOUS, so they cannot be read: TOKEN_ENCRYPTION_KEY_PREVIOUS is probably not the key used before. Set it to that key and restart to keep them; otherwise those people are asked to connect again.`,
      fields: { unreadable: unknownCount, total, keyIds },
    });
  } else if (unknownCount > 0) {
    out.push({
      level: 'warn',
      message: `${plural(unknownCount, 'stored token was', 'stored tokens were')} sealed under another key than TOKEN_ENCRYPTION_KEY, so they cannot be read. If the key was changed by mistake, set the old key back as TOKEN_ENCRYPTION_KEY (or as TOKEN_ENCRYPTION_KEY_PREVIOUS, to move them to the new key) and restart; otherwise those people are asked to connect again.`,
      fields: { unreadable: unknownCount, total, keyIds },
    });
  }

  const left = c.previousKeyId ? (c.byKey.get(c.previousKeyId) ?? 0) : 0;
  if (c.previousKeyId && c.previousKeyId !== c.currentKeyId && left > 0) {
    out.push({
      level: 'warn',
      message: `${plural(left, 'stored token', 'stored tokens')} under TOKEN_ENCRYPTION_KEY_PREVIOUS did not open with it (damaged records); those people are asked to connect again.`,
      fields: { damaged: left, total },
    });
  }
  if (c.previousKeyId && c.resealed === 0 && left === 0 && unknownCount === 0) {
    out.push({
      level: 'info',
      message: 'No stored token uses TOKEN_ENCRYPTION_KEY_PREVIOUS any more: it can be removed.',
      fields: { total },
    });
  }
  return out;
}
