import type { Button } from '@slack/types';
import { DigestButtons } from '../buttons/digests.js';
import { onServer, projectOf, projectPageUrl, projectUrl } from '../gitlab/project.js';
import type { Event, Todo } from '../gitlab/schemas.js';
import type { Digest } from '../store/digest-store.js';
import { type Audience, todoFor } from './audience.js';
import { actions, type Block, button, context, header, message, type SlackMessage, section } from './blocks.js';
import { type CardContext, linkButton, type TimeContext, when } from './common.js';
import { digestFilters, digestTitle, removeConfirmation } from './digests.js';
import { commentExcerpt, commitRange, eventTargetKey } from './events.js';
import { formatDateTime, slackDate } from './format.js';
import { LIMITS } from './limits.js';
import { bold, code, link, linked, Md, md, type Text, toMrkdwn } from './mrkdwn.js';
import { noticeBlocks } from './notice.js';
import { MARK_ALL_DONE, todoSubject, todoWhy } from './todos.js';

// The posted digest: events grouped by what they happened to, newest last, or pending todos by project.

// ── the posted digest: events ─────────────────────────────────────────────────────────────────────────────────

export interface EventsDigestInput {
  digest: Digest;
  /** Oldest first. */
  events: readonly Event[];
  /** Paths of the projects the events happened in, by id. */
  projectPaths: ReadonlyMap<number, string>;
  /**
   * Titles of what the events happened to, by `eventTargetKey`, for groups whose events carry none (a 9.5
   * server sends a comment without the title of what it is on).
   */
  titles?: ReadonlyMap<string, string>;
  serverUrl: string;
  since: Date;
  until: Date;
  /** The read stopped before reaching the cursor: there were more than it read. */
  truncated: boolean;
}

interface Group {
  key: string;
  /** Events in it, oldest first. */
  events: Event[];
  newest: number;
}

const authorOf = (e: Event): string => e.author?.username ?? e.author_username ?? `user ${e.author_id}`;

const timeOf = (e: Event) => Date.parse(e.created_at ?? '') || 0;

/** What an event is about, as the key of its group and its label, link and title. */
interface Target {
  key: string;
  kind: 'issue' | 'merge_request' | 'snippet' | 'milestone' | 'push' | 'other';
  projectId: number | null;
  iid: number | null;
}

function targetOf(e: Event, index: number): Target {
  const pid = e.project_id;
  const note = e.note;
  const type = e.target_type === 'Note' || note ? (note?.noteable_type ?? 'Note') : e.target_type;
  const iid =
    e.target_type === 'Note' || note
      ? (note?.noteable_iid ?? note?.noteable_id ?? null)
      : (e.target_iid ?? e.target_id);
  switch (type) {
    case 'Issue':
      return { key: `${pid}:issue:${iid}`, kind: 'issue', projectId: pid, iid };
    case 'MergeRequest':
      return { key: `${pid}:mr:${iid}`, kind: 'merge_request', projectId: pid, iid };
    case 'Snippet':
      return { key: `${pid}:snippet:${iid}`, kind: 'snippet', projectId: pid, iid };
    case 'Milestone':
      return { key: `${pid}:milestone:${e.target_id}`, kind: 'milestone', projectId: pid, iid };
    default:
      if (e.push_data) {
        return {
          key: `${pid}:push:${e.author_id}:${e.push_data.ref ?? ''}:${e.push_data.action}`,
          kind: 'push',
          projectId: pid,
          iid: null,
        };
      }
      return { key: `${pid}:other:${index}`, kind: 'other', projectId: pid, iid: null };
  }
}

const VERBS: Record<string, string> = {
  opened: 'opened',
  created: 'opened',
  closed: 'closed',
  reopened: 'reopened',
  accepted: 'merged',
  merged: 'merged',
  updated: 'updated',
  destroyed: 'deleted',
};

/** Lines stay short whatever the server sends: titles and lists of people are cut. */
const MAX_TITLE = 150;
const MAX_AUTHORS = 5;
const MAX_PARTS = 8;

const shortTitle = (t: string) => (t.length > MAX_TITLE ? `${t.slice(0, MAX_TITLE - 1)}…` : t);

const isComment = (e: Event) => e.action_name.startsWith('commented') || e.target_type === 'Note';

