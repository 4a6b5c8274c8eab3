import type { Button } from '@slack/types';
import { AccountButtons } from '../buttons/common.js';
import { DigestButtons, type DigestSurface } from '../buttons/digests.js';
import type { RunOutcome } from '../digest/types.js';
import type { Refusal } from '../errors.js';
import { projectOf, projectPageUrl, projectUrl } from '../gitlab/project.js';
import type { Event, Todo } from '../gitlab/schemas.js';
import type { Digest, PauseReason } from '../store/digest-store.js';
import {
  actions,
  type Block,
  button,
  type Confirmation,
  context,
  fields,
  header,
  message,
  type SlackMessage,
  section,
} from './blocks.js';
import { type CardContext, linkButton, when } from './common.js';
import { formatDateTime } from './format.js';
import { LIMITS } from './limits.js';
import { bold, code, esc, joinMd, link, linked, Md, md, mention, type Text, toMrkdwn } from './mrkdwn.js';
import { type Notice, noticeBlocks } from './notice.js';
import { todoSubject, todoWhy } from './todos.js';

// Digests as people read them: the posted digest (events grouped by what they happened to, or pending todos by
// project), the digest's own card, the list of a channel's digests, and what the bot says when it pauses one.

// ── what a digest is ──────────────────────────────────────────────────────────────────────────────────────────

/** "events of demo/web", "@bob's events", "pending todos". */
export function digestSubject(d: Digest): string {
  switch (d.kind) {
    case 'project_events':
      return `events of ${d.project?.path ?? 'a project'}`;
    case 'user_events':
      return `@${d.user?.username ?? 'someone'}'s events`;
    case 'todos':
      return 'pending todos';
  }
}

export function digestFilters(d: Digest): string {
  return [d.action ? `--action ${d.action}` : '', d.targetType ? `--target-type ${d.targetType}` : '']
    .filter(Boolean)
    .join(' ');
}

const channelRef = (id: string): Md => (/^[CGD][A-Z0-9]+$/.test(id) ? Md.trusted(`<#${id}>`) : esc(id));

function destination(d: Digest): Md {
  return d.inDm ? md`${mention(d.ownerId)}'s DM` : channelRef(d.channelId);
}

/**
 * A time Slack shows in each reader's own zone, with the digest's zone as the fallback text (for clients and
 * notifications that do not format dates).
 */
export function slackTime(at: Date, zone: string): Md {
  const epoch = Math.floor(at.getTime() / 1000);
  const fallback = formatDateTime(at, zone).replace(/[|>]/g, ' ');
  return Md.trusted(`<!date^${epoch}^{date_short_pretty} {time}|${esc(fallback).text}>`);
}

function pausedWhy(d: Digest): string {
  switch (d.pausedReason) {
    case 'token':
      return "the owner's token was refused; it resumes when they connect again";
    case 'forbidden':
      return 'the server refused the read (403)';
    case 'not_found':
      return 'the server did not find what it reads (404)';
    case 'channel':
      return 'Slack refused the post in its channel';
    default:
      return 'paused by a person';
  }
}

function stateLine(d: Digest): Text {
  if (d.active) return 'active';
  return md`paused${d.pausedBy ? md` by ${mention(d.pausedBy)}` : ''} (${pausedWhy(d)})`;
}

function nextRunText(d: Digest, next: Date | null, c: CardContext): Text {
  if (!d.active) return '— (paused)';
  if (!next) return '—';
  return `${formatDateTime(next, c.timeZone)} (${when(next.toISOString(), c.now)})`;
}

function lastRunText(d: Digest, c: CardContext): string {
  if (!d.lastRunAt) return 'not yet';
  const ago = when(d.lastRunAt.toISOString(), c.now);
  const result = d.lastResult ?? '';
  if (result === 'posted') return `${d.lastItems ?? 0} item${d.lastItems === 1 ? '' : 's'} posted ${ago}`;
  if (result === 'empty') return `nothing new ${ago}`;
  return `${result} ${ago}`;
}

export function removeConfirmation(d: Digest): Confirmation {
  return {
    title: 'Remove this digest?',
    question: md`Remove digest #${d.id} (${digestSubject(d)} in ${destination(d)})? It stops posting and its place in the feed is forgotten.`,
    confirm: 'Remove',
    yes: `Yes, remove digest #${d.id}`,
  };
}

/** Pause or Resume, Run now, Remove; `where` tells the handler what to redraw. */
export function digestButtons(d: Digest, where: DigestSurface, slot?: number): Button[] {
  const v = { d: d.id, w: where };
  return [
    d.active
      ? button({ text: 'Pause', def: DigestButtons.pause, value: v, slot })
      : button({ text: 'Resume', def: DigestButtons.resume, value: v, style: 'primary', slot }),
    button({ text: 'Run now', def: DigestButtons.run, value: v, slot }),
    button({
      text: 'Remove',
      def: DigestButtons.remove,
      value: v,
      style: 'danger',
      confirm: removeConfirmation(d),
      slot,
    }),
  ];
}

