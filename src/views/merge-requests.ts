import type { Button } from '@slack/types';
import { MrButtons } from '../buttons/merge-requests.js';
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
import type { MergeRequest, MergeRequestSimple, PipelineBasic } from '../gitlab/schemas.js';
import {
  actions,
  type Block,
  button,
  type Confirmation,
  context,
  fields,
  message,
  type SlackMessage,
  section,
} from './blocks.js';
import { type CardContext, commentCount, descriptionBlock, openButton, when } from './common.js';
import { truncate } from './limits.js';
import { buildList, type ListPlace, type PageInfo } from './lists.js';
import { mergeBlocker, mergedDetail, openMergeValue } from './merge-request-merging.js';
import { bold, code, linked, type Md, md, mention, type Text } from './mrkdwn.js';
import { type Notice, noticeBlocks } from './notice.js';
import { shortSha, statusBadge } from './status.js';

// Merge requests as people scan them: a card whose buttons fit the state (Merge pinned to the head sha
// the card shows), list rows, the delete confirmation, time figures, and the words for refusals. What
// merging says and the merge modal are in merge-request-merging.ts.

type ListItem = MergeRequest | MergeRequestSimple;

const STATES: Record<string, { emoji: string; word: string }> = {
  opened: { emoji: ':large_green_circle:', word: 'open' },
  merged: { emoji: ':large_purple_circle:', word: 'merged' },
  closed: { emoji: ':red_circle:', word: 'closed' },
  locked: { emoji: ':lock:', word: 'locked' },
};

export function stateBadge(state: string): Md {
  const s = STATES[state];
  return s ? md`${s.emoji} ${s.word}` : md`:grey_question: ${state}`;
}

const ACTIVE_PIPELINE = new Set(['created', 'pending', 'running']);

/** `demo/web!2`, as references are written. */
export function mrRef(project: Project, iid: number): string {
  return `${projectLabel(project)}!${iid}`;
}

export function mergeRequestUrl(serverUrl: string, project: Project, mr: Pick<ListItem, 'iid' | 'web_url'>) {
  return onServer(serverUrl, mr.web_url) ?? projectPageUrl(serverUrl, project, `merge_requests/${mr.iid}`);
}

/**
 * The project of a merge request from a list across projects: its path from the web address when that is
 * on the configured server, else its numeric id (looked up when a button needs it).
 */
export function projectOfMergeRequest(mr: ListItem, serverUrl: string): Project {
  const path = pathOnServer(serverUrl, mr.web_url);
  const m = path === null ? null : /^(.+?)\/(?:-\/)?merge_requests\/\d+\/?$/.exec(path);
  if (m?.[1]) return projectOf(mr.project_id, decodeURIComponent(m[1]));
  return projectOf(mr.project_id);
}

/** Where a merge request stands on merging, with an emoji that reads at a glance. */
export function mergeStatusBadge(mr: Pick<MergeRequest, 'state' | 'merge_status' | 'work_in_progress'>): Md {
  if (mr.state === 'merged') return md`:twisted_rightwards_arrows: merged`;
  if (mr.state !== 'opened') return md`:no_entry_sign: not open`;
  if (mr.work_in_progress) return md`:construction: work in progress`;
  switch (mr.merge_status) {
    case 'can_be_merged':
      return md`:white_check_mark: can be merged`;
    case 'cannot_be_merged':
      return md`:warning: has conflicts`;
    default:
      return md`:hourglass: checking`;
  }
}

type CardButton =
  | 'merge'
  | 'autoMerge'
  | 'cancelAutoMerge'
  | 'close'
  | 'reopen'
  | 'subscribe'
  | 'unsubscribe'
  | 'todo'
  | 'changes';

