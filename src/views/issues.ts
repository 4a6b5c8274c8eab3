import type { Button } from '@slack/types';
import { IssueButtons } from '../buttons/issues.js';
import type { Refusal } from '../errors.js';
import {
  onServer,
  type Project,
  pathOnServer,
  projectButtonKey,
  projectLabel,
  projectOf,
  projectPageUrl,
} from '../gitlab/project.js';
import type { Issue, MergeRequest, TimeStats, UserAgentDetail, UserBasic } from '../gitlab/schemas.js';
import { issueFor } from './audience.js';
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
import { type CardContext, commentCount, descriptionBlock, openButton, when } from './common.js';
import { truncate } from './limits.js';
import { buildList, type ListPlace, type PageInfo } from './lists.js';
import { bold, code, joinMd, linked, type Md, md, mention, type Text } from './mrkdwn.js';
import { noticeBlocks } from './notice.js';
import { humanTime } from './time-tracking.js';

// Issue cards, rows and lists, and the answers of the issue commands that are not cards (time tracking,
// the merge requests that close an issue, how it was created).

const STATE_EMOJI: Record<string, string> = {
  opened: ':large_green_circle:',
  closed: ':large_purple_circle:',
};

export function issueStateEmoji(state: string): string {
  return STATE_EMOJI[state] ?? ':white_circle:';
}

/** "open" reads better than the API's "opened". */
export function issueStateWord(state: string): string {
  return state === 'opened' ? 'open' : state;
}

/** `demo/web#3` */
export function issueRef(project: Project, iid: number): string {
  return `${projectLabel(project)}#${iid}`;
}

export function issueUrl(serverUrl: string, project: Project, issue: Pick<Issue, 'iid' | 'web_url'>): string | null {
  return onServer(serverUrl, issue.web_url) ?? projectPageUrl(serverUrl, project, `issues/${issue.iid}`);
}

/**
 * The project of an issue in a list across projects: its path, read from the issue's web address when that is
 * on this server, else its numeric id.
 */
export function projectOfIssue(issue: Pick<Issue, 'project_id' | 'web_url'>, serverUrl: string): Project {
  const path = pathOnServer(serverUrl, issue.web_url);
  const m = path === null ? null : /^(.+?)\/(?:-\/)?issues\/\d+\/?$/.exec(path);
  if (m?.[1]) return projectOf(issue.project_id, decodeURIComponent(m[1]));
  return projectOf(issue.project_id, null);
}

const person = (u: Pick<UserBasic, 'username'>) => `@${u.username}`;

/** A duration in GitLab's human form: what the server said, else computed the same way. */

function timeText(t: TimeStats | undefined): Text {
  if (!t) return '—';
  const estimate = humanTime(t.human_time_estimate, t.time_estimate);
  const spent = humanTime(t.human_total_time_spent, t.total_time_spent);
  return md`${estimate ? md`estimate ${bold(estimate)}` : 'no estimate'} · ${spent ? md`spent ${bold(spent)}` : 'nothing spent'}`;
}

const DAY_MS = 86_400_000;

/** The due date, and how far it is from today (UTC); red when an open issue is past it. */
export function dueText(due: string | null, state: string, now: Date): Text {
  if (!due) return '—';
  const dueMs = Date.parse(`${due}T00:00:00Z`);
  if (Number.isNaN(dueMs)) return due;
  const today = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  const days = Math.round((dueMs - today) / DAY_MS);
  const plural = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  if (state !== 'opened') return due;
  if (days < 0) return md`:red_circle: ${due} · *overdue* by ${plural(-days)}`;
  if (days === 0) return md`${due} · due today`;
  return md`${due} · in ${plural(days)}`;
}

export interface IssueCardOptions {
  /** Offer a Share button (the new issue's ephemeral card). */
  shareable?: boolean;
}

/** The one text of the delete confirmation, for the card's dialog and the typed prompt alike. */
export function issueConfirmation(project: Project, issue: { iid: number; title?: string }): Confirmation {
  const title = issue.title !== undefined ? md` “${truncate(issue.title, 100)}”` : '';
  return {
    title: 'Delete this issue?',
    question: md`Delete issue ${issueRef(project, issue.iid)}${title}? It is gone for good, with its comments. This cannot be undone.`,
    confirm: 'Delete',
    yes: `Yes, delete issue #${issue.iid}`,
  };
}

