/**
 * The only place that turns ids and names into URL path segments. Project and group paths
 * (`group/sub/app`) travel as ONE segment with their slashes encoded (`group%2Fsub%2Fapp`).
 */
export type ProjectRef = string | number;

/**
 * A value that cannot be put into an API path: `.` and `..` would climb out of the route once the URL is
 * normalised (`projects/..` is `/api/v4/`), an empty one would shift it. The message is a sentence a person
 * can read, and never repeats the value (it may be anything someone put into a button).
 */
export class InvalidPathError extends TypeError {
  readonly code = 'invalid_path';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPathError';
  }
}

function assertId(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new InvalidPathError(`${what} must be a whole number.`);
}

const isDotSegment = (s: string) => s === '.' || s === '..';

/** `group/sub/app` → `group%2Fsub%2Fapp`; numeric ids (number or all-digit string) as they are. */
export function encodeProject(idOrPath: ProjectRef): string {
  if (typeof idOrPath === 'number') {
    assertId(idOrPath, 'A project id');
    return String(idOrPath);
  }
  const trimmed = idOrPath.trim().replace(/^\/+|\/+$/g, '');
  if (trimmed === '') throw new InvalidPathError('A project path must not be empty.');
  if (trimmed.split('/').some((s) => s === '' || isDotSegment(s)))
    throw new InvalidPathError('That is not a project path: none of its parts may be empty, "." or "..".');
  return encodeURIComponent(trimmed);
}

/** Any other path parameter: numeric ids, iids, ref names (`feature/x` → `feature%2Fx`), usernames. */
export function encodeSegment(value: string | number): string {
  if (typeof value === 'number') {
    assertId(value, 'An id in the request');
    return String(value);
  }
  if (value === '') throw new InvalidPathError('A name in the request must not be empty.');
  if (isDotSegment(value)) throw new InvalidPathError('A name in the request may not be "." or "..".');
  return encodeURIComponent(value);
}

/** The API path as errors and logs show it: leading slash, no host, no `/api/v4`, no query string. */
export function toApiPath(path: string): string {
  const withoutQuery = path.split('?')[0] ?? '';
  return `/${withoutQuery.replace(/^\/+/, '')}`;
}
