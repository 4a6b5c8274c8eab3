import { onServer, type Project, projectLabel, projectOf, projectPageUrl, projectUrl } from '../gitlab/project.js';
import type { Event } from '../gitlab/schemas.js';
import type { Block, SlackMessage } from './blocks.js';
import { section } from './blocks.js';
import { when } from './common.js';
import { truncate } from './limits.js';
import { buildList, type ListPlace, type PageInfo } from './lists.js';
import { bold, code, italic, linked, type Md, md } from './mrkdwn.js';
import type { Notice } from './notice.js';

// Events as sentences a person reads: "@alice opened issue #12 *Title*", "@bob pushed 2 commits to main", "@alice
// merged !3 *Title*", "@eve commented on !2: “Looks good”", each linked. Real servers name actions in the past
// tense ("pushed to", "accepted", "commented on") and send no event id; a few older spellings are read too, and
// the server's words that read oddly are put as people say them ("accepted" is a merge). Shared with digests and
// the Home tab.

export interface EventContext {
  serverUrl: string;
  now: Date;
  /** The reader's zone, for the absolute half of each time (digests: the digest's own zone). */
  timeZone?: string | undefined;
  /** Read by many (shared in a channel, a digest posted there): each time in each reader's zone (format.ts). */
  shared?: boolean | undefined;
  /** Paths of the projects the events happened in, by id: events carry only the id. */
  projects: ReadonlyMap<number, string>;
  /** The project a list is about: its references are written short (`#12` instead of `demo/web#12`). */
  here?: number | null;
  /** Events that reopened their target (a 9.5 server calls a reopen "opened"): see `reopenings`. */
  reopened?: ReadonlySet<Event>;
}

/** What an event happened to, when it names one: the same key for the event and for comments on it. */
export function eventTargetKey(e: Event): string | null {
  const n = e.note;
  if (n) return n.noteable_iid == null ? null : `${e.project_id}:${n.noteable_type}:${n.noteable_iid}`;
  const iid = e.target_iid ?? null;
  return iid === null || !e.target_type ? null : `${e.project_id}:${e.target_type}:${iid}`;
}

/** An issue or merge request that events happened to without any of them carrying its title (comments only). */
export interface UntitledTarget {
  key: string;
  projectId: number;
  kind: 'Issue' | 'MergeRequest';
  iid: number;
}

/** What a digest or list must read the title of, at most `max` of them, newest first. */
export function untitledTargets(events: readonly Event[], max = 20): UntitledTarget[] {
  const titled = new Set<string>();
  const wanted = new Map<string, UntitledTarget>();
  for (const e of events) {
    const key = eventTargetKey(e);
    if (key === null) continue;
    if (e.target_title && !e.note) titled.add(key);
    const kind = e.note ? e.note.noteable_type : e.target_type;
    const iid = e.note ? e.note.noteable_iid : e.target_iid;
    if ((kind === 'Issue' || kind === 'MergeRequest') && iid != null && e.project_id !== null && !wanted.has(key)) {
      wanted.set(key, { key, projectId: e.project_id, kind, iid });
    }
  }
  return [...wanted.values()].filter((t) => !titled.has(t.key)).slice(-max);
}

/**
 * The "opened" events that are reopenings: a 9.5 server names both the same, but nothing is opened after it was
 * already there, so an "opened" with anything older on the same target in view is a reopen.
 */
export function reopenings(events: readonly Event[]): Set<Event> {
  const out = new Set<Event>();
  const byTime = [...events].sort(
    (a, b) => (Date.parse(a.created_at ?? '') || 0) - (Date.parse(b.created_at ?? '') || 0),
  );
  const seen = new Set<string>();
  for (const e of byTime) {
    const key = eventTargetKey(e);
    if (key === null) continue;
    if (e.action_name.trim() === 'opened' && seen.has(key)) out.add(e);
    seen.add(key);
  }
  return out;
}

/** How many characters of a comment an event line shows: its first lines, enough to know what was said. */
const COMMENT_SHOWN = 200;

/** The first lines of a comment, as one quoted line. */
export function commentExcerpt(body: string | null | undefined, max = COMMENT_SHOWN): string | null {
  const lines = (body ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('>'));
  if (lines.length === 0) return null;
  return `“${truncate(lines.slice(0, 3).join(' '), max)}”`;
}