export function issueButtons(issue: Issue, project: Project, o: IssueCardOptions = {}): Button[] {
  const v = { p: projectButtonKey(project), i: issue.iid };
  const out: Button[] = [
    issue.state === 'closed'
      ? button({ text: 'Reopen', def: IssueButtons.reopen, value: v })
      : button({ text: 'Close', def: IssueButtons.close, value: v }),
    issue.subscribed
      ? button({ text: 'Unsubscribe', def: IssueButtons.unsubscribe, value: v })
      : button({ text: 'Subscribe', def: IssueButtons.subscribe, value: v }),
    button({ text: 'Add todo', def: IssueButtons.todo, value: v }),
    button({ text: issue.upvotes > 0 ? `👍 ${issue.upvotes}` : '👍', def: IssueButtons.thumbsup, value: v }),
    button({
      text: 'Delete',
      def: IssueButtons.delete,
      value: v,
      style: 'danger',
      confirm: issueConfirmation(project, issue),
    }),
  ];
  if (o.shareable) out.push(button({ text: 'Share', def: IssueButtons.share, value: v, style: 'primary' }));
  return out;
}

export function buildIssueCard(
  issue: Issue,
  project: Project,
  ctx: CardContext,
  options: IssueCardOptions = {},
): SlackMessage {
  const url = issueUrl(ctx.serverUrl, project, issue);
  const ref = issueRef(project, issue.iid);
  const assignees = issue.assignees.length ? issue.assignees.map(person).join(', ') : '—';
  const labels = issue.labels.length
    ? joinMd(
        issue.labels.map((l) => code(l)),
        ' ',
      )
    : '—';
  const milestone = issue.milestone
    ? linked(onServer(ctx.serverUrl, issue.milestone.web_url), issue.milestone.title)
    : '—';
  const closed = issue.state === 'closed' && issue.closed_at ? md` · ${when(issue.closed_at, ctx)}` : '';
  const closedBy = issue.state === 'closed' && issue.closed_by ? md` by ${person(issue.closed_by)}` : '';
  const blocks: Block[] = [
    header(`${issueStateEmoji(issue.state)} #${issue.iid} · ${issue.title}`),
    section(
      md`${bold(linked(url, ref))} ${truncate(issue.title, 255)}${issue.confidential ? ' · :lock: confidential' : ''}`,
    ),
  ];
  const description = descriptionBlock(issue.description);
  if (description) blocks.push(description);
  blocks.push(
    fields([
      md`*State*\n${issueStateEmoji(issue.state)} ${issueStateWord(issue.state)}${closedBy}${closed}`,
      md`*Author*\n${issue.author.name} (${person(issue.author)})`,
      md`*Assignees*\n${assignees}`,
      md`*Labels*\n${labels}`,
      md`*Milestone*\n${milestone}`,
      md`*Due*\n${dueText(issue.due_date, issue.state, ctx.now)}`,
      md`*Votes*\n:thumbsup: ${issue.upvotes} · :thumbsdown: ${issue.downvotes}`,
      md`*Time*\n${timeText(issue.time_stats)}`,
    ]),
  );
  const extra: Text[] = [
    md`${projectLabel(project)} · created ${when(issue.created_at, ctx)} · updated ${when(issue.updated_at, ctx)}`,
  ];
  const comments = commentCount(issue.user_notes_count);
  if (comments) extra.push(comments);
  if (issue.moved_to_id) extra.push(md`:arrow_right: moved: it lives on as issue id ${issue.moved_to_id}`);
  blocks.push(context(extra));
  blocks.push(...noticeBlocks(ctx.notice));
  blocks.push(actions([...issueButtons(issue, project, options), ...openButton(url)]));
  return message(md`Issue ${ref} ${issue.title}: ${issueStateWord(issue.state)}`, blocks);
}