/** The buttons a merge request's state allows, in the order they appear on its card. */
export function mergeRequestButtonsFor(mr: MergeRequest, pipeline: PipelineBasic | null): CardButton[] {
  const out: CardButton[] = [];
  const open = mr.state === 'opened';
  if (open && mr.sha && !mergeBlocker(mr)) {
    if (mr.merge_when_pipeline_succeeds) out.push('cancelAutoMerge');
    else if (pipeline && pipeline.sha === mr.sha && ACTIVE_PIPELINE.has(pipeline.status))
      out.push('autoMerge', 'merge');
    else out.push('merge');
  } else if (open && mr.merge_when_pipeline_succeeds) out.push('cancelAutoMerge');
  if (open) out.push('close');
  if (mr.state === 'closed') out.push('reopen');
  out.push(mr.subscribed ? 'unsubscribe' : 'subscribe', 'todo', 'changes');
  return out;
}

/** Merge: opens the merge modal pinned to the head sha this merge request has now (cards, the Home tab). */
export function mergeButton(mr: MergeRequest, project: Project, slot?: number | string): Button {
  return button({
    text: 'Merge',
    def: MrButtons.merge,
    value: openMergeValue(mr, project),
    style: 'primary',
    ...(slot !== undefined ? { slot } : {}),
  });
}

/** Whether the card of this merge request (as a list shows it, without its pipeline) offers Merge now. */
export function offersMerge(mr: MergeRequest): boolean {
  return mergeRequestButtonsFor(mr, null).includes('merge');
}

function cardButton(kind: CardButton, mr: MergeRequest, project: Project): Button {
  const value = { p: projectButtonKey(project), i: mr.iid };
  switch (kind) {
    case 'merge':
      return mergeButton(mr, project);
    case 'autoMerge':
      return button({
        text: 'Merge when pipeline succeeds',
        def: MrButtons.autoMerge,
        value: openMergeValue(mr, project),
        style: 'primary',
      });
    case 'cancelAutoMerge':
      return button({ text: 'Cancel auto-merge', def: MrButtons.cancelAutoMerge, value });
    case 'close':
      return button({ text: 'Close', def: MrButtons.close, value });
    case 'reopen':
      return button({ text: 'Reopen', def: MrButtons.reopen, value });
    case 'subscribe':
      return button({ text: 'Subscribe', def: MrButtons.subscribe, value });
    case 'unsubscribe':
      return button({ text: 'Unsubscribe', def: MrButtons.unsubscribe, value });
    case 'todo':
      return button({ text: 'Add todo', def: MrButtons.todo, value });
    case 'changes':
      return button({ text: 'Changes', def: MrButtons.changes, value });
  }
}

const person = (u: { name: string; username: string } | null | undefined): Text =>
  u ? md`${u.name} (@${u.username})` : '—';