/** "opened by @bob, 3 comments by @bob, @eve, merged by @alice": in order, comments counted where they start. */
function happenings(events: readonly Event[]): Text {
  const parts: { verb: string; authors: string[]; comments: number }[] = [];
  let comments: { verb: string; authors: string[]; comments: number } | null = null;
  for (const [i, e] of events.entries()) {
    const who = authorOf(e);
    if (isComment(e)) {
      if (!comments) {
        comments = { verb: 'comment', authors: [], comments: 0 };
        parts.push(comments);
      }
      comments.comments += 1;
      if (!comments.authors.includes(who)) comments.authors.push(who);
      continue;
    }
    // A 9.5 server names a reopen "opened": nothing is opened after something already happened to it.
    const verb = e.action_name === 'opened' && i > 0 ? 'reopened' : (VERBS[e.action_name] ?? e.action_name);
    const last = parts.at(-1);
    if (last && last.verb === verb && last.comments === 0) {
      if (!last.authors.includes(who)) last.authors.push(who);
    } else parts.push({ verb, authors: [who], comments: 0 });
  }
  const by = (authors: string[]) => {
    const named = authors.slice(0, MAX_AUTHORS).map((a) => `@${a}`);
    return authors.length > MAX_AUTHORS
      ? `${named.join(', ')} and ${authors.length - MAX_AUTHORS} more`
      : named.join(', ');
  };
  const said = parts.map((p) =>
    p.comments > 0
      ? `${p.comments} comment${p.comments === 1 ? '' : 's'} by ${by(p.authors)}`
      : `${p.verb} by ${by(p.authors)}`,
  );
  // A long back and forth keeps how it started and how it ended.
  return said.length > MAX_PARTS
    ? [...said.slice(0, 2), '…', ...said.slice(2 - MAX_PARTS)].join(', ')
    : said.join(', ');
}

/** The newest comment of a group, quoted under its line and linked to the note: what people read a digest for. */
function lastComment(events: readonly Event[], noteUrl: (id: number) => string | null): Text {
  const e = events.findLast((x) => isComment(x) && x.note?.body);
  const excerpt = e ? commentExcerpt(e.note?.body) : null;
  if (!e || !excerpt || !e.note) return '';
  return md`\n      ↳ @${authorOf(e)}: ${linked(noteUrl(e.note.id), excerpt)}`;
}

function pushLine(events: readonly Event[], url: string | null): Text {
  const first = events[0];
  const data = first?.push_data;
  if (!first || !data) return '';
  const ref = data.ref ?? 'a branch';
  const refLink = linked(url, ref);
  const who = `@${authorOf(first)}`;
  if (data.action === 'created') return md`${who} pushed the new ${data.ref_type} ${refLink}`;
  if (data.action === 'removed') return md`${who} deleted the ${data.ref_type} ${ref}`;
  const commits = events.reduce((n, e) => n + (e.push_data?.commit_count ?? 0), 0);
  const last = events.at(-1)?.push_data;
  const lastTitle = last?.commit_title;
  // The pushes of a group, oldest first: the range runs from the first one's start to the last one's end.
  const range = commitRange(data.commit_from, last?.commit_to);
  return md`${who} pushed ${commits} commit${commits === 1 ? '' : 's'} to ${refLink}${range}${lastTitle ? md` (latest: “${shortTitle(lastTitle)}”)` : ''}`;
}