// ── the digest's card and the list ────────────────────────────────────────────────────────────────────────────

export function buildDigestCard(d: Digest, next: Date | null, c: CardContext): SlackMessage {
  const filters = digestFilters(d);
  const blocks: Block[] = [
    section(md`:calendar: *Digest #${d.id}* · ${digestSubject(d)} → ${destination(d)}`),
    fields([
      md`*When*\n${code(d.cron)} ${d.tz}`,
      md`*Next run*\n${nextRunText(d, next, c)}`,
      md`*State*\n${stateLine(d)}`,
      md`*Last run*\n${lastRunText(d, c)}`,
      md`*Owner*\n${mention(d.ownerId)}`,
      md`*Filters*\n${filters ? code(filters) : 'none'}`,
    ]),
    context([md`Times in ${c.timeZone} · reads with ${mention(d.ownerId)}'s token`]),
    ...noticeBlocks(c.notice),
    actions(digestButtons(d, 'card')),
  ];
  return message(md`Digest #${d.id}: ${digestSubject(d)}, ${d.active ? 'active' : 'paused'}`, blocks);
}

export function digestRow(d: Digest, next: Date | null, c: CardContext): Text {
  const filters = digestFilters(d);
  const state = d.active ? md`next ${nextRunText(d, next, c)}` : md`:double_vertical_bar: ${stateLine(d)}`;
  return md`*#${d.id}* ${digestSubject(d)} → ${destination(d)} · ${code(d.cron)} ${d.tz}${filters ? md` · ${code(filters)}` : ''} · by ${mention(d.ownerId)}\n${state} · last run: ${lastRunText(d, c)}`;
}

/** Rows that fit one message: two blocks each (the row and its buttons) inside Slack's 50. */
export const DIGEST_LIST_ROWS = 20;

export function buildDigestList(
  here: readonly { digest: Digest; next: Date | null }[],
  dms: readonly { digest: Digest; next: Date | null }[],
  o: { slashCommand: string; ctx: CardContext },
): SlackMessage {
  const blocks: Block[] = [header('Digests'), ...noticeBlocks(o.ctx.notice)];
  const rows = [...here.map((r) => ({ ...r, dm: false })), ...dms.map((r) => ({ ...r, dm: true }))];
  const shown = rows.slice(0, DIGEST_LIST_ROWS);
  if (here.length === 0) {
    blocks.push(
      section(
        md`No digests post in this channel. Start one with ${code(`${o.slashCommand} digest events group/project`)} or ${code(`${o.slashCommand} digest todos --here`)}.`,
      ),
    );
  }
  let dmHeading = false;
  shown.forEach((r, i) => {
    if (r.dm && !dmHeading) {
      blocks.push(context(['Your digests by DM']));
      dmHeading = true;
    }
    blocks.push(section(digestRow(r.digest, r.next, o.ctx)), actions(digestButtons(r.digest, 'list', i)));
  });
  const left = rows.length - shown.length;
  const footer = [`${here.length} in this channel`, `${dms.length} by DM`, `times in ${o.ctx.timeZone}`];
  if (left > 0) footer.push(`${left} more not shown: pause, resume or remove them by id`);
  blocks.push(context([footer.join(' · ')]));
  return message(`Digests: ${here.length} in this channel, ${dms.length} by DM`, blocks);
}

export function buildDigestRemoved(d: Digest, actorId: string): SlackMessage {
  const text = md`Digest #${d.id} (${digestSubject(d)} → ${destination(d)}) was removed by ${mention(actorId)}.`;
  return message(text, [section(md`:wastebasket: ${text}`)]);
}

export function buildDigestNothingNew(d: Digest, since: Date, zone: string): SlackMessage {
  const text = md`Digest #${d.id} (${digestSubject(d)}): nothing new since ${formatDateTime(since, zone)}, so nothing was posted.`;
  return message(text, [section(md`:zzz: ${text}`)]);
}

export function buildDigestRan(d: Digest, items: number): SlackMessage {
  const text = md`Digest #${d.id} posted ${items} item${items === 1 ? '' : 's'} in ${destination(d)}.`;
  return message(text, [section(md`:white_check_mark: ${text}`)]);
}

/** Why a run did not post, when the person who asked for it should know. */
export function buildDigestNotRun(d: Digest, why: Text): SlackMessage {
  const text = md`Digest #${d.id} (${digestSubject(d)}) did not post: ${why}`;
  return message(text, [section(md`:warning: ${text}`)]);
}

