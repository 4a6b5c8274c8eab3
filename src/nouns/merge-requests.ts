import { MrButtons } from '../buttons/merge-requests.js';
import { InvalidInputError, ProjectRequiredError, RefusedError } from '../errors.js';
import type { MergeRequestListOptions } from '../gitlab/merge-requests.js';
import { type Project, projectButtonKey, projectLabel, projectPageUrl } from '../gitlab/project.js';
import { encodeModalMetadata, ShaSchema } from '../ids.js';
import { MergeModalInput, MrModals } from '../modals/merge-requests.js';
import type { RequestContext } from '../operations/context.js';
import { createMergeRequestOperations, type MergeRequestOperations } from '../operations/merge-requests.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/common.js';
import { describeFilters, pageSize } from '../views/lists.js';
import { buildCloses, buildCommits, buildVersion, buildVersions } from '../views/merge-request-details.js';
import { buildMergeModal, mergeBlocker, mergeConfirmation, shaMismatchText } from '../views/merge-request-merging.js';
import {
  buildMergeRequestDeleted,
  buildMergeRequestList,
  buildTimeStats,
  deleteConfirmation,
  mrAlreadyOpenText,
  mrRef,
} from '../views/merge-requests.js';
import { code, md } from '../views/mrkdwn.js';
import { done, stale } from '../views/notice.js';
import {
  addTodo,
  cancelAutoMerge,
  card,
  changes,
  diffReply,
  isNoLabel,
  type MergeAsk,
  mergeAndRedraw,
  personWord,
  resolve,
  setState,
  subscribe,
  time,
} from './merge-request-actions.js';
import { openedFrom, refOf } from './support.js';
import { ephemeral, type ModalAnswer, noun, type Platform, type Reply } from './types.js';

type Ops = MergeRequestOperations;

// Merge requests: both lists, the card and its buttons, and every row of the Merge requests section.
// Merging is pinned to the head sha the person saw (the card's, or the one the typed prompt named): a push
// in between makes the server refuse with 409 instead of merging code nobody looked at.

const n = noun('mr', (d) => createMergeRequestOperations(d));

/** Opens the merge modal: what the card showed, pinned to its head; the submission merges. */
const openMerge = (auto: boolean) =>
  n.on(auto ? MrButtons.autoMerge : MrButtons.merge, async (v, ctx): Promise<Reply> => {
    const metadata = encodeModalMetadata(
      MrModals.merge,
      ctx.channelId,
      { p: v.p, i: v.i, s: v.s, w: auto },
      openedFrom(ctx),
    );
    return { kind: 'modal', view: buildMergeModal(v, auto, metadata) };
  });

const onCard = (
  def: (typeof MrButtons)['close' | 'reopen' | 'subscribe' | 'unsubscribe' | 'todo' | 'cancelAutoMerge'],
  act: (ctx: RequestContext, s: Platform, ops: Ops, project: Project, iid: number) => Promise<SlackMessage>,
) =>
  n.on(def, async (v, ctx, s, ops): Promise<Reply> => {
    const project = await s.resolveProject(ctx, refOf(v.p));
    return { kind: 'update', message: await act(ctx, s, ops, project, v.i) };
  });

