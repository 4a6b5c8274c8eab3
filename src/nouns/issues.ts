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
import type { SlackMessage } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/common.js';
import { buildIssueForm, readIssueForm, unknownAssignee } from '../views/issue-form.js';
import {
  buildClosedBy,
  buildIssueAgent,
  buildIssueCard,
  buildIssueDeleted,
  buildIssueList,
  buildIssueTime,
  type IssueCardOptions,
  issueConfirmation,
  issueRef,
  issueStaleText,
  issueUrl,
} from '../views/issues.js';
import { describeFilters, pageSize } from '../views/lists.js';
import { code, linked, md } from '../views/mrkdwn.js';
import { buildNoticeOnly, done, type Notice, stale, unreadAfter } from '../views/notice.js';
import { submitIssueFromMessage } from './issue-from-message.js';
import { cardContext, readOrWhy, refOf } from './support.js';
import { ephemeral, noun, type Platform, type Reply } from './types.js';

const n = noun('issue', (d) => createIssueOperations(d));

/** The API's spelling of "no label at all" (the grammar reads `--labels none` as it). */
const NO_LABEL = 'No Label';
const noLabels = (labels: readonly string[] | undefined) => labels?.length === 1 && labels[0] === NO_LABEL;

/** A brand-new issue has tracked no time: no need to ask. */
const NO_TIME = { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null };

/** What the person's own list (GET /issues) holds, by `--scope`. */
const MINE = { 'created-by-me': 'you created', 'assigned-to-me': 'assigned to you', all: 'you can see' } as const;

const keyOf = (ref: ProjectRef) => (ref.kind === 'path' ? ref.path : ref.id);

async function issueCard(
  ctx: RequestContext,
  s: Platform,
  project: Project,
  issue: Issue,
  notice?: Notice,
  o: IssueCardOptions = {},
): Promise<SlackMessage> {
  return buildIssueCard(issue, project, await cardContext(ctx, s, { notice }), o);
}

/** The issue as it is now (with its time tracking), drawn as a card. */
async function freshCard(
  ctx: RequestContext,
  s: Platform,
  ops: IssueOperations,
  project: Project,
  iid: number,
  notice?: Notice,
): Promise<SlackMessage> {
  return issueCard(ctx, s, project, await ops.withTimeStats(ctx, project, iid), notice);
}

/**
 * The card after a change, drawn from what the change answered (`known`) or, for a change that answers nothing
 * to draw, from a read. What cannot be read afterwards is a line under what was done, never the answer.
 */
async function cardAfterWrite(
  ctx: RequestContext,
  s: Platform,
  ops: IssueOperations,
  project: Project,
  iid: number,
  notice: Notice,
  known?: Issue,
): Promise<SlackMessage> {
  const read = await readOrWhy(() => ops.withTimeStats(ctx, project, iid, known));
  if (read.ok) return issueCard(ctx, s, project, read.value, notice);
  if (known) return issueCard(ctx, s, project, known, unreadAfter(notice, 'Its time tracking', read.why));
  return buildNoticeOnly(unreadAfter(notice, `Issue ${issueRef(project, iid)}`, read.why));
}

/**
 * Closes or reopens. The server answers a close of a closed issue as if it had closed it, so the issue is
 * read first: when it is already so (someone else was quicker, or the card was old), that is what is said.
 */
async function changeState(
  ctx: RequestContext,
  s: Platform,
  ops: IssueOperations,
  project: Project,
  iid: number,
  event: IssueStateEvent,
): Promise<SlackMessage> {
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
    return issueCard(ctx, s, project, current, stale(issueStaleText(target === 'closed' ? 'closed' : 'open', { by })));
  }
  const changed = await ops.setState(ctx, project, iid, event);
  const issue = { ...changed, time_stats: changed.time_stats ?? current.time_stats };
  return cardAfterWrite(
    ctx,
    s,
    ops,
    project,
    iid,
    done(event, ctx.actor.userId, `issue ${issueRef(project, iid)}`),
    issue,
  );
}

