import { IssueButtons } from '../buttons/issues.js';
import { InvalidInputError, ProjectRequiredError, UnknownPersonError } from '../errors.js';
import { NotFoundError } from '../gitlab/errors.js';
import type { IssueListOptions } from '../gitlab/issues.js';
import { type Project, projectButtonKey, projectLabel } from '../gitlab/project.js';
import type { Issue } from '../gitlab/schemas.js';
import type { CommandOf, ProjectRef, UserRef } from '../grammar/index.js';
import { encodeModalMetadata } from '../ids.js';
import { IssueFormFields, IssueModals } from '../modals/issues.js';
import type { RequestContext } from '../operations/context.js';
import {
  createIssueOperations,
  type IssueListScope,
  type IssueOperations,
  type IssueStateEvent,
  type TimeAction,
} from '../operations/issues.js';
import { askBeforeSharing, audienceOf, issueFor } from '../views/audience.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/common.js';
import { buildIssueForm, readIssueForm, unknownAssignee } from '../views/issue-form.js';
import {
  buildClosedBy,
  buildIssueAgent,
  buildIssueCard,
  buildIssueDeleted,
  buildIssueList,
  type IssueCardOptions,
  issueConfirmation,
  issueRef,
  issueStaleText,
  issueUrl,
} from '../views/issues.js';
import { describeFilters, pageSize } from '../views/lists.js';
import { code, linked, md } from '../views/mrkdwn.js';
import { buildNoticeOnly, done, type Notice, stale, unreadAfter } from '../views/notice.js';
import { buildTimeTracking, trackedDetail } from '../views/time-tracking.js';
import { submitIssueFromMessage } from './issue-from-message.js';
import { cardContext, readOrWhy, refOf } from './support.js';
import { ephemeral, noun, type Platform, type Reply } from './types.js';

const issueNoun = noun('issue', (deps) => createIssueOperations(deps));

/** The API's spelling of "no label at all" (the grammar reads `--labels none` as it). */
const NO_LABEL = 'No Label';
const noLabels = (labels: readonly string[] | undefined) => labels?.length === 1 && labels[0] === NO_LABEL;

/** A brand-new issue has tracked no time: no need to ask. */
const NO_TIME = { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null };

/** What the person's own list (GET /issues) holds, by `--scope`. */
const MINE = { 'created-by-me': 'you created', 'assigned-to-me': 'assigned to you', all: 'you can see' } as const;

const keyOf = (ref: ProjectRef) => (ref.kind === 'path' ? ref.path : ref.id);

async function issueCard({
  ctx,
  platform,
  project,
  issue,
  notice,
  options = {},
}: {
  ctx: RequestContext;
  platform: Platform;
  project: Project;
  issue: Issue;
  notice?: Notice;
  options?: IssueCardOptions;
}): Promise<SlackMessage> {
  return buildIssueCard(issue, project, await cardContext(ctx, platform, { notice }), options);
}

/**
 * The issue's card posted into the channel. A confidential one is first asked about ("#7 is confidential: share
 * its title and description in #demo?"), unless the person answered Yes to that already (`confirmed`).
 */
async function shareCard(o: {
  ctx: RequestContext;
  platform: Platform;
  ops: IssueOperations;
  project: Project;
  iid: number;
  confirmed: boolean;
}): Promise<Reply> {
  const issue = await o.ops.withTimeStats(o.ctx, o.project, o.iid);
  if (issue.confidential && !o.confirmed) {
    const value = { p: projectButtonKey(o.project), i: issue.iid };
    const question = askBeforeSharing(issueRef(o.project, issue.iid), o.ctx.channelId);
    const asked = { title: 'Share a confidential issue?', question, confirm: 'Share', yes: 'Yes, share it' };
    return ephemeral(buildConfirmPrompt(asked, IssueButtons.shareConfidential, value));
  }
  // Posted in the channel, it is read by many however it was asked for (a typed --share, or a click on a confirm).
  const message = await issueCard({ ...o, ctx: { ...o.ctx, shared: true }, issue });
  return { kind: 'message', message, inChannel: true };
}

