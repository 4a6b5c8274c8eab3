/**
 * The only place that turns ids and names into URL path segments. Project and group paths
 * (`group/sub/app`) travel as ONE segment with their slashes encoded (`group%2Fsub%2Fapp`).
 */
export type ProjectRef = string | number;

function assertId(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${what} must be a non-negative integer`);
}

/** `group/sub/app` → `group%2Fsub%2Fapp`; numeric ids (number or all-digit string) as they are. */
export function encodeProject(idOrPath: ProjectRef): string {
  if (typeof idOrPath === 'number') {
    assertId(idOrPath, 'a project id');
    return String(idOrPath);
  }
  const trimmed = idOrPath.trim().replace(/^\/+|\/+$/g, '');
  if (trimmed === '') throw new TypeError('a project id or path must not be empty');
  return encodeURIComponent(trimmed);
}

/** Any other path parameter: numeric ids, iids, ref names (`feature/x` → `feature%2Fx`), usernames. */
export function encodeSegment(value: string | number): string {
  if (typeof value === 'number') {
    assertId(value, 'a path id');
    return String(value);
  }
  if (value === '') throw new TypeError('a path segment must not be empty');
  return encodeURIComponent(value);
}

/** The API path as errors and logs show it: leading slash, no host, no `/api/v4`, no query string. */
export function toApiPath(path: string): string {
  const withoutQuery = path.split('?')[0] ?? '';
  return `/${withoutQuery.replace(/^\/+/, '')}`;
}