/** What is said when a card was out of date, or an action changed nothing. */
export function issueStaleText(
  what: 'closed' | 'open' | 'subscribed' | 'unsubscribed' | 'todo' | 'upvoted' | 'own',
  o: { by?: string | null } = {},
): Md {
  const by = o.by ? md` by @${o.by}` : '';
  switch (what) {
    case 'closed':
      return md`Already closed${by}.`;
    case 'open':
      return o.by ? md`Already open (reopened by @${o.by}).` : md`Already open.`;
    case 'subscribed':
      return md`Already subscribed: you get its notifications.`;
    case 'unsubscribed':
      return md`Not subscribed: you get no notifications of it.`;
    case 'todo':
      return md`Already on your todo list.`;
    case 'upvoted':
      return md`You already gave it a :thumbsup:.`;
    case 'own':
      return md`You cannot give a :thumbsup: to your own issue.`;
  }
}

export function buildIssueDeleted(
  project: Project,
  { iid, actorId, title }: { iid: number; actorId: string; title?: string },
): SlackMessage {
  const named = title !== undefined ? md` “${truncate(title, 150)}”` : '';
  const text = md`Issue ${issueRef(project, iid)}${named} was deleted by ${mention(actorId)}.`;
  return message(text, [section(md`:wastebasket: ${text}`)]);
}

/** An issue as one list row: reference, title, state, assignees and labels, with a Details button. */
export function issueRow(
  issue: Issue,
  project: Project,
  o: { slot: number | string; serverUrl: string; withProject: boolean },
): Block {
  const url = issueUrl(o.serverUrl, project, issue);
  const ref = o.withProject ? issueRef(project, issue.iid) : `#${issue.iid}`;
  const assignees = issue.assignees.length ? md` · ${issue.assignees.map(person).join(', ')}` : '';
  const labels = issue.labels.length
    ? md` · ${joinMd(
        issue.labels.map((l) => code(l)),
        ' ',
      )}`
    : '';
  const lock = issue.confidential ? ' :lock:' : '';
  const text = md`${issueStateEmoji(issue.state)} ${bold(linked(url, ref))}${lock} ${truncate(issue.title, 150)} · ${issueStateWord(issue.state)}${assignees}${labels}`;
  const value = { p: projectButtonKey(project), i: issue.iid };
  return section(text, button({ text: 'Details', def: IssueButtons.show, value, slot: o.slot }));
}

export function buildIssueList(
  issues: Issue[],
  page: PageInfo,
  o: {
    title: string;
    filters: string;
    place: ListPlace | null;
    ctx: CardContext;
    /** The project of a project's list; null for lists across projects (rows then name theirs). */
    project: Project | null;
    empty: Text;
    /** A line under the rows (what the list leaves out unless asked). */
    hint?: Text;
  },
): SlackMessage {
  return buildList({
    title: o.title,
    filters: o.filters,
    notice: o.ctx.notice,
    empty: o.empty,
    ...(o.hint ? { footer: [context([o.hint])] } : {}),
    items: issues,
    row: (issue, i) =>
      issueRow(issue, o.project ?? projectOfIssue(issue, o.ctx.serverUrl), {
        slot: i,
        serverUrl: o.ctx.serverUrl,
        withProject: o.project === null,
      }),
    page,
    place: o.place,
  });
}

export function buildClosedBy(
  project: Project,
  {
    iid,
    mergeRequests,
    page,
    serverUrl,
  }: { iid: number; mergeRequests: MergeRequest[]; page: PageInfo; serverUrl: string },
): SlackMessage {
  const ref = issueRef(project, iid);
  return buildList({
    title: `Merge requests that close ${ref}`,
    empty: md`No merge request closes ${ref} when merged.`,
    items: mergeRequests,
    row: (mr) => {
      const url = onServer(serverUrl, mr.web_url) ?? projectPageUrl(serverUrl, project, `merge_requests/${mr.iid}`);
      const emoji =
        mr.state === 'merged'
          ? ':white_check_mark:'
          : mr.state === 'opened'
            ? ':large_green_circle:'
            : ':no_entry_sign:';
      return section(
        md`${emoji} ${bold(linked(url, `!${mr.iid}`))} ${truncate(mr.title, 150)} · ${mr.state} · ${person(mr.author)} · ${code(mr.source_branch ?? '?')} → ${code(mr.target_branch)}`,
      );
    },
    page,
    place: null,
  });
}