/** The issue as it is now (with its time tracking), drawn as a card. */
async function freshCard({
  ctx,
  platform,
  ops,
  project,
  iid,
  notice,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: IssueOperations;
  project: Project;
  iid: number;
  notice?: Notice;
}): Promise<SlackMessage> {
  return issueCard({ ctx, platform, project, issue: await ops.withTimeStats(ctx, project, iid), notice });
}

/**
 * The card after a change, drawn from what the change answered (`known`) or, for a change that answers nothing
 * to draw, from a read. What cannot be read afterwards is a line under what was done, never the answer.
 */
async function cardAfterWrite({
  ctx,
  platform,
  ops,
  project,
  iid,
  notice,
  known,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: IssueOperations;
  project: Project;
  iid: number;
  notice: Notice;
  known?: Issue;
}): Promise<SlackMessage> {
  const read = await readOrWhy(() => ops.withTimeStats(ctx, project, iid, known));
  if (read.ok) return issueCard({ ctx, platform, project, issue: read.value, notice });
  if (known)
    return issueCard({
      ctx,
      platform,
      project,
      issue: known,
      notice: unreadAfter(notice, 'Its time tracking', read.why),
    });
  return buildNoticeOnly(unreadAfter(notice, `Issue ${issueRef(project, iid)}`, read.why));
}

/**
 * Closes or reopens. The server answers a close of a closed issue as if it had closed it, so the issue is
 * read first: when it is already so (someone else was quicker, or the card was old), that is what is said.
 */
async function changeState({
  ctx,
  platform,
  ops,
  project,
  iid,
  event,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: IssueOperations;
  project: Project;
  iid: number;
  event: IssueStateEvent;
}): Promise<SlackMessage> {
  const before = await ops.get(ctx, project, iid);
  // Time tracking only decorates the card: a server that will not tell it does not stop the change.
  const stats = await readOrWhy(() => ops.withTimeStats(ctx, project, iid, before));
  const current = stats.ok ? stats.value : before;
  const target = event === 'close' ? 'closed' : 'opened';
  if (current.state === target) {
    const by =
      event === 'close' && current.closed_by
        ? current.closed_by.username
        : await ops.lastActor(ctx, project, current, event === 'close' ? 'closed' : 'reopened').catch(() => null);
    return issueCard({
      ctx,
      platform,
      project,
      issue: current,
      notice: stale(issueStaleText(target === 'closed' ? 'closed' : 'open', { by })),
    });
  }
  const changed = await ops.setState(ctx, project, iid, event);
  const issue = { ...changed, time_stats: changed.time_stats ?? current.time_stats };
  return cardAfterWrite({
    ctx,
    platform,
    ops,
    project,
    iid,
    notice: done(event, { actorId: ctx.actor.userId, detail: `issue ${issueRef(project, iid)}` }),
    known: issue,
  });
}

async function subscription({
  ctx,
  platform,
  ops,
  project,
  iid,
  subscribe,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: IssueOperations;
  project: Project;
  iid: number;
  subscribe: boolean;
}): Promise<SlackMessage> {
  const result = await ops.subscription(ctx, project, iid, subscribe);
  if (!result.changed) {
    // 304: nothing to do, which is an answer, not an error.
    return freshCard({
      ctx,
      platform,
      ops,
      project,
      iid,
      notice: stale(issueStaleText(subscribe ? 'subscribed' : 'unsubscribed')),
    });
  }
  const action = subscribe ? 'subscribe' : 'unsubscribe';
  const notice = done(action, { actorId: ctx.actor.userId, detail: `issue ${issueRef(project, iid)}` });
  return cardAfterWrite({ ctx, platform, ops, project, iid, notice, known: result.value });
}

async function addTodo({
  ctx,
  platform,
  ops,
  project,
  iid,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: IssueOperations;
  project: Project;
  iid: number;
}): Promise<SlackMessage> {
  const result = await ops.todo(ctx, project, iid);
  if (!result.changed) return freshCard({ ctx, platform, ops, project, iid, notice: stale(issueStaleText('todo')) });
  const target = result.value.target_type === 'Issue' ? result.value.target : undefined;
  return cardAfterWrite({
    ctx,
    platform,
    ops,
    project,
    iid,
    notice: done('todo', { actorId: ctx.actor.userId, detail: `issue ${issueRef(project, iid)}` }),
    known: target,
  });
}

