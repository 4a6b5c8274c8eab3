import type { Command } from './spec/index.js';
import type { UsageError } from './types.js';

/** What parsing one `/gl` text gives: the command, or the usage error that tells the person what to type. */
export type ParseResult = { ok: true; command: Command } | { ok: false; error: UsageError };
