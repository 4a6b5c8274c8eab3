import { echo } from './text.js';
import type { ProjectRef } from './types.js';

/** A failure's `problem` is a predicate about the word (`is not a project: …`); callers put the word in front. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string; suggestion?: string };

export type ResourceKind = 'issue' | 'merge_request' | 'snippet' | 'job' | 'pipeline' | 'schedule';

export type WebResource =
  | { kind: 'project'; project: ProjectRef }
  | { kind: ResourceKind; project: ProjectRef; id: number };

export type SigilRef = { kind: 'issue' | 'merge_request' | 'snippet'; project: ProjectRef | null; iid: number };

type Server = { hostname: string; port: string; prefix: string; display: string };

const RESOURCE_SEGMENTS: Readonly<Record<string, ResourceKind>> = {
  issues: 'issue',
  merge_requests: 'merge_request',
  snippets: 'snippet',
  jobs: 'job',
  builds: 'job',
  pipelines: 'pipeline',
  pipeline_schedules: 'schedule',
};

const SIGIL_KIND: Readonly<Record<string, SigilRef['kind']>> = { '#': 'issue', '!': 'merge_request', $: 'snippet' };

export const KIND_WORDS: Readonly<Record<ResourceKind | 'project' | 'deployment', string>> = {
  project: 'a project',
  deployment: 'a deployment',
  issue: 'an issue',
  merge_request: 'a merge request',
  snippet: 'a snippet',
  job: 'a job',
  pipeline: 'a pipeline',
  schedule: 'a pipeline schedule',
};

const SEGMENT = '[A-Za-z0-9_.][A-Za-z0-9_.-]*';
const PROJECT_PATH = new RegExp(`^${SEGMENT}(?:/${SEGMENT})+$`);
const GROUP_PATH = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);
const DIGITS = /^\d+$/;
const SIGIL_REF = /^(.*?)([#!$])(\d+)$/;
const URL_START = /^https?:\/\//i;

export function isUrl(text: string): boolean {
  return URL_START.test(text);
}

export function parsePositiveInt(text: string): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}

/** The word with its indefinite article: `an award id`, `a job id`. */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** A record's id, a number from 1. `label` names it in the problem: "is not a key id: a key id is a number". */
export function parseId(label: string, text: string): Parsed<number> {
  const id = parsePositiveInt(text);
  if (id !== undefined) return { ok: true, value: id };
  const named = withArticle(label);
  if (!DIGITS.test(text)) return { ok: false, problem: `is not ${named}: ${named} is a number` };
  if (/^0+$/.test(text)) return { ok: false, problem: `is not ${named}: ${named} is a number from 1` };
  return { ok: false, problem: `is too large for ${named}` };
}

/**
 * The server's addresses a pasted link may use: the public one people open first (named in problems), then the
 * one the bot reaches the server by. A single string is the usual case of one address.
 */
export type ServerUrls = string | readonly string[];

const servers = new Map<string, Server | undefined>();

/** The configured server, parsed once per distinct GITLAB_URL (one in production, a few in tests). */
function serverOf(serverUrl: string): Server | undefined {
  if (servers.has(serverUrl)) return servers.get(serverUrl);
  let server: Server | undefined;
  try {
    const url = new URL(serverUrl);
    const prefix = url.pathname.replace(/\/+$/, '');
    server = { hostname: url.hostname, port: url.port, prefix, display: `${url.host}${prefix}` };
  } catch {
    server = undefined;
  }
  if (servers.size >= 16) servers.clear();
  servers.set(serverUrl, server);
  return server;
}