/**
 * 👍 as the clicker, a toggle as Slack's reactions are: the server refuses a second one, and when the clicker gave
 * it already it is taken back. Another refusal is explained when the issue explains it (their own issue).
 */
async function thumbsUp({
  ctx,
  platform,
  ops,
  project,
  iid,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: IssueOperations;
  project: Project;
  iid: number;
}): Promise<SlackMessage> {
  try {
    await ops.thumbsUp(ctx, project, iid);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    const issue = await ops.withTimeStats(ctx, project, iid);
    const given = await ops.ownThumbsUp(ctx, project, iid);
    if (given !== null) {
      await ops.takeBackThumbsUp(ctx, project, { iid, awardId: given });
      const notice = done('unthumbsup', { actorId: ctx.actor.userId, detail: `issue ${issueRef(project, iid)}` });
      return issueCard({
        ctx,
        platform,
        project,
        issue: { ...issue, upvotes: Math.max(0, issue.upvotes - 1) },
        notice,
      });
    }
    const viewer = (await ctx.session.connection())?.username ?? null;
    if (viewer !== null && issue.author.username === viewer) {
      return issueCard({ ctx, platform, project, issue, notice: stale(issueStaleText('own')) });
    }
    throw err;
  }
  return cardAfterWrite({
    ctx,
    platform,
    ops,
    project,
    iid,
    notice: done('thumbsup', { actorId: ctx.actor.userId, detail: `issue ${issueRef(project, iid)}` }),
  });
}

async function trackTime({
  ctx,
  platform,
  ops,
  command,
  action,
  duration,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: IssueOperations;
  command: { target: { project: ProjectRef | null; iid: number } };
  action: TimeAction;
  duration?: string;
}): Promise<Reply> {
  const project = await platform.resolveProject(ctx, command.target.project);
  const iid = command.target.iid;
  const stats = await ops.time(ctx, project, { iid, action, duration });
  const detail = trackedDetail('issue', project, iid, duration);
  return ephemeral(
    buildTimeTracking({ kind: 'issue', project, iid }, stats, {
      serverUrl: platform.serverUrl,
      notice: done(action, { actorId: ctx.actor.userId, detail }),
    }),
  );
}

/** How a person named in a list filter reads in its "Filters:" line. */
async function shownPerson(ctx: RequestContext, platform: Platform, ref: UserRef | undefined) {
  if (ref?.kind !== 'slack') return ref;
  return { username: `@${await platform.people.idOrUsername(ctx, ref)}` };
}

/** Which issues a list reads: the project named, a group, the channel's default project, else the person's own. */
async function listScope(
  ctx: RequestContext,
  platform: Platform,
  command: CommandOf<'issue.list'>,
): Promise<IssueListScope> {
  if (command.flags.group) return { kind: 'group', group: keyOf(command.flags.group) };
  try {
    return { kind: 'project', project: await platform.resolveProject(ctx, command.target.project) };
  } catch (err) {
    if (err instanceof ProjectRequiredError) return { kind: 'mine' };
    throw err;
  }
}

/** The people a command names, as server ids; unknown names stop the command before its own call. */
const idsOf = async (ctx: RequestContext, platform: Platform, refs: readonly UserRef[] | undefined) =>
  refs ? platform.people.ids(ctx, refs) : undefined;