export function buildMergeRequestCard(
  mr: MergeRequest,
  project: Project,
  c: CardContext & { pipeline: PipelineBasic | null },
): SlackMessage {
  const url = mergeRequestUrl(c.serverUrl, project, mr);
  const pipeline = c.pipeline;
  const pipelineUrl = pipeline
    ? (onServer(c.serverUrl, pipeline.web_url) ?? projectPageUrl(c.serverUrl, project, `pipelines/${pipeline.id}`))
    : null;
  const state = md`${stateBadge(mr.state)}${mr.work_in_progress && mr.state === 'opened' ? md` · :construction: WIP` : ''}`;
  const branches = mr.source_branch
    ? md`${code(mr.source_branch)} → ${code(mr.target_branch)}`
    : code(mr.target_branch);
  const labels = mr.labels.length > 0 ? truncate(mr.labels.join(', '), 300) : '—';
  const blocks: Block[] = [
    section(
      md`${STATES[mr.state]?.emoji ?? ':grey_question:'} ${bold(linked(url, `!${mr.iid} ${truncate(mr.title, 200)}`))}`,
    ),
    fields([
      md`*State*\n${state}`,
      md`*Merge status*\n${mergeStatusBadge(mr)}`,
      md`*Branches*\n${branches}`,
      md`*Head*\n${code(shortSha(mr.sha))}`,
      md`*Author*\n${person(mr.author)}`,
      md`*Assignee*\n${person(mr.assignee)}`,
      md`*Pipeline*\n${pipeline ? md`${statusBadge(pipeline.status)} ${linked(pipelineUrl, `#${pipeline.id}`)}` : '—'}`,
      md`*Milestone*\n${mr.milestone ? mr.milestone.title : '—'}`,
      md`*Labels*\n${labels}`,
      md`*Votes*\n:thumbsup: ${mr.upvotes} · :thumbsdown: ${mr.downvotes}`,
    ]),
  ];
  const description = descriptionBlock(mr.description);
  // Under the title, as on the issue card (the fields are at Slack's limit of ten).
  if (description) blocks.splice(1, 0, description);
  const removes = mr.should_remove_source_branch === true || mr.force_remove_source_branch === true;
  if (mr.state === 'opened' && mr.merge_when_pipeline_succeeds) {
    const by = mr.merge_user ? md` by @${mr.merge_user.username}` : '';
    blocks.push(section(md`:clock3: Set to merge when the pipeline succeeds${by}.`));
  }
  if (mr.state === 'merged') {
    const at = mr.merged_at ? md` ${when(mr.merged_at, c)}` : '';
    const by = mr.merged_by ? md` by @${mr.merged_by.username}` : '';
    blocks.push(section(md`:twisted_rightwards_arrows: Merged${by}${at} · ${mergedDetail(mr)}`));
  }
  const extra: Text[] = [
    md`${projectLabel(project)} · opened ${when(mr.created_at, c)}${mr.updated_at ? md` · updated ${when(mr.updated_at, c)}` : ''}`,
  ];
  if (mr.state === 'closed' && mr.closed_at) extra.push(md`closed ${when(mr.closed_at, c)}`);
  const comments = commentCount(mr.user_notes_count);
  if (comments) extra.push(comments);
  if (mr.state === 'opened' && removes && mr.source_branch)
    extra.push(md`${code(mr.source_branch)} is deleted once merged`);
  blocks.push(context(extra));
  blocks.push(...noticeBlocks(c.notice));
  blocks.push(
    actions([...mergeRequestButtonsFor(mr, pipeline).map((b) => cardButton(b, mr, project)), ...openButton(url)]),
  );
  return message(
    md`Merge request ${mrRef(project, mr.iid)} ${mr.title}: ${STATES[mr.state]?.word ?? mr.state}`,
    blocks,
  );
}

function isFull(mr: ListItem): mr is MergeRequest {
  return 'target_branch' in mr;
}

/** One merge request as a list row; lists across projects name the project in the reference. */
/** Why a row that reads "can be merged" offers no Merge: it is already set to merge when its pipeline succeeds. */
function autoMergeNote(mr: Pick<MergeRequest, 'state' | 'merge_when_pipeline_succeeds'>): Md | '' {
  return mr.state === 'opened' && mr.merge_when_pipeline_succeeds
    ? md` · :clock3: merges when the pipeline succeeds`
    : '';
}

export function mergeRequestRow(
  mr: ListItem,
  project: Project,
  o: { serverUrl: string; across: boolean; slot: number; accessory?: Button },
) {
  const url = mergeRequestUrl(o.serverUrl, project, mr);
  const ref = o.across ? mrRef(project, mr.iid) : `!${mr.iid}`;
  const head = md`${STATES[mr.state]?.emoji ?? ':grey_question:'} ${bold(linked(url, ref))} ${truncate(mr.title, 150)}`;
  const text = isFull(mr)
    ? md`${head}\n${mr.source_branch ? md`${code(truncate(mr.source_branch, 80))} → ` : ''}${code(truncate(mr.target_branch, 80))} · @${mr.author.username}${mr.assignee ? md` → @${mr.assignee.username}` : ''} · ${mergeStatusBadge(mr)}${autoMergeNote(mr)}`
    : md`${head} · ${STATES[mr.state]?.word ?? mr.state}`;
  const details = button({
    text: 'Details',
    def: MrButtons.show,
    value: { p: projectButtonKey(project), i: mr.iid },
    slot: o.slot,
  });
  return section(text, o.accessory ?? details);
}

