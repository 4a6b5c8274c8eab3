import type { HomeView } from '@slack/types';
import type { ConnectionProblem } from '../connection.js';
import { DatabaseBusyError, DatabaseUnavailableError, TokenRefusalUnconfirmedError } from '../errors.js';
import { GitlabError, RateLimitedError, UnavailableError } from '../gitlab/errors.js';
import type { Page } from '../gitlab/paginate.js';
import type { Issue, MergeRequest, Todo } from '../gitlab/schemas.js';
import { type DigestRow, HOME_ROWS, type HomeReads, type SectionRead } from '../operations/home.js';
import type { AlertSetting } from '../store/alert-store.js';
import type { StepConsent } from '../store/step-store.js';
import type { Connection } from '../store/token-store.js';
import type { Watch } from '../store/watch-store.js';
import { buildConnectPrompt, disconnectButton } from './account.js';
import { alertSummary, whyBuildFailedBlocks } from './alerts.js';
import { actions, type Block, context, divider, header, type SlackMessage, section } from './blocks.js';
import type { CardContext } from './common.js';
import { digestRow } from './digest-cards.js';
import { digestButtons } from './digests.js';
import { formatDateTime } from './format.js';
import { issueRow, projectOfIssue } from './issues.js';
import { LIMITS } from './limits.js';
import { mergeButton, mergeRequestRow, offersMerge, projectOfMergeRequest } from './merge-requests.js';
import { code, link, Md, md, type Text } from './mrkdwn.js';
import { type Notice, noticeBlocks } from './notice.js';
import { buildStepConsentBlocks } from './steps.js';
import { markAllDoneButton, todoRow } from './todos.js';
import { ownWatchBlocks } from './watches.js';

// The person's Home tab: who they are connected as, and what waits for them — pending todos, open merge requests
// and issues assigned to them, their digests — each with the buttons its own cards carry. Without a usable token
// it is the Connect Home: what the bot does and a Connect button, nothing else. After something the person did
// from it, what that did is on top.

const TITLE = 'GitLab from Slack';

/** An answer shown on top of the Home: at most this many of its blocks (a longer one is shown as its text). */
const SHOWN_BLOCKS = 10;

/** What the person's last action from the Home did: a notice line, or the answer a message would have carried. */
function lastAction(o: { notice?: Notice | undefined; shown?: SlackMessage | undefined }): Block[] {
  const blocks: Block[] = [...noticeBlocks(o.notice)];
  if (o.shown) {
    const shown = o.shown.blocks?.filter((b) => b.type !== 'header') ?? [];
    // A message's text is markup the views made (server text in it is escaped already): it is placed as it is.
    if (shown.length > 0 && shown.length <= SHOWN_BLOCKS) blocks.push(...shown);
    else blocks.push(section(Md.trusted(o.shown.text)));
  }
  return blocks.length > 0 ? [...blocks, divider()] : [];
}

/** What the bot does, for someone who has not connected (yet, or again). */
function about(slashCommand: string): Block {
  return section(
    md`Run your GitLab work from Slack: jobs, pipelines, schedules, issues, merge requests, todos and digests, with buttons that act as you. Type ${code(`${slashCommand} help`)} in any channel to see every command.`,
  );
}

export function buildConnectHome(o: {
  problem: ConnectionProblem;
  serverUrl: string;
  slashCommand: string;
  notice?: Notice | undefined;
  shown?: SlackMessage | undefined;
}): HomeView {
  const prompt = buildConnectPrompt(o.problem, o.serverUrl, o.slashCommand);
  return {
    type: 'home',
    blocks: [header(TITLE), ...lastAction(o), about(o.slashCommand), ...(prompt.blocks ?? [])],
  };
}

/** Why a section could not be read, in a few words (the rest of the Home is as it is). */
export function readTrouble(error: unknown, serverUrl: string): Text {
  if (error instanceof TokenRefusalUnconfirmedError) {
    return 'the server refused your token once (401), but a second check did not confirm it: your connection is kept';
  }
  if (error instanceof DatabaseBusyError) return "the bot's database is busy";
  if (error instanceof DatabaseUnavailableError) return "the bot's database is unavailable";
  if (error instanceof RateLimitedError) return 'the server is rate limiting requests (429)';
  if (error instanceof UnavailableError) {
    return error.reason === 'timeout'
      ? md`${serverUrl} did not answer in time`
      : error.reason === 'network'
        ? md`${serverUrl} could not be reached`
        : md`${serverUrl} answered ${error.status ?? 'with an error'}`;
  }
  if (error instanceof GitlabError) return `the server answered ${error.status ?? 'with an error'}`;
  return 'something went wrong';
}

function trouble(what: string, read: SectionRead<unknown>, serverUrl: string): Block[] {
  if (read.ok) return [];
  return [
    context([
      md`:warning: Your ${what} could not be read just now: ${readTrouble(read.error, serverUrl)}. Open this tab again to retry.`,
    ]),
  ];
}

/** "and 3 more: `/gl todos`" under a section that shows only its first rows. */
function more(page: Pick<Page<unknown>, 'total' | 'nextPage'>, shown: number, command: string): Block[] {
  const left = page.total !== null ? page.total - shown : page.nextPage !== null ? null : 0;
  if (left === 0) return [];
  return [context([md`${left === null ? 'And more' : md`And ${left} more`}: ${code(command)}`])];
}

export interface HomeInput {
  serverUrl: string;
  slashCommand: string;
  /** The Slack user whose Home it is. */
  userId: string;
  now: Date;
  /** The person's IANA zone: times are shown in it. */
  timeZone: string;
  connection: Connection;
  reads: HomeReads;
  notice?: Notice | undefined;
  shown?: SlackMessage | undefined;
  /** The person's todo alert setting (a line under the connection). */
  alerts?: AlertSetting | null;
  /** The Workflow Builder steps the person always allows (each with Revoke). */
  stepConsents?: readonly StepConsent[];
}