async function subscription(
  ctx: RequestContext,
  s: Platform,
  ops: IssueOperations,
  project: Project,
  iid: number,
  subscribe: boolean,
): Promise<SlackMessage> {
  const result = await ops.subscription(ctx, project, iid, subscribe);
  if (!result.changed) {
    // 304: nothing to do, which is an answer, not an error.
    return freshCard(ctx, s, ops, project, iid, stale(issueStaleText(subscribe ? 'subscribed' : 'unsubscribed')));
  }
  const action = subscribe ? 'subscribe' : 'unsubscribe';
  const notice = done(action, ctx.actor.userId, `issue ${issueRef(project, iid)}`);
  return cardAfterWrite(ctx, s, ops, project, iid, notice, result.value);
}

async function addTodo(
  ctx: RequestContext,
  s: Platform,
  ops: IssueOperations,
  project: Project,
  iid: number,
): Promise<SlackMessage> {
  const result = await ops.todo(ctx, project, iid);
  if (!result.changed) return freshCard(ctx, s, ops, project, iid, stale(issueStaleText('todo')));
  const target = result.value.target_type === 'Issue' ? result.value.target : undefined;
  return cardAfterWrite(
    ctx,
    s,
    ops,
    project,
    iid,
    done('todo', ctx.actor.userId, `issue ${issueRef(project, iid)}`),
    target,
  );
}

/**
 * 👍 as the clicker, a toggle as Slack's reactions are: the server refuses a second one, and when the clicker gave
 * it already it is taken back. Another refusal is explained when the issue explains it (their own issue).
 */
async function thumbsUp(
  ctx: RequestContext,
  s: Platform,
  ops: IssueOperations,
  project: Project,
  iid: number,
): Promise<SlackMessage> {
  try {
    await ops.thumbsUp(ctx, project, iid);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    const issue = await ops.withTimeStats(ctx, project, iid);
    const given = await ops.ownThumbsUp(ctx, project, iid);
    if (given !== null) {
      await ops.takeBackThumbsUp(ctx, project, iid, given);
      const notice = done('unthumbsup', ctx.actor.userId, `issue ${issueRef(project, iid)}`);
      return issueCard(ctx, s, project, { ...issue, upvotes: Math.max(0, issue.upvotes - 1) }, notice);
    }
    const viewer = (await ctx.session.connection())?.username ?? null;
    if (viewer !== null && issue.author.username === viewer) {
      return issueCard(ctx, s, project, issue, stale(issueStaleText('own')));
    }
    throw err;
  }
  return cardAfterWrite(
    ctx,
    s,
    ops,
    project,
    iid,
    done('thumbsup', ctx.actor.userId, `issue ${issueRef(project, iid)}`),
  );
}

async function trackTime(
  ctx: RequestContext,
  s: Platform,
  ops: IssueOperations,
  cmd: { target: { project: ProjectRef | null; iid: number } },
  action: TimeAction,
  duration?: string,
): Promise<Reply> {
  const project = await s.resolveProject(ctx, cmd.target.project);
  const iid = cmd.target.iid;
  const stats = await ops.time(ctx, project, iid, action, duration);
  const detail = duration ? `${duration} on issue ${issueRef(project, iid)}` : `issue ${issueRef(project, iid)}`;
  return ephemeral(
    buildIssueTime(project, iid, stats, { serverUrl: s.serverUrl, notice: done(action, ctx.actor.userId, detail) }),
  );
}

/** How a person named in a list filter reads in its "Filters:" line. */
async function shownPerson(ctx: RequestContext, s: Platform, ref: UserRef | undefined) {
  if (ref?.kind !== 'slack') return ref;
  return { username: `@${await s.people.idOrUsername(ctx, ref)}` };
}

/** Which issues a list reads: the project named, a group, the channel's default project, else the person's own. */
async function listScope(ctx: RequestContext, s: Platform, cmd: CommandOf<'issue.list'>): Promise<IssueListScope> {
  if (cmd.flags.group) return { kind: 'group', group: keyOf(cmd.flags.group) };
  try {
    return { kind: 'project', project: await s.resolveProject(ctx, cmd.target.project) };
  } catch (err) {
    if (err instanceof ProjectRequiredError) return { kind: 'mine' };
    throw err;
  }
}

/** The people a command names, as server ids; unknown names stop the command before its own call. */
const idsOf = async (ctx: RequestContext, s: Platform, refs: readonly UserRef[] | undefined) =>
  refs ? s.people.ids(ctx, refs) : undefined;