export function buildDigestRunning(d: Digest): SlackMessage {
  const text = md`Running digest #${d.id} (${digestSubject(d)}) now: it posts in ${destination(d)} if there is anything new.`;
  return message(text, [section(md`:hourglass_flowing_sand: ${text}`)]);
}

export function buildDigestGone(id: number): SlackMessage {
  const text = md`Digest #${id} no longer exists. Nothing was changed.`;
  return message(text, [section(md`:hourglass: ${text}`)]);
}

/** A todo handled from a digest that has since been removed: only the notice can be shown. */
export function buildTodoHandled(notice: Notice): SlackMessage {
  return message(notice.kind === 'done' ? 'Todo marked done.' : notice.text, noticeBlocks(notice));
}

const PAUSE_WORDS: Record<PauseReason, string> = {
  person: 'it is paused',
  token: "it is paused until its owner connects again (the server refused the owner's token)",
  forbidden: 'it is paused: the server answered 403 for what it reads',
  not_found: 'it is paused: the server answered 404 for what it reads',
  channel: 'it is paused: Slack would not let the bot post in its channel',
};

/** What became of a run, in a few words for a notice or a reply. */
export function runDetail(outcome: RunOutcome, zone: string): string {
  switch (outcome.kind) {
    case 'posted':
    case 'settled':
      return `${outcome.items} item${outcome.items === 1 ? '' : 's'} posted`;
    case 'empty':
      return `nothing new since ${formatDateTime(outcome.since, zone)}; nothing posted`;
    case 'paused':
      return PAUSE_WORDS[outcome.reason];
    case 'inactive':
      return 'it is paused';
    case 'skipped':
      return 'it already ran for this time';
    case 'gone':
      return 'it was removed';
    case 'failed':
      return `the run did not get through (${outcome.error}); it is tried again at its next time`;
  }
}

// ── what the bot says when it pauses digests ──────────────────────────────────────────────────────────────────

/** One DM to the owner when the server refuses their token: every digest it paused, and a Connect button. */
export function buildTokenPauseDm(paused: readonly Digest[], serverUrl: string): SlackMessage {
  const list = joinMd(
    paused.map((d) => md`• #${d.id} ${digestSubject(d)} → ${destination(d)}`),
    '\n',
  );
  const n = paused.length;
  const text = md`${link(serverUrl, serverUrl)} refused your token (401), so ${n === 1 ? 'your digest is' : `your ${n} digests are`} paused:\n${list}\nConnect a new token and ${n === 1 ? 'it resumes' : 'they resume'} on ${n === 1 ? 'its' : 'their'} own; nothing they would have posted is lost.`;
  return message(
    md`Your digests are paused: the server refused your token (401). Connect again to resume ${n === 1 ? 'it' : 'them'}.`,
    [
      section(md`:pause_button: ${text}`),
      actions([button({ text: 'Connect', def: AccountButtons.connect, value: {}, style: 'primary' })]),
    ],
  );
}

export function buildResumedDm(resumed: readonly Digest[]): SlackMessage {
  const list = joinMd(
    resumed.map((d) => md`#${d.id} ${digestSubject(d)}`),
    ', ',
  );
  const text = md`You are connected again, so ${resumed.length === 1 ? 'this digest runs' : 'these digests run'} again: ${list}. The next one covers everything since the last.`;
  return message(text, [section(md`:arrow_forward: ${text}`)]);
}

/** Said once in the digest's channel when the server refuses what it reads. */
export function buildReadRefusedNotice(d: Digest, status: 403 | 404, slashCommand: string): SlackMessage {
  const what =
    d.kind === 'project_events'
      ? md`the project ${d.project?.path ?? ''}`
      : d.kind === 'user_events'
        ? md`the user @${d.user?.username ?? ''}`
        : md`the todos`;
  const why =
    status === 404
      ? md`the server did not find ${what} with ${mention(d.ownerId)}'s token (404): it is gone, or they lost access`
      : md`the server refused ${mention(d.ownerId)}'s token for ${what} (403)`;
  const text = md`Digest #${d.id} (${digestSubject(d)}) is paused: ${why}. ${mention(d.ownerId)} can resume it with ${code(`${slashCommand} digest resume ${d.id}`)}.`;
  return message(text, [section(md`:pause_button: ${text}`)]);
}

export function buildChannelRefusedDm(d: Digest, error: string, slashCommand: string): SlackMessage {
  const text = md`Digest #${d.id} (${digestSubject(d)}) is paused: Slack refused to post in ${channelRef(d.channelId)} (${code(error)}). Invite the bot there, then resume it with ${code(`${slashCommand} digest resume ${d.id}`)}.`;
  return message(text, [section(md`:pause_button: ${text}`)]);
}