export function buildMergeRequestList(
  items: ListItem[],
  page: PageInfo,
  o: {
    title: string;
    filters: string;
    project: Project | null;
    serverUrl: string;
    notice?: Notice | undefined;
    place: ListPlace | null;
    hint?: Text;
  },
): SlackMessage {
  const where = o.project ? md` in ${projectLabel(o.project)}` : '';
  return buildList({
    title: o.title,
    filters: o.filters,
    notice: o.notice,
    empty: md`No merge requests${where} match${o.filters ? md` (${o.filters})` : ''}.`,
    items,
    row: (mr, i) =>
      mergeRequestRow(mr, o.project ?? projectOfMergeRequest(mr, o.serverUrl), {
        serverUrl: o.serverUrl,
        across: o.project === null,
        slot: i,
      }),
    page,
    place: o.place,
    ...(o.hint ? { footer: [context([o.hint])] } : {}),
  });
}

export function deleteConfirmation(mr: MergeRequest, project: Project): Confirmation {
  return {
    title: 'Delete this merge request?',
    question: md`Delete ${mrRef(project, mr.iid)} ${bold(truncate(mr.title, 150))}? It is removed for good, with its discussion.`,
    confirm: 'Delete',
    yes: `Yes, delete !${mr.iid}`,
  };
}

export function mrAlreadyOpenText(source: string, target: string, serverMessage: string | null | undefined): Md {
  const said = serverMessage ? md` The server said: “${truncate(serverMessage, 200)}”.` : '';
  return md`A merge request from ${code(source)} into ${code(target)} is already open (409), so no second one was made.${said}`;
}

export function buildMergeRequestDeleted(project: Project, iid: number, actorId: string): SlackMessage {
  const text = md`:wastebasket: Merge request ${mrRef(project, iid)} was deleted by ${mention(actorId)}.`;
  return message(text, [section(text)]);
}

const FORBIDDEN: Record<string, string> = {
  edit: 'change',
  close: 'close',
  reopen: 'reopen',
  subscribe: 'subscribe to',
  unsubscribe: 'unsubscribe from',
  todo: 'add a todo for',
  estimate: 'set the time estimate of',
  'reset-estimate': 'clear the time estimate of',
  spend: 'log time on',
  'reset-spent': 'clear the time spent on',
  'cancel-auto-merge': 'cancel the automatic merge of',
};

export function mergeRequestRefusal(r: Refusal, label: string): Md | null {
  const status = r.status ?? '?';
  switch (r.reason) {
    case 'merge_denied':
      return md`You may not merge ${label.replace(/^Merge request/, 'merge request')} (${status}): that needs the right to push to its target branch.`;
    case 'not_mergeable':
      return md`${label} cannot be merged (${status}): it has conflicts, is marked work in progress, or is already merged or closed.`;
    case 'not_mergeable_now':
      return md`${label} cannot be merged right now (${status})${r.serverMessage ? md`: the server said “${truncate(r.serverMessage, 200)}”` : ''}.`;
    case 'sha_moved':
      return md`${label} was not merged: new commits were pushed to its source branch since you looked (${status}). Show it again and merge the new head if you still want to.`;
    case 'not_auto_merging':
      return md`${label} is not set to merge when the pipeline succeeds (${status}), so there is nothing to cancel.`;
    case 'not_open':
      return md`${label} is not open (${status}), so there is no automatic merge to cancel.`;
    case 'owner_only':
      return md`${label} can only be deleted by the project's owners and administrators (${status}).`;
    default:
      break;
  }
  const verb = FORBIDDEN[r.action];
  if ((r.status === 403 || r.status === 401) && verb) {
    const what = label.replace(/^Merge request/, 'merge request');
    return md`You may not ${verb} ${what} (${status}): that needs the Developer role in the project, or being its author.`;
  }
  return null;
}