export const issues = n.define({
  lists: {
    async 'issue.list'(cmd, ctx, s, ops, place, notice) {
      const f = cmd.flags;
      const scope = await listScope(ctx, s, cmd);
      if ((f.createdAfter || f.createdBefore) && scope.kind !== 'project') {
        throw new InvalidInputError(
          md`Only a project's issues can be filtered by creation date: name a project, or leave out ${code('--created-after')} and ${code('--created-before')}. Nothing was sent.`,
        );
      }
      const authorId = f.author ? await s.people.id(ctx, f.author) : undefined;
      const assigneeId = f.assignee ? await s.people.id(ctx, f.assignee) : undefined;
      const perPage = pageSize(f.perPage);
      // Open ones unless told otherwise, as glab and GitLab's pages show them; issues asked for by iid whatever their state.
      const state = f.state ?? (f.iids ? undefined : 'opened');
      const options: IssueListOptions = {
        ...(state ? { state } : {}),
        ...(f.labels ? { labels: f.labels } : {}),
        ...(f.milestone ? { milestone: f.milestone } : {}),
        ...(f.scope ? { scope: f.scope } : {}),
        ...(authorId !== undefined ? { author_id: authorId } : {}),
        ...(assigneeId !== undefined ? { assignee_id: assigneeId } : {}),
        ...(f.iids ? { iids: f.iids } : {}),
        ...(f.search ? { search: f.search } : {}),
        ...(f.orderBy ? { order_by: f.orderBy } : {}),
        ...(f.sort ? { sort: f.sort } : {}),
        ...(f.createdAfter ? { created_after: f.createdAfter } : {}),
        ...(f.createdBefore ? { created_before: f.createdBefore } : {}),
        ...(f.page ? { page: f.page } : {}),
        ...(perPage ? { per_page: perPage } : {}),
      };
      const result = await ops.list(ctx, scope, options);
      const filters = describeFilters({
        ...f,
        group: undefined,
        labels: noLabels(f.labels) ? ['none'] : f.labels,
        author: await shownPerson(ctx, s, f.author),
        assignee: await shownPerson(ctx, s, f.assignee),
      });
      const where =
        scope.kind === 'project'
          ? `in ${projectLabel(scope.project)}`
          : scope.kind === 'group'
            ? `in group ${scope.group}`
            : // GET /issues reads the issues the person created unless told otherwise.
              MINE[f.scope ?? 'created-by-me'];
      const title = `Issues ${where}`;
      return buildIssueList(result.items, result, {
        title,
        filters,
        place,
        ctx: await cardContext(ctx, s, { notice }),
        project: scope.kind === 'project' ? scope.project : null,
        empty: md`No issues ${where}${filters ? md` match (${filters})` : ''}.`,
        ...(state === 'opened' && !f.state
          ? { hint: md`Open issues only: ${code('--state all')} shows the closed ones too.` }
          : {}),
      });
    },
  },
  commands: {
    async 'issue.show'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const message = await freshCard(ctx, s, ops, project, cmd.target.iid);
      return { kind: 'message', message, inChannel: cmd.share };
    },

    async 'issue.create'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const f = cmd.flags;
      const title = cmd.args.title?.trim();
      const labels = noLabels(f.labels) ? [] : f.labels;
      if (!title && f.resolveMr === undefined) {
        // No title: the form, once the project is known to exist (so nobody fills in a form for nothing).
        const known = await ops.project(ctx, project);
        const assignees = f.assignees
          ? (await Promise.all(f.assignees.map((r) => s.people.idOrUsername(ctx, r)))).join(', ')
          : undefined;
        const metadata = encodeModalMetadata(IssueModals.create, ctx.channelId, {
          p: projectButtonKey(known),
          ...(f.milestoneId !== undefined ? { m: f.milestoneId } : {}),
          ...(f.createdAt !== undefined ? { t: f.createdAt } : {}),
        });
        const view = buildIssueForm({
          projectLabel: projectLabel(known),
          metadata,
          initial: {
            ...(f.description !== undefined ? { description: f.description } : {}),
            ...(labels ? { labels } : {}),
            ...(assignees ? { assignees } : {}),
            ...(f.due ? { due: f.due } : {}),
            ...(f.confidential ? { confidential: true } : {}),
          },
        });
        return { kind: 'modal', view };
      }
      const assigneeIds = await idsOf(ctx, s, f.assignees);
      const issue = await ops.create(ctx, project, {
        ...(title ? { title } : {}),
        ...(f.description !== undefined ? { description: f.description } : {}),
        ...(labels?.length ? { labels } : {}),
        ...(assigneeIds ? { assignee_ids: assigneeIds } : {}),
        ...(f.milestoneId !== undefined ? { milestone_id: f.milestoneId } : {}),
        ...(f.due ? { due_date: f.due } : {}),
        ...(f.confidential ? { confidential: true } : {}),
        ...(f.createdAt ? { created_at: f.createdAt } : {}),
        ...(f.resolveMr !== undefined ? { merge_request_to_resolve_discussions_of: f.resolveMr } : {}),
        ...(f.discussion ? { discussion_to_resolve: f.discussion } : {}),
      });
      const notice = done('create', ctx.actor.userId, `issue ${issueRef(project, issue.iid)}`);
      return ephemeral(
        await issueCard(ctx, s, project, { ...issue, time_stats: NO_TIME }, notice, { shareable: true }),
      );
    },

    async 'issue.edit'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const iid = cmd.target.iid;
      const f = cmd.flags;
      const assigneeIds = await idsOf(ctx, s, f.assignees);
      const changed = await ops.edit(ctx, project, iid, {
        ...(f.title !== undefined ? { title: f.title } : {}),
        ...(f.description !== undefined ? { description: f.description } : {}),
        // `--labels none` takes every label off.
        ...(f.labels ? { labels: noLabels(f.labels) ? '' : f.labels } : {}),
        ...(assigneeIds ? { assignee_ids: assigneeIds } : {}),
        ...(f.milestoneId !== undefined ? { milestone_id: f.milestoneId } : {}),
        ...(f.due ? { due_date: f.due } : {}),
        ...(f.confidential !== undefined ? { confidential: f.confidential } : {}),
        ...(f.updatedAt ? { updated_at: f.updatedAt } : {}),
      });
      const notice = done('edit', ctx.actor.userId, `issue ${issueRef(project, iid)}`);
      return ephemeral(await cardAfterWrite(ctx, s, ops, project, iid, notice, changed));
    },

    async 'issue.close'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      return ephemeral(await changeState(ctx, s, ops, project, cmd.target.iid, 'close'));
    },

    async 'issue.reopen'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      return ephemeral(await changeState(ctx, s, ops, project, cmd.target.iid, 'reopen'));
    },

    async 'issue.delete'(cmd, ctx, s) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const iid = cmd.target.iid;
      const value = { p: projectButtonKey(project), i: iid };
      return ephemeral(buildConfirmPrompt(issueConfirmation(project, { iid }), IssueButtons.delete, value));
    },

    async 'issue.move'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const iid = cmd.target.iid;
      const to = await ops.moveTarget(ctx, project, iid, keyOf(cmd.args.toProject));
      const answer = await ops.move(ctx, project, iid, to);
      const newRef = issueRef(to.project, answer.iid);
      const url = issueUrl(s.serverUrl, to.project, answer);
      const detail = md`from ${issueRef(project, iid)} to ${linked(url, newRef)}`;
      const notice = done('move', ctx.actor.userId, detail);
      return ephemeral(await cardAfterWrite(ctx, s, ops, to.project, answer.iid, notice, answer));
    },

    async 'issue.subscribe'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      return ephemeral(await subscription(ctx, s, ops, project, cmd.target.iid, true));
    },

    async 'issue.unsubscribe'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      return ephemeral(await subscription(ctx, s, ops, project, cmd.target.iid, false));
    },

    async 'issue.todo'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      return ephemeral(await addTodo(ctx, s, ops, project, cmd.target.iid));
    },

    async 'issue.estimate'(cmd, ctx, s, ops) {
      return trackTime(ctx, s, ops, cmd, 'estimate', cmd.args.duration.text);
    },

    async 'issue.reset-estimate'(cmd, ctx, s, ops) {
      return trackTime(ctx, s, ops, cmd, 'reset-estimate');
    },

    async 'issue.spend'(cmd, ctx, s, ops) {
      return trackTime(ctx, s, ops, cmd, 'spend', cmd.args.duration.text);
    },

    async 'issue.reset-spent'(cmd, ctx, s, ops) {
      return trackTime(ctx, s, ops, cmd, 'reset-spent');
    },

    async 'issue.time'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const stats = await ops.timeStats(ctx, project, cmd.target.iid);
      const message = buildIssueTime(project, cmd.target.iid, stats, { serverUrl: s.serverUrl });
      return { kind: 'message', message, inChannel: cmd.share };
    },

    async 'issue.closed-by'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const result = await ops.closedBy(ctx, project, cmd.target.iid);
      const message = buildClosedBy(project, cmd.target.iid, result.items, result, { serverUrl: s.serverUrl });
      return { kind: 'message', message, inChannel: cmd.share };
    },

    async 'issue.agent'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const detail = await ops.agent(ctx, project, cmd.target.iid);
      return {
        kind: 'message',
        message: buildIssueAgent(project, cmd.target.iid, detail, s.serverUrl),
        inChannel: cmd.share,
      };
    },
  },
  buttons: [
    n.on(IssueButtons.show, async (v, ctx, s, ops) => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return ephemeral(await freshCard(ctx, s, ops, project, v.i));
    }),
    n.on(IssueButtons.close, async (v, ctx, s, ops): Promise<Reply> => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return { kind: 'update', message: await changeState(ctx, s, ops, project, v.i, 'close') };
    }),
    n.on(IssueButtons.reopen, async (v, ctx, s, ops): Promise<Reply> => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return { kind: 'update', message: await changeState(ctx, s, ops, project, v.i, 'reopen') };
    }),
    n.on(IssueButtons.subscribe, async (v, ctx, s, ops): Promise<Reply> => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return { kind: 'update', message: await subscription(ctx, s, ops, project, v.i, true) };
    }),
    n.on(IssueButtons.unsubscribe, async (v, ctx, s, ops): Promise<Reply> => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return { kind: 'update', message: await subscription(ctx, s, ops, project, v.i, false) };
    }),
    n.on(IssueButtons.todo, async (v, ctx, s, ops): Promise<Reply> => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return { kind: 'update', message: await addTodo(ctx, s, ops, project, v.i) };
    }),
    n.on(IssueButtons.thumbsup, async (v, ctx, s, ops): Promise<Reply> => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return { kind: 'update', message: await thumbsUp(ctx, s, ops, project, v.i) };
    }),
    n.on(IssueButtons.delete, async (v, ctx, s, ops): Promise<Reply> => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      await ops.remove(ctx, project, v.i);
      return { kind: 'update', message: buildIssueDeleted(project, v.i, ctx.actor.userId) };
    }),
    n.on(IssueButtons.share, async (v, ctx, s, ops): Promise<Reply> => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return { kind: 'message', message: await freshCard(ctx, s, ops, project, v.i), inChannel: true };
    }),
  ],
  modals: [
    n.modal(IssueModals.fromMessage, submitIssueFromMessage),
    n.modal(IssueModals.create, async (v, ctx, s, ops) => {
      const read = readIssueForm(ctx.values);
      if (!read.ok) return { kind: 'errors', errors: definedOnly(read.errors) };
      const form = read.form;
      let assigneeIds: number[];
      try {
        assigneeIds = await s.people.ids(ctx, form.assignees);
      } catch (err) {
        if (!(err instanceof UnknownPersonError)) throw err;
        return { kind: 'errors', errors: { [IssueFormFields.assignees]: unknownAssignee(err.reason, err.who) } };
      }
      return {
        kind: 'accept',
        reply: async () => {
          const project = await s.resolveProject(ctx, refOf(v.p));
          const issue = await ops.create(ctx, project, {
            title: form.title,
            ...(form.description !== undefined ? { description: form.description } : {}),
            ...(form.labels.length ? { labels: form.labels } : {}),
            ...(assigneeIds.length ? { assignee_ids: assigneeIds } : {}),
            ...(v.m !== undefined ? { milestone_id: v.m } : {}),
            ...(form.due ? { due_date: form.due } : {}),
            ...(form.confidential ? { confidential: true } : {}),
            ...(v.t !== undefined ? { created_at: v.t } : {}),
          });
          const notice = done('create', ctx.actor.userId, `issue ${issueRef(project, issue.iid)}`);
          const card = await issueCard(ctx, s, project, { ...issue, time_stats: NO_TIME }, notice, { shareable: true });
          return ephemeral(card);
        },
      };
    }),
  ],
});

function definedOnly(errors: Partial<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).filter((e): e is [string, string] => e[1] !== undefined));
}