/** http and https links to the same host both count; only a different explicit port rules a link out. */
function sameServer(url: URL, server: Server): boolean {
  if (url.hostname !== server.hostname) return false;
  const defaults = ['', '80', '443'];
  if (server.port === '') return defaults.includes(url.port);
  return url.port === server.port || (url.port === '' && defaults.includes(server.port));
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * A pasted web link of the configured server: `…/group/sub/project/-/issues/12` (with or without `/-/`, with a
 * trailing slash, `#note_…` anchor or a sub-page like `/diffs`), or a project's own page.
 */
export function parseWebUrl(text: string, serverUrls: ServerUrls): Parsed<WebResource> {
  const all = typeof serverUrls === 'string' ? [serverUrls] : serverUrls;
  const first = all[0] ?? '';
  const named = serverOf(first);
  if (!named) return { ok: false, problem: `cannot be read: the configured server ${echo(first)} is not a URL` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: 'is not a link I can read' };
  }
  const server = all.map(serverOf).find((s): s is Server => s !== undefined && sameServer(url, s));
  if (!server) {
    return {
      ok: false,
      problem: `points to ${echo(url.host)}, but I only work with ${echo(named.display)}: paste a link from there`,
    };
  }
  let path = url.pathname;
  if (server.prefix !== '') {
    if (path !== server.prefix && !path.startsWith(`${server.prefix}/`)) {
      return { ok: false, problem: `is not under ${echo(server.display)}` };
    }
    path = path.slice(server.prefix.length);
  }
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    const decoded = decodeSegment(raw);
    if (decoded === undefined) return { ok: false, problem: 'is not a link I can read' };
    segments.push(decoded);
  }
  let projectEnd = segments.indexOf('-');
  let rest: string[];
  if (projectEnd !== -1) {
    rest = segments.slice(projectEnd + 1);
  } else {
    projectEnd = segments.findIndex(
      (segment, i) => i >= 2 && RESOURCE_SEGMENTS[segment] !== undefined && DIGITS.test(segments[i + 1] ?? ''),
    );
    if (projectEnd === -1) projectEnd = segments.length;
    rest = segments.slice(projectEnd);
  }
  const projectPath = segments.slice(0, projectEnd).join('/');
  if (!PROJECT_PATH.test(projectPath)) return { ok: false, problem: 'does not lead to a project' };
  const project: ProjectRef = { kind: 'path', path: projectPath };
  if (rest.length === 0) return { ok: true, value: { kind: 'project', project } };
  const kind = RESOURCE_SEGMENTS[rest[0] ?? ''];
  const id = parsePositiveInt(rest[1] ?? '');
  if (kind === undefined || id === undefined) {
    return {
      ok: false,
      problem: 'is not the page of an issue, merge request, snippet, job, pipeline or schedule',
    };
  }
  return { ok: true, value: { kind, project, id } };
}

function trimSlashes(text: string): string {
  return text.replace(/^\/+|\/+$/g, '');
}

/** A project named by `group/sub/project`, its numeric id or a link to one of its pages. */
export function parseProjectText(text: string, serverUrl: ServerUrls): Parsed<ProjectRef> {
  if (isUrl(text)) {
    const link = parseWebUrl(text, serverUrl);
    return link.ok ? { ok: true, value: link.value.project } : link;
  }
  if (DIGITS.test(text)) {
    const id = parsePositiveInt(text);
    return id === undefined
      ? { ok: false, problem: 'is not a project id (a whole number from 1)' }
      : { ok: true, value: { kind: 'id', id } };
  }
  const path = trimSlashes(text);
  if (PROJECT_PATH.test(path)) return { ok: true, value: { kind: 'path', path } };
  const sigil = SIGIL_REF.exec(text);
  if (sigil) {
    const kind = SIGIL_KIND[sigil[2] ?? ''] ?? 'issue';
    return { ok: false, problem: `is ${KIND_WORDS[kind]}, not a project` };
  }
  return { ok: false, problem: 'is not a project: give `group/project` or its numeric id' };
}

/** A group for `--group`: a path of one or more segments, or a numeric id. */
export function parseGroupText(text: string): Parsed<ProjectRef> {
  const id = parsePositiveInt(text);
  if (id !== undefined) return { ok: true, value: { kind: 'id', id } };
  const path = trimSlashes(text);
  if (GROUP_PATH.test(path)) return { ok: true, value: { kind: 'path', path } };
  return { ok: false, problem: 'is not a group: give its path (`demo`, `demo/sub`) or numeric id' };
}

/** Whether a word would be read as a project when a command takes an optional leading one. */
export function looksLikeProject(text: string): boolean {
  return DIGITS.test(text) || isUrl(text) || PROJECT_PATH.test(trimSlashes(text));
}

/** Whether a word is a project path (not an id): `demo/web 3` names issue 3 of demo/web. */
export function looksLikeProjectPath(text: string): boolean {
  return PROJECT_PATH.test(trimSlashes(text));
}

/** `#12`, `!34`, `$5`, optionally after a project (`demo/web#12`, `42!34`); `undefined` if not of that shape. */
export function parseSigilRef(text: string, serverUrl: ServerUrls): Parsed<SigilRef> | undefined {
  const match = SIGIL_REF.exec(text);
  if (!match) return undefined;
  const [, projectText = '', sigil = '#', digits = ''] = match;
  const kind = SIGIL_KIND[sigil] ?? 'issue';
  const iid = parsePositiveInt(digits);
  if (iid === undefined) return { ok: false, problem: `needs a number from 1 after \`${sigil}\`` };
  if (projectText === '') return { ok: true, value: { kind, project: null, iid } };
  if (isUrl(projectText)) return { ok: false, problem: 'mixes a link and a reference: give one of them' };
  const project = parseProjectText(projectText, serverUrl);
  return project.ok ? { ok: true, value: { kind, project: project.value, iid } } : project;
}