export const issues = issueNoun.define({
  lists: {
    async 'issue.list'(command, ctx, platform, ops, place, notice) {
      const flags = command.flags;
      const scope = await listScope(ctx, platform, command);
      if ((flags.createdAfter || flags.createdBefore) && scope.kind !== 'project') {
        throw new InvalidInputError(
          md`Only a project's issues can be filtered by creation date: name a project, or leave out ${code('--created-after')} and ${code('--created-before')}. Nothing was sent.`,
        );
      }
      const authorId = flags.author ? await platform.people.id(ctx, flags.author) : undefined;
      const assigneeId = flags.assignee ? await platform.people.id(ctx, flags.assignee) : undefined;
      const perPage = pageSize(flags.perPage);
      // Open ones unless told otherwise, as glab and GitLab's pages show them; issues asked for by iid whatever their state.
      const state = flags.state ?? (flags.iids ? undefined : 'opened');
      const options: IssueListOptions = {
        ...(state ? { state } : {}),
        ...(flags.labels ? { labels: flags.labels } : {}),
        ...(flags.milestone ? { milestone: flags.milestone } : {}),
        ...(flags.scope ? { scope: flags.scope } : {}),
        ...(authorId !== undefined ? { author_id: authorId } : {}),
        ...(assigneeId !== undefined ? { assignee_id: assigneeId } : {}),
        ...(flags.iids ? { iids: flags.iids } : {}),
        ...(flags.search ? { search: flags.search } : {}),
        ...(flags.orderBy ? { order_by: flags.orderBy } : {}),
        ...(flags.sort ? { sort: flags.sort } : {}),
        ...(flags.createdAfter ? { created_after: flags.createdAfter } : {}),
        ...(flags.createdBefore ? { created_before: flags.createdBefore } : {}),
        ...(flags.page ? { page: flags.page } : {}),
        ...(perPage ? { per_page: perPage } : {}),
      };
      const result = await ops.list(ctx, scope, options);
      const filters = describeFilters({
        ...flags,
        group: undefined,
        labels: noLabels(flags.labels) ? ['none'] : flags.labels,
        author: await shownPerson(ctx, platform, flags.author),
        assignee: await shownPerson(ctx, platform, flags.assignee),
      });
      const where =
        scope.kind === 'project'
          ? `in ${projectLabel(scope.project)}`
          : scope.kind === 'group'
            ? `in group ${scope.group}`
            : // GET /issues reads the issues the person created unless told otherwise.
              MINE[flags.scope ?? 'created-by-me'];
      const title = `Issues ${where}`;
      const audience = audienceOf(command.share);
      return buildIssueList(
        result.items.map((issue) => issueFor(audience, issue)),
        result,
        {
          title,
          filters,
          place,
          ctx: await cardContext(ctx, platform, { notice }),
          project: scope.kind === 'project' ? scope.project : null,
          empty: md`No issues ${where}${filters ? md` match (${filters})` : ''}.`,
          ...(state === 'opened' && !flags.state
            ? { hint: md`Open issues only: ${code('--state all')} shows the closed ones too.` }
            : {}),
        },
      );
    },
  },
  commands: {
    async 'issue.show'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      if (command.share) return shareCard({ ctx, platform, ops, project, iid: command.target.iid, confirmed: false });
      const message = await freshCard({ ctx, platform, ops, project, iid: command.target.iid });
      return { kind: 'message', message, inChannel: command.share };
    },

    async 'issue.create'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const flags = command.flags;
      const title = command.args.title?.trim();
      const labels = noLabels(flags.labels) ? [] : flags.labels;
      if (!title && flags.resolveMr === undefined) {
        // No title: the form, once the project is known to exist (so nobody fills in a form for nothing).
        const known = await ops.project(ctx, project);
        const assignees = flags.assignees
          ? (await Promise.all(flags.assignees.map((ref) => platform.people.idOrUsername(ctx, ref)))).join(', ')
          : undefined;
        const metadata = encodeModalMetadata(IssueModals.create, ctx.channelId, {
          p: projectButtonKey(known),
          ...(flags.milestoneId !== undefined ? { m: flags.milestoneId } : {}),
          ...(flags.createdAt !== undefined ? { t: flags.createdAt } : {}),
        });
        const view = buildIssueForm({
          projectLabel: projectLabel(known),
          metadata,
          initial: {
            ...(flags.description !== undefined ? { description: flags.description } : {}),
            ...(labels ? { labels } : {}),
            ...(assignees ? { assignees } : {}),
            ...(flags.due ? { due: flags.due } : {}),
            ...(flags.confidential ? { confidential: true } : {}),
          },
        });
        return { kind: 'modal', view };
      }
      const assigneeIds = await idsOf(ctx, platform, flags.assignees);
      const issue = await ops.create(ctx, project, {
        ...(title ? { title } : {}),
        ...(flags.description !== undefined ? { description: flags.description } : {}),
        ...(labels?.length ? { labels } : {}),
        ...(assigneeIds ? { assignee_ids: assigneeIds } : {}),
        ...(flags.milestoneId !== undefined ? { milestone_id: flags.milestoneId } : {}),
        ...(flags.due ? { due_date: flags.due } : {}),
        ...(flags.confidential ? { confidential: true } : {}),
        ...(flags.createdAt ? { created_at: flags.createdAt } : {}),
        ...(flags.resolveMr !== undefined ? { merge_request_to_resolve_discussions_of: flags.resolveMr } : {}),
        ...(flags.discussion ? { discussion_to_resolve: flags.discussion } : {}),
      });
      const notice = done('create', { actorId: ctx.actor.userId, detail: `issue ${issueRef(project, issue.iid)}` });
      return ephemeral(
        await issueCard({
          ctx,
          platform,
          project,
          issue: { ...issue, time_stats: NO_TIME },
          notice,
          options: { shareable: true },
        }),
      );
    },

    async 'issue.edit'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const iid = command.target.iid;
      const flags = command.flags;
      const assigneeIds = await idsOf(ctx, platform, flags.assignees);
      const changed = await ops.edit(ctx, project, iid, {
        ...(flags.title !== undefined ? { title: flags.title } : {}),
        ...(flags.description !== undefined ? { description: flags.description } : {}),
        // `--labels none` takes every label off.
        ...(flags.labels ? { labels: noLabels(flags.labels) ? '' : flags.labels } : {}),
        ...(assigneeIds ? { assignee_ids: assigneeIds } : {}),
        ...(flags.milestoneId !== undefined ? { milestone_id: flags.milestoneId } : {}),
        ...(flags.due ? { due_date: flags.due } : {}),
        ...(flags.confidential !== undefined ? { confidential: flags.confidential } : {}),
        ...(flags.updatedAt ? { updated_at: flags.updatedAt } : {}),
      });
      const notice = done('edit', { actorId: ctx.actor.userId, detail: `issue ${issueRef(project, iid)}` });
      return ephemeral(await cardAfterWrite({ ctx, platform, ops, project, iid, notice, known: changed }));
    },

    async 'issue.close'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      return ephemeral(await changeState({ ctx, platform, ops, project, iid: command.target.iid, event: 'close' }));
    },

    async 'issue.reopen'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      return ephemeral(await changeState({ ctx, platform, ops, project, iid: command.target.iid, event: 'reopen' }));
    },

    async 'issue.delete'(command, ctx, platform) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const iid = command.target.iid;
      const value = { p: projectButtonKey(project), i: iid };
      return ephemeral(buildConfirmPrompt(issueConfirmation(project, { iid }), IssueButtons.delete, value));
    },

    async 'issue.move'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const iid = command.target.iid;
      const to = await ops.moveTarget(ctx, project, { iid, to: keyOf(command.args.toProject) });
      const answer = await ops.move(ctx, project, iid, to);
      const newRef = issueRef(to.project, answer.iid);
      const url = issueUrl(platform.serverUrl, to.project, answer);
      const detail = md`from ${issueRef(project, iid)} to ${linked(url, newRef)}`;
      const notice = done('move', { actorId: ctx.actor.userId, detail });
      return ephemeral(
        await cardAfterWrite({ ctx, platform, ops, project: to.project, iid: answer.iid, notice, known: answer }),
      );
    },

    async 'issue.subscribe'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      return ephemeral(await subscription({ ctx, platform, ops, project, iid: command.target.iid, subscribe: true }));
    },

    async 'issue.unsubscribe'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      return ephemeral(await subscription({ ctx, platform, ops, project, iid: command.target.iid, subscribe: false }));
    },

    async 'issue.todo'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      return ephemeral(await addTodo({ ctx, platform, ops, project, iid: command.target.iid }));
    },

    async 'issue.estimate'(command, ctx, platform, ops) {
      return trackTime({ ctx, platform, ops, command, action: 'estimate', duration: command.args.duration.text });
    },

    async 'issue.reset-estimate'(command, ctx, platform, ops) {
      return trackTime({ ctx, platform, ops, command, action: 'reset-estimate' });
    },

    async 'issue.spend'(command, ctx, platform, ops) {
      return trackTime({ ctx, platform, ops, command, action: 'spend', duration: command.args.duration.text });
    },

    async 'issue.reset-spent'(command, ctx, platform, ops) {
      return trackTime({ ctx, platform, ops, command, action: 'reset-spent' });
    },

    async 'issue.time'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const stats = await ops.timeStats(ctx, project, command.target.iid);
      const message = buildTimeTracking({ kind: 'issue', project, iid: command.target.iid }, stats, {
        serverUrl: platform.serverUrl,
      });
      return { kind: 'message', message, inChannel: command.share };
    },

    async 'issue.closed-by'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const result = await ops.closedBy(ctx, project, command.target.iid);
      const message = buildClosedBy(project, {
        iid: command.target.iid,
        mergeRequests: result.items,
        page: result,
        serverUrl: platform.serverUrl,
      });
      return { kind: 'message', message, inChannel: command.share };
    },

    async 'issue.agent'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const detail = await ops.agent(ctx, project, command.target.iid);
      return {
        kind: 'message',
        message: buildIssueAgent(project, command.target.iid, detail, platform.serverUrl),
        inChannel: command.share,
      };
    },
  },
  buttons: [
    issueNoun.on(IssueButtons.show, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return ephemeral(await freshCard({ ctx, platform, ops, project, iid: value.i }));
    }),
    issueNoun.on(IssueButtons.close, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return {
        kind: 'update',
        message: await changeState({ ctx, platform, ops, project, iid: value.i, event: 'close' }),
      };
    }),
    issueNoun.on(IssueButtons.reopen, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return {
        kind: 'update',
        message: await changeState({ ctx, platform, ops, project, iid: value.i, event: 'reopen' }),
      };
    }),
    issueNoun.on(IssueButtons.subscribe, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return {
        kind: 'update',
        message: await subscription({ ctx, platform, ops, project, iid: value.i, subscribe: true }),
      };
    }),
    issueNoun.on(IssueButtons.unsubscribe, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return {
        kind: 'update',
        message: await subscription({ ctx, platform, ops, project, iid: value.i, subscribe: false }),
      };
    }),
    issueNoun.on(IssueButtons.todo, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return { kind: 'update', message: await addTodo({ ctx, platform, ops, project, iid: value.i }) };
    }),
    issueNoun.on(IssueButtons.thumbsup, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return { kind: 'update', message: await thumbsUp({ ctx, platform, ops, project, iid: value.i }) };
    }),
    issueNoun.on(IssueButtons.delete, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      await ops.remove(ctx, project, value.i);
      return { kind: 'update', message: buildIssueDeleted(project, { iid: value.i, actorId: ctx.actor.userId }) };
    }),
    issueNoun.on(IssueButtons.share, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return shareCard({ ctx, platform, ops, project, iid: value.i, confirmed: false });
    }),
    issueNoun.on(IssueButtons.shareConfidential, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return shareCard({ ctx, platform, ops, project, iid: value.i, confirmed: true });
    }),
  ],
  modals: [
    issueNoun.modal(IssueModals.fromMessage, submitIssueFromMessage),
    issueNoun.modal(IssueModals.create, async (value, ctx, platform, ops) => {
      const read = readIssueForm(ctx.values);
      if (!read.ok) return { kind: 'errors', errors: definedOnly(read.errors) };
      const form = read.form;
      let assigneeIds: number[];
      try {
        assigneeIds = await platform.people.ids(ctx, form.assignees);
      } catch (err) {
        if (!(err instanceof UnknownPersonError)) throw err;
        return { kind: 'errors', errors: { [IssueFormFields.assignees]: unknownAssignee(err.reason, err.who) } };
      }
      return {
        kind: 'accept',
        reply: async () => {
          const project = await platform.resolveProject(ctx, refOf(value.p));
          const issue = await ops.create(ctx, project, {
            title: form.title,
            ...(form.description !== undefined ? { description: form.description } : {}),
            ...(form.labels.length ? { labels: form.labels } : {}),
            ...(assigneeIds.length ? { assignee_ids: assigneeIds } : {}),
            ...(value.m !== undefined ? { milestone_id: value.m } : {}),
            ...(form.due ? { due_date: form.due } : {}),
            ...(form.confidential ? { confidential: true } : {}),
            ...(value.t !== undefined ? { created_at: value.t } : {}),
          });
          const notice = done('create', { actorId: ctx.actor.userId, detail: `issue ${issueRef(project, issue.iid)}` });
          const card = await issueCard({
            ctx,
            platform,
            project,
            issue: { ...issue, time_stats: NO_TIME },
            notice,
            options: {
              shareable: true,
            },
          });
          return ephemeral(card);
        },
      };
    }),
  ],
});

function definedOnly(errors: Partial<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
