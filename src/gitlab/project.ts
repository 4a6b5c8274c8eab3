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
  | { kind: 'todo' | 'key' | 'user' | 'award' | 'note' | 'digest'; id: number | string }
  | { kind: 'artifacts'; project: Project; ref: string; job: string };