// ── the posted digest: events ─────────────────────────────────────────────────────────────────────────────────

export interface EventsDigestInput {
  digest: Digest;
  /** Oldest first. */
  events: readonly Event[];
  /** Paths of the projects the events happened in, by id. */
  projectPaths: ReadonlyMap<number, string>;
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
  for (const e of events) {
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
    const verb = VERBS[e.action_name] ?? e.action_name;
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
  const lastTitle = events.at(-1)?.push_data?.commit_title;
  return md`${who} pushed ${commits} commit${commits === 1 ? '' : 's'} to ${refLink}${lastTitle ? md` (latest: “${shortTitle(lastTitle)}”)` : ''}`;
}

function groupLine(g: Group, input: EventsDigestInput, withProject: boolean): Text {
  const first = g.events[0] as Event;
  const t = targetOf(first, 0);
  const path = t.projectId === null ? null : (input.projectPaths.get(t.projectId) ?? null);
  const project = path ? projectOf(path) : null;
  const prefix = withProject && path ? path : '';
  const page = (suffix: string) => (project ? projectPageUrl(input.serverUrl, project, suffix) : null);
  const found = g.events.map((e) => e.target_title).find((x): x is string => typeof x === 'string' && x !== '');
  const title = found === undefined ? undefined : shortTitle(found);
  const named = (label: string, url: string | null) =>
    md`${linked(url, `${prefix}${label}`)}${title ? md` ${bold(title)}` : ''}: ${happenings(g.events)}`;
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

export function digestTitle(d: Digest): string {
  switch (d.kind) {
    case 'project_events':
      return `:newspaper: ${d.project?.path ?? 'Project'}: what happened`;
    case 'user_events':
      return `:newspaper: @${d.user?.username ?? 'someone'}: what they did`;
    case 'todos':
      return ':ballot_box_with_check: Pending todos';
  }
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
      md`${input.events.length} event${input.events.length === 1 ? '' : 's'}${input.truncated ? '+' : ''} from ${slackTime(input.since, d.tz)} to ${slackTime(input.until, d.tz)}${filters ? md` · ${code(filters)}` : ''} · digest #${d.id}`,
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
export function todoRow(t: Todo, digestId: number, now: Date, slot: number): Block {
  return section(
    md`${todoSubject(t, { short: true })} · ${todoWhy(t)} · ${when(t.created_at, now)}`,
    button({ text: 'Done', def: DigestButtons.done, value: { d: digestId, t: t.id }, slot }),
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
  const byProject = new Map<string, Todo[]>();
  for (const t of input.todos) {
    const key = t.project.path_with_namespace;
    byProject.set(key, [...(byProject.get(key) ?? []), t]);
  }
  const blocks: Block[] = [
    header(d.inDm || !input.ownerName ? digestTitle(d) : `:ballot_box_with_check: @${input.ownerName}'s pending todos`),
    context([
      md`${input.todos.length}${input.truncated ? '+' : ''} pending as of ${slackTime(input.now, d.tz)} · digest #${d.id}`,
    ]),
    ...noticeBlocks(input.notice),
  ];
  // Room is kept for the overflow line and the buttons at the end.
  const room = LIMITS.messageBlocks - 2;
  let rows = 0;
  for (const [path, todos] of byProject) {
    if (rows >= TODO_ROWS || blocks.length + 2 > room) break;
    const project = todos[0]?.project;
    blocks.push(section(md`*${linked(project?.web_url ?? projectUrl(input.serverUrl, projectOf(path)), path)}*`));
    for (const t of todos) {
      if (rows >= TODO_ROWS || blocks.length + 1 > room) break;
      blocks.push(todoRow(t, d.id, input.now, rows));
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
      ? [button({ text: 'Mark all done', def: DigestButtons.alldone, value: { d: d.id }, style: 'primary' as const })]
      : [];
  blocks.push(digestActions(d, markAll));
  const text = md`${input.todos.length} pending todo${input.todos.length === 1 ? '' : 's'}${input.ownerName && !d.inDm ? md` of @${input.ownerName}` : ''}`;
  return message(text, blocks);
}

// ── refusals ──────────────────────────────────────────────────────────────────────────────────────────────────

export function digestRefusal(r: Refusal, label: string): Md | null {
  switch (r.reason) {
    case 'not_owner':
      return md`${label}: only its owner or a workspace admin may ${r.action} it.`;
    case 'elsewhere':
      return md`${label} posts in another channel: run it from there.`;
    case 'not_yours':
      return md`These are someone else's todos: only they can mark them done.`;
    case 'gone':
      return md`${label} no longer exists.`;
    default:
      return null;
  }
}
