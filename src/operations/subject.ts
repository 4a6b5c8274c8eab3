import { InvalidInputError } from '../errors.js';
import { ForbiddenError, GitlabError } from '../gitlab/errors.js';

/**
 * Names what a failed call was about ("job #12 in demo/web"), so that the one error
 * message says "Job #12 in demo/web was not found…" instead of a bare status.
 */
export async function about<T>(label: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof GitlabError && !(err as { subject?: unknown }).subject) {
      Object.defineProperty(err, 'subject', { value: { label }, enumerable: false });
    }
    throw err;
  }
}

/** A project as the subject of a sentence: "Project demo/web", "Project 42". */
export function projectSubject(project: string | number): string {
  return `Project ${project}`;
}

/**
 * Reads that need a role: a 403 there means the person's role is too low, which the generic
 * "not possible in its current state" does not say. `what` is what could not be seen.
 */
export async function readNeeding<T>(role: string, what: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof ForbiddenError) {
      throw new InvalidInputError(
        `You may not see ${what} (403): that needs at least the ${role} role in the project.`,
      );
    }
    throw err;
  }
}