function groupLine(g: Group, input: EventsDigestInput, withProject: boolean): Text {
  const first = g.events[0] as Event;
  const t = targetOf(first, 0);
  const path = t.projectId === null ? null : (input.projectPaths.get(t.projectId) ?? null);
  const project = path ? projectOf(path) : null;
  const prefix = withProject && path ? path : '';
  const page = (suffix: string) => (project ? projectPageUrl(input.serverUrl, project, suffix) : null);
  const targetKey = eventTargetKey(first);
  const found =
    g.events.map((e) => e.target_title).find((x): x is string => typeof x === 'string' && x !== '') ??
    (targetKey === null ? undefined : input.titles?.get(targetKey));
  const title = found === undefined ? undefined : shortTitle(found);
  const named = (label: string, url: string | null) =>
    md`${linked(url, `${prefix}${label}`)}${title ? md` ${bold(title)}` : ''}: ${happenings(g.events)}${lastComment(g.events, (id) => (url ? `${url}#note_${id}` : null))}`;
  switch (t.kind) {
    case 'issue':
      return named(`#${t.iid}`, page(`issues/${t.iid}`));
    case 'merge_request':
      return named(`!${t.iid}`, page(`merge_requests/${t.iid}`));
    case 'snippet':
      return named(`$${t.iid}`, page(`snippets/${t.iid}`));
    case 'milestone':
      return named(`%${title ?? t.iid ?? ''}`, page('milestones'));
    case 'push': {
      const ref = first.push_data?.ref;
      const url = ref ? page(`commits/${encodeURIComponent(ref)}`) : null;
      return md`${withProject && path ? md`${path}: ` : ''}${pushLine(g.events, url)}`;
    }
    default: {
      const where = path ?? (first.project_id !== null ? `project ${first.project_id}` : '');
      const what = shortTitle(first.target_title ?? first.title ?? '');
      return md`@${authorOf(first)} ${first.action_name}${what ? md` ${bold(what)}` : ''}${where ? md` ${linked(project ? projectUrl(input.serverUrl, project) : null, where)}` : ''}`;
    }
  }
}

function groupsOf(events: readonly Event[]): Group[] {
  const byKey = new Map<string, Group>();
  events.forEach((e, i) => {
    const key = targetOf(e, i).key;
    const g = byKey.get(key);
    if (g) {
      g.events.push(e);
      g.newest = Math.max(g.newest, timeOf(e));
    } else byKey.set(key, { key, events: [e], newest: timeOf(e) });
  });
  return [...byKey.values()].sort((a, b) => a.newest - b.newest);
}

/** Where "all of it" is on the server: the project's or the user's activity page. */
function activityUrl(d: Digest, serverUrl: string): string | null {
  if (d.kind === 'project_events' && d.project) return projectPageUrl(serverUrl, projectOf(d.project.path), 'activity');
  if (d.kind === 'user_events' && d.user) return `${serverUrl}/users/${encodeURIComponent(d.user.username)}/activity`;
  return null;
}

/** Lines packed into sections of at most this many characters (Slack allows 3000). */
const SECTION_BUDGET = 2800;
/** Sections of lines, leaving room for the header, the span, the overflow line and the buttons. */
const MAX_LINE_SECTIONS = 40;

function digestActions(d: Digest, extra: Button[] = []): Block {
  return actions([
    ...extra,
    button({ text: 'Pause', def: DigestButtons.pause, value: { d: d.id, w: 'post' } }),
    button({
      text: 'Remove',
      def: DigestButtons.remove,
      value: { d: d.id, w: 'post' },
      style: 'danger',
      confirm: removeConfirmation(d),
    }),
  ]);
}

/** An events digest: one line per thing that happened to something, newest last, within one message. */
export function buildEventsDigest(input: EventsDigestInput): SlackMessage {
  const d = input.digest;
  const withProject = d.kind === 'user_events';
  const lines = groupsOf(input.events).map((g) => ({
    text: toMrkdwn(groupLine(g, input, withProject)),
    count: g.events.length,
  }));
  // Newest last; when not everything fits, the oldest lines give way.
  const sections: string[][] = [];
  let shownEvents = 0;
  let size = 0;
  let current: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as { text: string; count: number };
    if (size + line.text.length + 1 > SECTION_BUDGET) {
      sections.unshift(current);
      if (sections.length >= MAX_LINE_SECTIONS) {
        current = [];
        break;
      }
      current = [];
      size = 0;
    }
    current.unshift(line.text);
    size += line.text.length + 1;
    shownEvents += line.count;
  }
  if (current.length) sections.unshift(current);
  const hidden = input.events.length - shownEvents;
  const more = hidden === 0 ? 'more' : input.truncated ? `${hidden} and more` : String(hidden);
  const url = activityUrl(d, input.serverUrl);
  const filters = digestFilters(d);
  const blocks: Block[] = [
    header(digestTitle(d)),
    context([
      md`${input.events.length} event${input.events.length === 1 ? '' : 's'}${input.truncated ? '+' : ''} from ${slackDate(input.since, d.tz)} to ${slackDate(input.until, d.tz)}${filters ? md` · ${code(filters)}` : ''} · digest #${d.id}`,
    ]),
  ];
  if (hidden > 0 || input.truncated) {
    blocks.push(context([md`…and ${more} earlier: ${linked(url, 'see all activity')}`]));
  }
  for (const s of sections) blocks.push(section(Md.trusted(s.join('\n'))));
  blocks.push(digestActions(d, url ? [linkButton('All activity', url, 'activity')] : []));
  const subject = d.kind === 'user_events' ? `@${d.user?.username ?? ''}` : (d.project?.path ?? '');
  return message(
    md`${subject}: ${input.events.length} new event${input.events.length === 1 ? '' : 's'} since ${formatDateTime(input.since, d.tz)}`,
    blocks,
  );
}