export function buildIssueAgent(
  project: Project,
  iid: number,
  detail: UserAgentDetail,
  serverUrl: string,
): SlackMessage {
  const ref = issueRef(project, iid);
  const url = projectPageUrl(serverUrl, project, `issues/${iid}`);
  const browser = /^Mozilla\//.test(detail.user_agent);
  return message(md`How issue ${ref} was created: ${detail.user_agent} from ${detail.ip_address}`, [
    section(md`:mag: ${bold(md`How ${linked(url, ref)} was created`)}`),
    fields([
      md`*User agent*\n${code(truncate(detail.user_agent, 500))}`,
      md`*IP address*\n${code(detail.ip_address)}`,
      md`*Through*\n${browser ? 'a web browser' : 'the API (or another non-browser client)'}`,
      md`*Submitted to Akismet*\n${detail.akismet_submitted ? 'yes' : 'no'}`,
    ]),
  ]);
}

const ISSUE_FORBIDDEN: Record<string, string> = {
  close: 'you may not close it: only its author, its assignees and members with the Reporter role can',
  reopen: 'you may not reopen it: only its author, its assignees and members with the Reporter role can',
  edit: 'you may not change it: only its author, its assignees and members with the Reporter role can',
  delete: 'you may not delete it: only owners of the project and administrators can',
  move: 'you may not move it: that needs the Reporter role in both projects',
  estimate: 'you may not track time on it: that needs the Reporter role in the project',
  'reset-estimate': 'you may not track time on it: that needs the Reporter role in the project',
  spend: 'you may not track time on it: that needs the Reporter role in the project',
  'reset-spent': 'you may not track time on it: that needs the Reporter role in the project',
};

function said(message: string | null | undefined): Md | '' {
  const m = message?.trim().replace(/^\d{3}\s+/, '');
  return m ? md` The server said: “${m.slice(0, 300)}”.` : '';
}

export function issueRefusal(r: Refusal, label: string): Md | null {
  if (r.reason?.startsWith('no_target:')) {
    const target = r.reason.slice('no_target:'.length);
    return md`${label} was not moved: there is no project ${code(target)}, or you have no access to it (404). Nothing was moved.`;
  }
  if (r.reason === 'move') return md`${label} cannot be moved (400).${said(r.serverMessage)} Nothing was moved.`;
  if (r.reason === 'time')
    return md`The server refused to change the time tracking of ${label} (400).${said(r.serverMessage)}`;
  if (r.reason === 'admin') {
    return md`Only administrators can see how ${label} was created (403): ask one of them if you need the user agent and IP address.`;
  }
  if (r.reason === 'no_agent') {
    return md`${label} was not found, or the server recorded no user agent for it (404).`;
  }
  if (r.status === 403 && ISSUE_FORBIDDEN[r.action]) return md`${label}: ${ISSUE_FORBIDDEN[r.action]} (403).`;
  return null;
}

/**
 * The answer in a message's thread after "Create issue" on it: "Issue `demo/web#42` *Title* created by @alice",
 * the title linking to the issue on the configured server. Everyone in the channel reads it (audience.ts): a
 * confidential issue's title is not shown, nor the name of a project that is not public.
 */
export function buildIssueCreatedFromMessage(
  project: Project,
  created: Pick<Issue, 'iid' | 'title' | 'web_url' | 'confidential'>,
  { actorId, serverUrl, projectIsPublic = true }: { actorId: string; serverUrl: string; projectIsPublic?: boolean },
): SlackMessage {
  const issue = issueFor('channel', created);
  const title = truncate(issue.title, 255);
  const ref = projectIsPublic
    ? code(issueRef(project, issue.iid))
    : md`#${String(issue.iid)} (in a project that is not public)`;
  const text = md`Issue ${ref} ${bold(linked(issueUrl(serverUrl, project, issue), title))} created by ${mention(actorId)}`;
  return message(text, [section(md`:memo: ${text}`)]);
}