function connectionBlock(i: HomeInput): Block {
  const c = i.connection;
  const as = c.username ? md` as ${code(`@${c.username}`)}` : '';
  return section(
    md`:white_check_mark: Connected to ${link(c.serverUrl, c.serverUrl)}${as} since ${formatDateTime(c.createdAt, i.timeZone)}. Buttons and commands act as you.`,
    disconnectButton(c.serverUrl),
  );
}

function todoBlocks(i: HomeInput, read: SectionRead<Page<Todo>>): Block[] {
  const blocks: Block[] = [header('My todos')];
  if (!read.ok) return [...blocks, ...trouble('todos', read, i.serverUrl)];
  const todos = read.value.items.slice(0, HOME_ROWS);
  if (todos.length === 0) return [...blocks, section('No pending todos. :tada:')];
  todos.forEach((todo, slot) => {
    blocks.push(todoRow(todo, { serverUrl: i.serverUrl, now: i.now, timeZone: i.timeZone, owner: i.userId, slot }));
    blocks.push(...whyBuildFailedBlocks(i.reads.builds?.get(todo.id), i.serverUrl));
  });
  blocks.push(...more(read.value, todos.length, `${i.slashCommand} todos`));
  blocks.push(actions([markAllDoneButton({ owner: i.userId })]));
  return blocks;
}

function mergeRequestBlocks(i: HomeInput, read: SectionRead<Page<MergeRequest>>): Block[] {
  const blocks: Block[] = [header('My merge requests')];
  if (!read.ok) return [...blocks, ...trouble('merge requests', read, i.serverUrl)];
  const mrs = read.value.items.slice(0, HOME_ROWS);
  if (mrs.length === 0) return [...blocks, section('No open merge requests are assigned to you.')];
  mrs.forEach((mr, slot) => {
    const project = projectOfMergeRequest(mr, i.serverUrl);
    const merge = offersMerge(mr) ? { accessory: mergeButton(mr, project, slot) } : {};
    blocks.push(mergeRequestRow(mr, project, { serverUrl: i.serverUrl, across: true, slot, ...merge }));
  });
  blocks.push(...more(read.value, mrs.length, `${i.slashCommand} mrs --scope assigned-to-me --state opened`));
  return blocks;
}

function issueBlocks(i: HomeInput, read: SectionRead<Page<Issue>>): Block[] {
  const blocks: Block[] = [header('My issues')];
  if (!read.ok) return [...blocks, ...trouble('issues', read, i.serverUrl)];
  const issues = read.value.items.slice(0, HOME_ROWS);
  if (issues.length === 0) return [...blocks, section('No open issues are assigned to you.')];
  issues.forEach((issue, slot) => {
    blocks.push(
      issueRow(issue, projectOfIssue(issue, i.serverUrl), { slot, serverUrl: i.serverUrl, withProject: true }),
    );
  });
  blocks.push(...more(read.value, issues.length, `${i.slashCommand} issues --scope assigned-to-me --state opened`));
  return blocks;
}

function digestBlocks(i: HomeInput, read: SectionRead<DigestRow[]>): Block[] {
  const blocks: Block[] = [header('My digests')];
  if (!read.ok) return [...blocks, ...trouble('digests', read, i.serverUrl)];
  if (read.value.length === 0) {
    return [
      ...blocks,
      section(
        md`You have no digests. ${code(`${i.slashCommand} digest todos`)} sends you your pending todos every weekday morning.`,
      ),
    ];
  }
  const c: CardContext = { serverUrl: i.serverUrl, now: i.now, timeZone: i.timeZone };
  const shown = read.value.slice(0, HOME_ROWS);
  shown.forEach((r, slot) => {
    blocks.push(section(digestRow(r.digest, r.next, c)), actions(digestButtons(r.digest, 'home', slot)));
  });
  const left = read.value.length - shown.length;
  if (left > 0)
    blocks.push(context([md`And ${left} more: ${code(`${i.slashCommand} digest list`)} in their channels`]));
  return blocks;
}

function watchBlocks(i: HomeInput, read: SectionRead<Watch[]>): Block[] {
  if (!read.ok) return [header('My watches'), ...trouble('watches', read, i.serverUrl)];
  return ownWatchBlocks(read.value, { slashCommand: i.slashCommand, now: i.now, timeZone: i.timeZone });
}

/** The Home of a connected person: their connection, then one section per read, each on its own. */
export function buildHomeView(i: HomeInput): HomeView {
  const sections: Block[][] = [
    todoBlocks(i, i.reads.todos),
    mergeRequestBlocks(i, i.reads.mergeRequests),
    issueBlocks(i, i.reads.issues),
    digestBlocks(i, i.reads.digests),
    ...(i.reads.watches ? [watchBlocks(i, i.reads.watches)] : []),
  ];
  const blocks: Block[] = [header(TITLE), ...lastAction(i), connectionBlock(i)];
  if (i.alerts !== undefined) blocks.push(context([alertSummary(i.alerts, { now: i.now, timeZone: i.timeZone })]));
  for (const s of sections) blocks.push(divider(), ...s);
  const consents = buildStepConsentBlocks(i.stepConsents ?? [], i.timeZone);
  if (consents.length > 0) blocks.push(divider(), ...consents);
  const footer: Md = md`Times in ${i.timeZone} · ${code(`${i.slashCommand} help`)} lists every command`;
  blocks.push(context([footer]));
  // Sections keep to their rows, so this never cuts; it is the guard of Slack's 100 blocks all the same.
  return { type: 'home', blocks: blocks.slice(0, LIMITS.surfaceBlocks) };
}
