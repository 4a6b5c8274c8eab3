import { type Refusal, type RefusalReason, RefusedError } from '../errors.js';
import { GitlabError } from '../gitlab/errors.js';
import type { Resource } from '../gitlab/project.js';

/** Names what a failed call was about, so the one error message can say "Job #12 in demo/web was not found". */
export async function about<T>(subject: Resource, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw err instanceof GitlabError && !err.subject ? err.about(subject) : err;
  }
}

/**
 * Runs `work` about `subject`; a server answer whose status is one of `reasons` becomes a typed refusal
 * (the reason is `true` when the status says all there is to say).
 */
export async function refusing<T>(
  action: string,
  subject: Resource,
  reasons: Readonly<Partial<Record<number, RefusalReason | true>>>,
  work: Promise<T>,
): Promise<T> {
  try {
    return await about(subject, work);
  } catch (err) {
    const reason = err instanceof GitlabError && err.status !== null ? reasons[err.status] : undefined;
    if (reason === undefined || !(err instanceof GitlabError)) throw err;
    const refusal: Refusal = {
      action,
      subject,
      status: err.status,
      serverMessage: err.serverMessage,
      ...(typeof reason === 'string' ? { reason } : {}),
    };
    throw new RefusedError(refusal, err);
  }
}