/** Older servers and the docs use the action's own name where 9.5 sends a phrase. */
function actionPhrase(e: Event, c: EventContext): string {
  const name = e.action_name.trim();
  switch (name) {
    case 'accepted':
      return 'merged';
    case 'opened':
      return c.reopened?.has(e) ? 'reopened' : 'opened';
    case 'commented':
      return 'commented on';
    case 'pushed':
      return 'pushed to';
    case 'created':
      return e.target_type ? 'opened' : 'created';
    default:
      return name;
  }
}

/** "@alice", linked to their profile when the server says where it is. */
export function eventAuthor(e: Event, serverUrl: string): Md {
  const username = e.author?.username ?? e.author_username;
  return username ? linked(onServer(serverUrl, e.author?.web_url), `@${username}`) : md`user ${e.author_id}`;
}

interface Place {
  project: Project | null;
  /** How references start: '' inside the list's own project, else the project's path. */
  prefix: string;
  page(suffix: string): string | null;
}

function placeOf(e: Event, c: EventContext): Place {
  if (e.project_id === null) return { project: null, prefix: '', page: () => null };
  const project = projectOf(e.project_id, c.projects.get(e.project_id) ?? null);
  return {
    project,
    prefix: e.project_id === c.here ? '' : projectLabel(project),
    page: (suffix) => projectPageUrl(c.serverUrl, project, suffix),
  };
}

const refPath = (ref: string) => ref.split('/').map(encodeURIComponent).join('/');

/** " in demo/web" for sentences that name no reference of their own, outside the list's project. */
function inProject(p: Place, c: EventContext): Md | '' {
  if (!p.project || p.prefix === '') return '';
  return md` in ${linked(projectUrl(c.serverUrl, p.project), projectLabel(p.project))}`;
}

function pushSentence(e: Event, p: Place, c: EventContext): Md {
  const who = eventAuthor(e, c.serverUrl);
  const pd = e.push_data;
  if (!pd) {
    return p.project
      ? md`${who} pushed to ${linked(projectUrl(c.serverUrl, p.project), projectLabel(p.project))}`
      : md`${who} pushed`;
  }
  const kind = pd.ref_type === 'tag' ? 'tag' : 'branch';
  const ref = pd.ref ?? '';
  const refUrl = ref ? p.page(`${kind === 'tag' ? 'tags' : 'commits'}/${refPath(ref)}`) : null;
  const refText = linked(refUrl, ref || `a ${kind}`);
  const latest = pd.commit_title ? md` · ${italic(truncate(pd.commit_title.split('\n')[0] ?? '', 120))}` : '';
  if (pd.action === 'removed' || e.action_name === 'deleted')
    return md`${who} deleted ${kind} ${ref}${inProject(p, c)}`;
  if (pd.action === 'created' || e.action_name === 'pushed new') {
    const more =
      pd.commit_count > 1 ? ` and ${pd.commit_count - 1} more commit${pd.commit_count === 2 ? '' : 's'}` : '';
    return md`${who} pushed new ${kind} ${refText}${inProject(p, c)}${latest}${latest ? more : ''}`;
  }
  const n = pd.commit_count;
  const commits = n > 0 ? `${n} commit${n === 1 ? '' : 's'} ` : '';
  return md`${who} pushed ${commits}to ${kind === 'tag' ? 'tag ' : ''}${refText}${pushRange(pd)}${inProject(p, c)}${latest}`;
}

const shortSha = (sha: string) => sha.slice(0, 7);

/** " (a1b2c3d…e4f5a6b)": what the push moved the ref from and to, when the server says. */
function pushRange(pd: NonNullable<Event['push_data']>): Md | '' {
  return commitRange(pd.commit_from, pd.commit_to);
}

/** " (a1b2c3d…e4f5a6b)" from the shas a ref moved between (short, and only what looks like a sha); '' without an end. */
export function commitRange(from: string | null | undefined, to: string | null | undefined): Md | '' {
  const end = to && /^[0-9a-f]{7,64}$/i.test(to) ? shortSha(to) : null;
  if (!end) return '';
  const start = from && /^[0-9a-f]{7,64}$/i.test(from) ? shortSha(from) : null;
  return md` (${code(start ? `${start}…${end}` : end)})`;
}

