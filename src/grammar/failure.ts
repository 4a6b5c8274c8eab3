import type { ServerUrls } from './references.js';
import type { UsageError } from './types.js';
import { type ProblemContext, usageError } from './usage.js';

// What every part of the parser answers with when the words cannot be read: a usage error, with a suggestion.

export type Failure = { ok: false; error: UsageError };
export type Context = { serverUrl: ServerUrls; slash: string };

export function fail(problem: string, context: ProblemContext): Failure {
  return { ok: false, error: usageError(problem, context) };
}

export function withSuggestion(context: ProblemContext, suggestion: string | undefined): ProblemContext {
  return suggestion === undefined ? context : { ...context, suggestion };
}
