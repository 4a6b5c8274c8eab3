// One project identity for the whole bot: what the API is called with, what people read, and the web
// addresses of the project and of what is in it. Pure; views and operations both use it.

/** A project as commands name it: a path (`group/app`) or a numeric id. */
export type ProjectKey = string | number;

/** A project as the bot knows it: the key the API is called with and, when known, its path. */
export interface Project {
  key: ProjectKey;
  /** `group/sub/app`; null only while a numeric id could not be resolved. */
  path: string | null;
}

export function projectOf(key: ProjectKey, path?: string | null): Project {
  return { key, path: path ?? (typeof key === 'string' ? key : null) };
}

/** How the project reads in a sentence: its path, else "project 42". */
export function projectLabel(project: Project | ProjectKey): string {
  const p = typeof project === 'object' ? project : projectOf(project);
  return p.path ?? `project ${p.key}`;
}

/** The key a button carries: the path when known (a click then needs no lookup), else the id. */
export function projectButtonKey(project: Project): ProjectKey {
  return project.path ?? project.key;
}

// A list draws the same project's address for every row: the last one is kept.
let lastUrl = { serverUrl: '', path: '', url: '' };

/** The project's web address, when its path is known. */
export function projectUrl(serverUrl: string, project: Project): string | null {
  const path = project.path;
  if (!path) return null;
  if (lastUrl.path !== path || lastUrl.serverUrl !== serverUrl) {
    lastUrl = { serverUrl, path, url: `${serverUrl}/${path.split('/').map(encodeURIComponent).join('/')}` };
  }
  return lastUrl.url;
}

/** A page of the project (`-/jobs/8`, `issues/3`), when its path is known. */
export function projectPageUrl(serverUrl: string, project: Project, suffix: string): string | null {
  const base = projectUrl(serverUrl, project);
  return base ? `${base}/${suffix}` : null;
}

/** What a request was about: errors and refusals name it ("Job #8 in demo/web"). */
export type Resource =
  | { kind: 'project'; project: Project }
  | { kind: 'group'; group: string | number }
  | { kind: 'job' | 'pipeline' | 'schedule' | 'deployment'; project: Project; id: number }
  | { kind: 'issue' | 'merge_request' | 'snippet'; project: Project; iid: number }
  | { kind: 'merge_request_version'; project: Project; iid: number; id: number }
  /** A branch or tag named in a command (`pipeline run demo/web main`). */
  | { kind: 'ref'; project: Project; ref: string }
  | { kind: 'todo' | 'key' | 'user' | 'award' | 'note' | 'digest' | 'watch'; id: number | string }
  | { kind: 'artifacts'; project: Project; ref: string; job: string };

/**
 * A web address the server sent, drawn on the configured server: its path (and query and fragment) under
 * `serverUrl`'s host, whatever host the server wrote. A server reached by an internal address writes that one; a
 * hostile one could write any: neither becomes a link target. Null when there is no address, or it is no URL.
 */
export function onServer(serverUrl: string, webUrl: string | null | undefined): string | null {
  if (!webUrl) return null;
  const origin = originOf(serverUrl);
  if (origin === null) return null;
  const plain = PLAIN_WEB_URL.exec(webUrl);
  if (plain && !DOT_SEGMENT.test(plain[3] as string) && validAuthority(plain[1] as string, plain[2] as string)) {
    // Leading slashes collapse to one, so the path can never read as another host.
    return `${origin}${(plain[3] as string).replace(/^\/+/, '/') || '/'}`;
  }
  try {
    const given = new URL(webUrl);
    if (given.protocol !== 'http:' && given.protocol !== 'https:') return null;
    return `${origin}${given.pathname.replace(/^\/+/, '/')}${given.search}${given.hash}`;
  } catch {
    return null;
  }
}

// Every row of a list is drawn against the same server and names the same host, and parsing both addresses was the
// costliest step of drawing a row. The server's origin and the verdict on the last host named are kept, and an address
// whose path a URL parser keeps as it is (no dot segment, nothing to percent-encode, no query or fragment, no
// whitespace to strip) is read without a parse; anything else is parsed as before.
const PLAIN_WEB_URL = /^(https?:\/\/)([^/?#\\\x00-\x20]+)((?:\/[A-Za-z0-9._~-]*)*)$/;
const DOT_SEGMENT = /\/\.\.?(?=\/|$)/;
let lastServer: { serverUrl: string; origin: string | null } = { serverUrl: '', origin: null };
let lastAuthority = { scheme: '', authority: '', valid: false };

/** The server's origin, null when `serverUrl` is no URL. */
function originOf(serverUrl: string): string | null {
  if (lastServer.serverUrl !== serverUrl || !serverUrl) {
    lastServer = { serverUrl, origin: URL.canParse(serverUrl) ? new URL(serverUrl).origin : null };
  }
  return lastServer.origin;
}

/**
 * Whether a URL parser takes this host (and port, and user info) for the scheme: the same for any path after it, so
 * asked once. A path with a `.` or `..` segment goes to the parser, which resolves them.
 */
function validAuthority(scheme: string, authority: string): boolean {
  if (lastAuthority.scheme !== scheme || lastAuthority.authority !== authority) {
    lastAuthority = { scheme, authority, valid: URL.canParse(`${scheme}${authority}/`) };
  }
  return lastAuthority.valid;
}

/**
 * The part of a web address the server sent below the server's own root (`demo/web/issues/3`), whatever host it
 * names: the server's root path (a server under `/gitlab`) is taken off when present.
 */
export function pathOnServer(serverUrl: string, webUrl: string | null | undefined): string | null {
  if (!webUrl) return null;
  try {
    const path = new URL(webUrl).pathname;
    const root = new URL(serverUrl).pathname.replace(/\/+$/, '');
    const below = root && path.startsWith(`${root}/`) ? path.slice(root.length) : path;
    return below.replace(/^\/+/, '');
  } catch {
    return null;
  }
}