/** What an event's target is, as a linked reference: "issue #12", "!3", "snippet $2", "milestone v1.0". */
/** What an event is about; `placed` when its reference already names the project (`demo/web#3`). */
function targetOf(e: Event, p: Place): { ref: Md; title: string | null; placed?: boolean } {
  const title = e.target_title ?? null;
  const iid = e.target_iid ?? null;
  switch (e.target_type) {
    case 'Issue':
      return iid === null
        ? { ref: md`an issue`, title }
        : { ref: md`issue ${linked(p.page(`issues/${iid}`), `${p.prefix}#${iid}`)}`, title, placed: true };
    case 'MergeRequest':
      return iid === null
        ? { ref: md`a merge request`, title }
        : { ref: linked(p.page(`merge_requests/${iid}`), `${p.prefix}!${iid}`), title, placed: true };
    case 'Milestone':
      return { ref: md`milestone`, title: title ?? (iid === null ? null : `%${iid}`) };
    case 'Snippet':
      return e.target_id === null
        ? { ref: md`a snippet`, title }
        : {
            ref: md`snippet ${linked(p.page(`snippets/${e.target_id}`), `${p.prefix}$${e.target_id}`)}`,
            title,
            placed: true,
          };
    case 'Note':
    case 'DiffNote':
    case 'DiscussionNote':
      return { ref: noteTarget(e, p), title, placed: noteNamed(e) };
    default:
      return {
        // `WikiPage::Meta` → "wiki page"
        ref: md`${(e.target_type ?? 'something')
          .replace(/::.*$/, '')
          .replace(/([a-z])([A-Z])/g, '$1 $2')
          .toLowerCase()}`,
        title: title ?? (iid ?? e.target_id)?.toString() ?? null,
      };
  }
}

/** What a comment was on: its note says (9.5 sends it); without it, only that it was a comment. */
/** Whether a comment's target has a reference of its own (which names the project). */
function noteNamed(e: Event): boolean {
  const n = e.note;
  if (n?.noteable_type === 'Issue' || n?.noteable_type === 'MergeRequest') return (n.noteable_iid ?? null) !== null;
  return n?.noteable_type === 'Snippet' && n.noteable_id !== null;
}

function noteTarget(e: Event, p: Place): Md {
  const n = e.note;
  const anchor = n ? `#note_${n.id}` : '';
  const iid = n?.noteable_iid ?? null;
  switch (n?.noteable_type) {
    case 'Issue':
      if (iid !== null) return md`issue ${linked(p.page(`issues/${iid}${anchor}`), `${p.prefix}#${iid}`)}`;
      return md`an issue`;
    case 'MergeRequest':
      if (iid !== null) return linked(p.page(`merge_requests/${iid}${anchor}`), `${p.prefix}!${iid}`);
      return md`a merge request`;
    case 'Snippet':
      if (n.noteable_id !== null) {
        return md`snippet ${linked(p.page(`snippets/${n.noteable_id}${anchor}`), `${p.prefix}$${n.noteable_id}`)}`;
      }
      return md`a snippet`;
    case 'Commit':
      return md`a commit`;
    default:
      return md`a comment`;
  }
}

/** One event as one sentence, without its time. */
export function eventSentence(e: Event, c: EventContext): Md {
  const p = placeOf(e, c);
  if (e.push_data || /^pushed\b/.test(e.action_name)) return pushSentence(e, p, c);
  const who = eventAuthor(e, c.serverUrl);
  const action = actionPhrase(e, c);
  if (!e.target_type) {
    if (!p.project) return md`${who} ${action}`;
    const project = linked(projectUrl(c.serverUrl, p.project), projectLabel(p.project));
    return action === 'created' || action === 'imported'
      ? md`${who} ${action} project ${project}`
      : md`${who} ${action} ${project}`;
  }
  const target = targetOf(e, p);
  const title = target.title ? md` ${bold(truncate(target.title, 120))}` : '';
  const said = commentExcerpt(e.note?.body);
  // A target without a reference of its own ("an issue") still says which project it is in.
  const where = target.placed ? '' : inProject(p, c);
  return md`${who} ${action} ${target.ref}${title}${where}${said ? md`: ${said}` : ''}`;
}

/** One event as a list line: the sentence and when. */
export function eventLine(e: Event, c: EventContext): Md {
  const at = e.created_at ? md` · ${when(e.created_at, c)}` : '';
  return md`${eventSentence(e, c)}${at}`;
}

export function eventRow(e: Event, c: EventContext): Block {
  return section(eventLine(e, c));
}

export function buildEventList(
  events: readonly Event[],
  page: PageInfo,
  o: { title: string; filters: string; place: ListPlace | null; ctx: EventContext; notice?: Notice | undefined },
): SlackMessage {
  const ctx: EventContext = { ...o.ctx, reopened: o.ctx.reopened ?? reopenings(events) };
  return buildList({
    title: o.title,
    filters: o.filters,
    notice: o.notice,
    empty: md`No events${o.filters ? md` match (${o.filters})` : ''}.`,
    items: events,
    row: (e) => eventRow(e, ctx),
    page,
    place: o.place,
  });
}
