import { z } from 'zod';

// The buttons of the consent DM a step sends its person (Allow once, Always …, Deny). They are answered by the
// steps' own listener (slack/routing/workflow-steps.ts), not by a noun: the answer completes a Slack function
// execution, with the workflow token the click carries. Their action_ids have their own prefix, so the nouns'
// listener (ACTION_PREFIX `gl:`) never sees them.

export const STEP_CONSENT_PREFIX = 'gl-step:';

export type ConsentAnswer = 'once' | 'always' | 'deny';

export const CONSENT_ANSWERS: readonly ConsentAnswer[] = ['once', 'always', 'deny'];

const ValueSchema = z.object({ e: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }).strict();

export function consentActionId(answer: ConsentAnswer): string {
  return `${STEP_CONSENT_PREFIX}${answer}`;
}

export function encodeConsentValue(executionId: string): string {
  return JSON.stringify({ e: executionId });
}

/** The answer and the execution a consent click names, checked; null for anything else. */
export function decodeConsentClick(
  actionId: unknown,
  value: unknown,
): { answer: ConsentAnswer; executionId: string } | null {
  if (typeof actionId !== 'string' || !actionId.startsWith(STEP_CONSENT_PREFIX)) return null;
  const answer = actionId.slice(STEP_CONSENT_PREFIX.length) as ConsentAnswer;
  if (!CONSENT_ANSWERS.includes(answer) || typeof value !== 'string' || value.length > 200) return null;
  try {
    const parsed = ValueSchema.safeParse(JSON.parse(value));
    return parsed.success ? { answer, executionId: parsed.data.e } : null;
  } catch {
    return null;
  }
}