// ── the posted digest: todos ──────────────────────────────────────────────────────────────────────────────────

const TODO_ROWS = 40;

/** A todo of a digest: the same words as the todo list (todos.ts), with a Done button that redraws the digest. */
export function todoRow(
  todo: Todo,
  { digestId, at, slot }: { digestId: number; at: TimeContext & { serverUrl: string }; slot: number },
): Block {
  return section(
    md`${todoSubject(todo, { serverUrl: at.serverUrl, short: true })} · ${todoWhy(todo)} · ${when(todo.created_at, at)}`,
    button({ text: 'Done', def: DigestButtons.done, value: { d: digestId, t: todo.id }, slot }),
  );
}

export interface TodosDigestInput {
  digest: Digest;
  todos: readonly Todo[];
  /** More pending todos than were read. */
  truncated: boolean;
  serverUrl: string;
  now: Date;
  /** The owner's server username, for the header of a digest in a channel. */
  ownerName: string | null;
  notice?: CardContext['notice'];
}

/** Pending todos grouped by project, each with why it is there and a Done button; Mark all done at the end. */
export function buildTodosDigest(input: TodosDigestInput): SlackMessage {
  const d = input.digest;
  const audience: Audience = d.inDm ? 'person' : 'channel';
  const byProject = new Map<string, Todo[]>();
  for (const t of input.todos.map((todo) => todoFor(audience, todo))) {
    const key = t.project.path_with_namespace;
    byProject.set(key, [...(byProject.get(key) ?? []), t]);
  }
  const blocks: Block[] = [
    header(d.inDm || !input.ownerName ? digestTitle(d) : `:ballot_box_with_check: @${input.ownerName}'s pending todos`),
    context([
      md`${input.todos.length}${input.truncated ? '+' : ''} pending as of ${slackDate(input.now, d.tz)} · digest #${d.id}`,
    ]),
    ...noticeBlocks(input.notice),
  ];
  // Room is kept for the overflow line and the buttons at the end.
  const room = LIMITS.messageBlocks - 2;
  let rows = 0;
  for (const [path, todos] of byProject) {
    if (rows >= TODO_ROWS || blocks.length + 2 > room) break;
    const project = todos[0]?.project;
    blocks.push(
      section(
        md`*${linked(onServer(input.serverUrl, project?.web_url) ?? projectUrl(input.serverUrl, projectOf(path)), path)}*`,
      ),
    );
    for (const t of todos) {
      if (rows >= TODO_ROWS || blocks.length + 1 > room) break;
      blocks.push(
        todoRow(t, {
          digestId: d.id,
          at: { serverUrl: input.serverUrl, now: input.now, timeZone: d.tz, shared: !d.inDm },
          slot: rows,
        }),
      );
      rows += 1;
    }
  }
  const hidden = input.todos.length - rows;
  const all = `${input.serverUrl}/dashboard/todos`;
  if (hidden > 0 || input.truncated) {
    blocks.push(context([md`…and ${hidden}${input.truncated ? ' or more' : ''} more: ${link(all, 'all your todos')}`]));
  }
  if (input.todos.length === 0) blocks.push(section(':tada: No pending todos.'));
  const markAll =
    input.todos.length > 0
      ? [
          button({
            text: 'Mark all done',
            def: DigestButtons.alldone,
            value: { d: d.id },
            style: 'primary' as const,
            confirm: MARK_ALL_DONE,
          }),
        ]
      : [];
  blocks.push(digestActions(d, markAll));
  const text = md`${input.todos.length} pending todo${input.todos.length === 1 ? '' : 's'}${input.ownerName && !d.inDm ? md` of @${input.ownerName}` : ''}`;
  return message(text, blocks);
}