export const mergeRequests = n.define({
  lists: {
    async 'mr.list'(cmd, ctx, s, ops, place, notice) {
      const f = cmd.flags;
      // No project and no channel default: the person's merge requests everywhere.
      const project = await s.resolveProject(ctx, cmd.target.project).catch((err: unknown) => {
        if (err instanceof ProjectRequiredError && !cmd.target.project) return null;
        throw err;
      });
      if (!project && f.iids) {
        throw new InvalidInputError(
          md`${code('--iids')} needs a project: give ${code('group/project')} or set one with ${code(`${s.slashCommand} use group/project`)}.`,
        );
      }
      const authorId = f.author ? await s.people.id(ctx, f.author) : undefined;
      const assigneeId = f.assignee ? await s.people.id(ctx, f.assignee) : undefined;
      const perPage = pageSize(f.perPage);
      const options: MergeRequestListOptions = {
        ...(f.state ? { state: f.state } : {}),
        ...(f.orderBy ? { order_by: f.orderBy } : {}),
        ...(f.sort ? { sort: f.sort } : {}),
        ...(f.milestone ? { milestone: f.milestone } : {}),
        ...(f.view ? { view: f.view } : {}),
        ...(f.labels ? { labels: f.labels } : {}),
        ...(f.createdAfter ? { created_after: f.createdAfter } : {}),
        ...(f.createdBefore ? { created_before: f.createdBefore } : {}),
        ...(f.scope ? { scope: f.scope } : {}),
        ...(authorId !== undefined ? { author_id: authorId } : {}),
        ...(assigneeId !== undefined ? { assignee_id: assigneeId } : {}),
        ...(f.page ? { page: f.page } : {}),
        ...(perPage ? { per_page: perPage } : {}),
      };
      const page = project
        ? await ops.list(ctx, project, { ...options, ...(f.iids ? { iids: f.iids } : {}) })
        : await ops.listAll(ctx, options);
      const filters = describeFilters({
        ...f,
        labels: isNoLabel(f.labels) ? ['none'] : f.labels,
        author: await personWord(ctx, s, f.author),
        assignee: await personWord(ctx, s, f.assignee),
      });
      const title = project
        ? `Merge requests in ${projectLabel(project)}`
        : f.scope === 'assigned-to-me'
          ? 'Merge requests assigned to you'
          : f.scope === 'all'
            ? 'Merge requests you can see'
            : 'Merge requests you opened';
      return buildMergeRequestList(page.items, page, {
        title,
        filters,
        project,
        serverUrl: s.serverUrl,
        notice,
        place,
      });
    },
  },
  commands: {
    async 'mr.show'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      const mr = await ops.get(ctx, project, iid);
      return { kind: 'message', message: await card(ctx, s, ops, project, mr), inChannel: cmd.share };
    },
    async 'mr.commits'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      const page = await ops.commits(ctx, project, iid, { per_page: 100 });
      const message = buildCommits({ iid }, project, page.items, {
        serverUrl: s.serverUrl,
        now: ctx.now,
        timeZone: await s.timeZoneOf(ctx.actor.userId),
        total: page.total,
      });
      return { kind: 'message', message, inChannel: cmd.share };
    },
    async 'mr.changes'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      return changes(ctx, s, ops, project, iid, cmd.share);
    },
    async 'mr.versions'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      const page = await ops.versions(ctx, project, iid);
      const message = buildVersions({ iid }, project, page.items, {
        now: ctx.now,
        timeZone: await s.timeZoneOf(ctx.actor.userId),
        slashCommand: s.slashCommand,
      });
      return { kind: 'message', message, inChannel: cmd.share };
    },
    async 'mr.version'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      const v = await ops.version(ctx, project, iid, cmd.args.versionId);
      const answer = buildVersion({ iid }, project, v, {
        serverUrl: s.serverUrl,
        now: ctx.now,
        timeZone: await s.timeZoneOf(ctx.actor.userId),
        where: cmd.share ? 'in this channel' : 'in a direct message',
      });
      return diffReply(answer, cmd.share);
    },
    async 'mr.closes'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      const page = await ops.closes(ctx, project, iid);
      const web = projectPageUrl(s.serverUrl, project, `merge_requests/${iid}`);
      const message = buildCloses({ iid, web_url: web ?? undefined }, project, page.items, { serverUrl: s.serverUrl });
      return { kind: 'message', message, inChannel: cmd.share };
    },
    async 'mr.create'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const f = cmd.flags;
      const assigneeId = f.assignee ? await s.people.id(ctx, f.assignee) : undefined;
      const { sourceBranch, targetBranch, title } = cmd.args;
      const mr = await ops
        .create(ctx, project, {
          source_branch: sourceBranch,
          target_branch: targetBranch,
          title,
          ...(f.description !== undefined ? { description: f.description } : {}),
          ...(assigneeId !== undefined ? { assignee_id: assigneeId } : {}),
          ...(f.labels && !isNoLabel(f.labels) ? { labels: f.labels } : {}),
          ...(f.milestoneId ? { milestone_id: f.milestoneId } : {}),
          ...(f.targetProject ? { target_project_id: f.targetProject } : {}),
          ...(f.removeSourceBranch ? { remove_source_branch: true } : {}),
        })
        .catch((err: unknown) => {
          if (err instanceof RefusedError && err.refusal.reason === 'exists') {
            throw new InvalidInputError(mrAlreadyOpenText(sourceBranch, targetBranch, err.refusal.serverMessage));
          }
          throw err;
        });
      const message = await card(ctx, s, ops, project, mr, done('create', ctx.actor.userId, `!${mr.iid}`));
      return { kind: 'message', message, inChannel: cmd.share };
    },
    async 'mr.edit'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      const f = cmd.flags;
      const assigneeId = f.assignee ? await s.people.id(ctx, f.assignee) : undefined;
      const mr = await ops.edit(ctx, project, iid, {
        ...(f.title !== undefined ? { title: f.title } : {}),
        ...(f.description !== undefined ? { description: f.description } : {}),
        ...(f.targetBranch !== undefined ? { target_branch: f.targetBranch } : {}),
        // `--labels none` takes every label off.
        ...(f.labels ? { labels: isNoLabel(f.labels) ? '' : f.labels } : {}),
        ...(assigneeId !== undefined ? { assignee_id: assigneeId } : {}),
        ...(f.milestoneId ? { milestone_id: f.milestoneId } : {}),
        ...(f.removeSourceBranch !== undefined ? { remove_source_branch: f.removeSourceBranch } : {}),
      });
      return ephemeral(await card(ctx, s, ops, project, mr, done('edit', ctx.actor.userId, `!${iid}`)));
    },
    async 'mr.close'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      return ephemeral(await setState(ctx, s, ops, project, iid, 'close'));
    },
    async 'mr.reopen'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      return ephemeral(await setState(ctx, s, ops, project, iid, 'reopen'));
    },
    async 'mr.merge'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      const f = cmd.flags;
      if (f.sha !== undefined && !ShaSchema.safeParse(f.sha).success) {
        throw new InvalidInputError(
          md`${code('--sha')} takes a commit sha (7 to 64 hexadecimal characters), not ${code(f.sha.slice(0, 80))}. Nothing was sent.`,
        );
      }
      if (f.message !== undefined && JSON.stringify(f.message).length > 1000) {
        throw new InvalidInputError(
          'The merge commit message is too long to confirm here (keep it under about 900 characters). Nothing was sent.',
        );
      }
      const mr = await ops.get(ctx, project, iid);
      const blocker = mergeBlocker(mr, { whenPipelineSucceeds: f.whenPipelineSucceeds === true });
      if (blocker) return ephemeral(await card(ctx, s, ops, project, mr, stale(blocker)));
      const given = f.sha?.toLowerCase();
      // A shortened sha of the head is the head; any other sha is not what would be merged.
      if (given && mr.sha && !mr.sha.startsWith(given)) {
        return ephemeral(await card(ctx, s, ops, project, mr, stale(shaMismatchText(mr.sha, given))));
      }
      const sha = mr.sha;
      if (!sha) throw new InvalidInputError(md`${mrRef(project, iid)} has no head commit to merge.`);
      const value = {
        p: projectButtonKey(project),
        i: iid,
        s: sha,
        ...(f.removeSourceBranch ? { r: true as const } : {}),
        ...(f.whenPipelineSucceeds ? { w: true as const } : {}),
        ...(f.message ? { m: f.message } : {}),
      };
      const confirmation = mergeConfirmation(mr, sha, {
        removeSourceBranch: f.removeSourceBranch === true,
        whenPipelineSucceeds: f.whenPipelineSucceeds === true,
        ...(f.message ? { message: f.message } : {}),
      });
      return ephemeral(buildConfirmPrompt(confirmation, MrButtons.confirmMerge, value));
    },
    async 'mr.cancel-auto-merge'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      return ephemeral(await cancelAutoMerge(ctx, s, ops, project, iid, false));
    },
    async 'mr.delete'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      const mr = await ops.get(ctx, project, iid);
      const value = { p: projectButtonKey(project), i: iid };
      return ephemeral(buildConfirmPrompt(deleteConfirmation(mr, project), MrButtons.delete, value));
    },
    async 'mr.subscribe'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      return ephemeral(await subscribe(ctx, s, ops, project, iid, true));
    },
    async 'mr.unsubscribe'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      return ephemeral(await subscribe(ctx, s, ops, project, iid, false));
    },
    async 'mr.todo'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      return ephemeral(await addTodo(ctx, s, ops, project, iid));
    },
    async 'mr.estimate'(cmd, ctx, s, ops) {
      return time(ctx, s, ops, cmd.target, 'estimate', cmd.args.duration.text);
    },
    async 'mr.reset-estimate'(cmd, ctx, s, ops) {
      return time(ctx, s, ops, cmd.target, 'reset-estimate');
    },
    async 'mr.spend'(cmd, ctx, s, ops) {
      return time(ctx, s, ops, cmd.target, 'spend', cmd.args.duration.text);
    },
    async 'mr.reset-spent'(cmd, ctx, s, ops) {
      return time(ctx, s, ops, cmd.target, 'reset-spent');
    },
    async 'mr.time'(cmd, ctx, s, ops) {
      const { project, iid } = await resolve(ctx, s, cmd.target);
      const message = buildTimeStats(project, iid, await ops.timeStats(ctx, project, iid));
      return { kind: 'message', message, inChannel: cmd.share };
    },
  },
  buttons: [
    n.on(MrButtons.show, async (v, ctx, s, ops) => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return ephemeral(await card(ctx, s, ops, project, await ops.get(ctx, project, v.i)));
    }),
    openMerge(false),
    openMerge(true),
    n.on(MrButtons.confirmMerge, async (v, ctx, s, ops): Promise<Reply> => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      const ask: MergeAsk = {
        sha: v.s,
        whenPipelineSucceeds: v.w === true,
        ...(v.r ? { removeSourceBranch: true } : {}),
        ...(v.m ? { message: v.m } : {}),
      };
      return { kind: 'update', message: await mergeAndRedraw(ctx, s, ops, project, v.i, ask) };
    }),
    onCard(MrButtons.cancelAutoMerge, (ctx, s, ops, project, iid) => cancelAutoMerge(ctx, s, ops, project, iid, true)),
    onCard(MrButtons.close, (ctx, s, ops, project, iid) => setState(ctx, s, ops, project, iid, 'close')),
    onCard(MrButtons.reopen, (ctx, s, ops, project, iid) => setState(ctx, s, ops, project, iid, 'reopen')),
    onCard(MrButtons.subscribe, (ctx, s, ops, project, iid) => subscribe(ctx, s, ops, project, iid, true)),
    onCard(MrButtons.unsubscribe, (ctx, s, ops, project, iid) => subscribe(ctx, s, ops, project, iid, false)),
    onCard(MrButtons.todo, addTodo),
    n.on(MrButtons.changes, async (v, ctx, s, ops) => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return changes(ctx, s, ops, project, v.i, false);
    }),
    n.on(MrButtons.delete, async (v, ctx, s, ops): Promise<Reply> => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      await ops.remove(ctx, project, v.i);
      return { kind: 'update', message: buildMergeRequestDeleted(project, v.i, ctx.actor.userId) };
    }),
  ],
  modals: [
    n.modal(
      MrModals.merge,
      async (v, ctx, s, ops): Promise<ModalAnswer> => ({
        kind: 'accept',
        reply: async () => {
          const project = await s.resolveProject(ctx, refOf(v.p));
          const chosen = ctx.values[MergeModalInput.block]?.[MergeModalInput.action]?.selected_options ?? [];
          const message = await mergeAndRedraw(ctx, s, ops, project, v.i, {
            sha: v.s,
            removeSourceBranch: chosen.some((o) => o.value === MergeModalInput.option),
            whenPipelineSucceeds: v.w,
          });
          return { kind: 'update', message };
        },
      }),
    ),
  ],
});
