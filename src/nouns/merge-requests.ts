import { MrButtons } from '../buttons/merge-requests.js';
import { InvalidInputError, ProjectRequiredError, RefusedError } from '../errors.js';
import type { MergeRequestListOptions } from '../gitlab/merge-requests.js';
import { projectButtonKey, projectLabel, projectPageUrl } from '../gitlab/project.js';
import { encodeModalMetadata, ShaSchema } from '../ids.js';
import { MergeModalInput, MrModals } from '../modals/merge-requests.js';
import { createMergeRequestOperations } from '../operations/merge-requests.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/common.js';
import { describeFilters, pageSize } from '../views/lists.js';
import { buildCloses, buildCommits, buildVersion, buildVersions } from '../views/merge-request-details.js';
import { buildMergeModal, mergeBlocker, mergeConfirmation, shaMismatchText } from '../views/merge-request-merging.js';
import {
  buildMergeRequestDeleted,
  buildMergeRequestList,
  deleteConfirmation,
  mrAlreadyOpenText,
  mrRef,
} from '../views/merge-requests.js';
import { code, md } from '../views/mrkdwn.js';
import { done, stale } from '../views/notice.js';
import { buildTimeTracking } from '../views/time-tracking.js';
import {
  addTodo,
  cancelAutoMerge,
  card,
  changes,
  diffReply,
  isNoLabel,
  type MergeAsk,
  type MergeRequestAt,
  mergeAndRedraw,
  personWord,
  resolve,
  setState,
  subscribe,
  time,
} from './merge-request-actions.js';
import { openedFrom, readersOf, refOf } from './support.js';
import { ephemeral, type ModalAnswer, noun, type Reply } from './types.js';

// Merge requests: both lists, the card and its buttons, and every row of the Merge requests section.
// Merging is pinned to the head sha the person saw (the card's, or the one the typed prompt named): a push
// in between makes the server refuse with 409 instead of merging code nobody looked at.

const mrNoun = noun('mr', (deps) => createMergeRequestOperations(deps));

/** Opens the merge modal: what the card showed, pinned to its head; the submission merges. */
const openMerge = (auto: boolean) =>
  mrNoun.on(auto ? MrButtons.autoMerge : MrButtons.merge, async (value, ctx): Promise<Reply> => {
    const metadata = encodeModalMetadata(
      MrModals.merge,
      ctx.channelId,
      { p: value.p, i: value.i, s: value.s, w: auto },
      openedFrom(ctx),
    );
    return { kind: 'modal', view: buildMergeModal(value, auto, metadata) };
  });

const onCard = (
  def: (typeof MrButtons)['close' | 'reopen' | 'subscribe' | 'unsubscribe' | 'todo' | 'cancelAutoMerge'],
  act: (mergeRequest: MergeRequestAt) => Promise<SlackMessage>,
) =>
  mrNoun.on(def, async (value, ctx, platform, ops): Promise<Reply> => {
    const project = await platform.resolveProject(ctx, refOf(value.p));
    return { kind: 'update', message: await act({ ctx, platform, ops, project, iid: value.i }) };
  });

export const mergeRequests = mrNoun.define({
  lists: {
    async 'mr.list'(command, ctx, platform, ops, place, notice) {
      const flags = command.flags;
      // No project and no channel default: the person's merge requests everywhere.
      const project = await platform.resolveProject(ctx, command.target.project).catch((err: unknown) => {
        if (err instanceof ProjectRequiredError && !command.target.project) return null;
        throw err;
      });
      if (!project && flags.iids) {
        throw new InvalidInputError(
          md`${code('--iids')} needs a project: give ${code('group/project')} or set one with ${code(`${platform.slashCommand} use group/project`)}.`,
        );
      }
      const authorId = flags.author ? await platform.people.id(ctx, flags.author) : undefined;
      const assigneeId = flags.assignee ? await platform.people.id(ctx, flags.assignee) : undefined;
      const perPage = pageSize(flags.perPage);
      // Open ones unless told otherwise, as the issue list does; merge requests asked for by iid whatever their state.
      const state = flags.state ?? (flags.iids ? undefined : 'opened');
      const options: MergeRequestListOptions = {
        ...(state ? { state } : {}),
        ...(flags.orderBy ? { order_by: flags.orderBy } : {}),
        ...(flags.sort ? { sort: flags.sort } : {}),
        ...(flags.milestone ? { milestone: flags.milestone } : {}),
        ...(flags.view ? { view: flags.view } : {}),
        ...(flags.labels ? { labels: flags.labels } : {}),
        ...(flags.createdAfter ? { created_after: flags.createdAfter } : {}),
        ...(flags.createdBefore ? { created_before: flags.createdBefore } : {}),
        ...(flags.scope ? { scope: flags.scope } : {}),
        ...(authorId !== undefined ? { author_id: authorId } : {}),
        ...(assigneeId !== undefined ? { assignee_id: assigneeId } : {}),
        ...(flags.page ? { page: flags.page } : {}),
        ...(perPage ? { per_page: perPage } : {}),
      };
      const page = project
        ? await ops.list(ctx, project, { ...options, ...(flags.iids ? { iids: flags.iids } : {}) })
        : await ops.listAll(ctx, options);
      const filters = describeFilters({
        ...flags,
        labels: isNoLabel(flags.labels) ? ['none'] : flags.labels,
        author: await personWord(ctx, platform, flags.author),
        assignee: await personWord(ctx, platform, flags.assignee),
      });
      const title = project
        ? `Merge requests in ${projectLabel(project)}`
        : flags.scope === 'assigned-to-me'
          ? 'Merge requests assigned to you'
          : flags.scope === 'all'
            ? 'Merge requests you can see'
            : 'Merge requests you opened';
      return buildMergeRequestList(page.items, page, {
        title,
        filters,
        project,
        serverUrl: platform.serverUrl,
        notice,
        place,
        ...(state === 'opened' && !flags.state
          ? { hint: md`Open merge requests only: ${code('--state all')} shows the merged and closed ones too.` }
          : {}),
      });
    },
  },
  commands: {
    async 'mr.show'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      const mr = await ops.get(ctx, project, iid);
      return { kind: 'message', message: await card({ ctx, platform, ops, project, mr }), inChannel: command.share };
    },
    async 'mr.commits'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      const page = await ops.commits(ctx, project, iid, { per_page: 100 });
      const message = buildCommits({ iid }, project, page.items, {
        serverUrl: platform.serverUrl,
        ...(await readersOf(ctx, platform)),
        total: page.total,
      });
      return { kind: 'message', message, inChannel: command.share };
    },
    async 'mr.changes'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      return changes({ ctx, platform, ops, project, iid, share: command.share });
    },
    async 'mr.versions'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      const page = await ops.versions(ctx, project, iid);
      const message = buildVersions({ iid }, project, page.items, {
        ...(await readersOf(ctx, platform)),
        slashCommand: platform.slashCommand,
      });
      return { kind: 'message', message, inChannel: command.share };
    },
    async 'mr.version'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      const value = await ops.version(ctx, project, { iid, versionId: command.args.versionId });
      const answer = buildVersion({ iid }, project, value, {
        serverUrl: platform.serverUrl,
        ...(await readersOf(ctx, platform)),
        where: command.share ? 'in this channel' : 'in a direct message',
      });
      return diffReply(answer, command.share);
    },
    async 'mr.closes'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      const page = await ops.closes(ctx, project, iid);
      const web = projectPageUrl(platform.serverUrl, project, `merge_requests/${iid}`);
      const message = buildCloses({ iid, web_url: web ?? undefined }, project, page.items, {
        serverUrl: platform.serverUrl,
      });
      return { kind: 'message', message, inChannel: command.share };
    },
    async 'mr.create'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const flags = command.flags;
      const assigneeId = flags.assignee ? await platform.people.id(ctx, flags.assignee) : undefined;
      const { sourceBranch, targetBranch, title } = command.args;
      const mr = await ops
        .create(ctx, project, {
          source_branch: sourceBranch,
          target_branch: targetBranch,
          title,
          ...(flags.description !== undefined ? { description: flags.description } : {}),
          ...(assigneeId !== undefined ? { assignee_id: assigneeId } : {}),
          ...(flags.labels && !isNoLabel(flags.labels) ? { labels: flags.labels } : {}),
          ...(flags.milestoneId ? { milestone_id: flags.milestoneId } : {}),
          ...(flags.targetProject ? { target_project_id: flags.targetProject } : {}),
          ...(flags.removeSourceBranch ? { remove_source_branch: true } : {}),
        })
        .catch((err: unknown) => {
          if (err instanceof RefusedError && err.refusal.reason === 'exists') {
            throw new InvalidInputError(mrAlreadyOpenText(sourceBranch, targetBranch, err.refusal.serverMessage));
          }
          throw err;
        });
      const message = await card({
        ctx,
        platform,
        ops,
        project,
        mr,
        notice: done('create', { actorId: ctx.actor.userId, detail: `!${mr.iid}` }),
      });
      return { kind: 'message', message, inChannel: command.share };
    },
    async 'mr.edit'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      const flags = command.flags;
      const assigneeId = flags.assignee ? await platform.people.id(ctx, flags.assignee) : undefined;
      const mr = await ops.edit(ctx, project, iid, {
        ...(flags.title !== undefined ? { title: flags.title } : {}),
        ...(flags.description !== undefined ? { description: flags.description } : {}),
        ...(flags.targetBranch !== undefined ? { target_branch: flags.targetBranch } : {}),
        // `--labels none` takes every label off.
        ...(flags.labels ? { labels: isNoLabel(flags.labels) ? '' : flags.labels } : {}),
        ...(assigneeId !== undefined ? { assignee_id: assigneeId } : {}),
        ...(flags.milestoneId ? { milestone_id: flags.milestoneId } : {}),
        ...(flags.removeSourceBranch !== undefined ? { remove_source_branch: flags.removeSourceBranch } : {}),
      });
      return ephemeral(
        await card({
          ctx,
          platform,
          ops,
          project,
          mr,
          notice: done('edit', { actorId: ctx.actor.userId, detail: `!${iid}` }),
        }),
      );
    },
    async 'mr.close'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      return ephemeral(await setState({ ctx, platform, ops, project, iid, event: 'close' }));
    },
    async 'mr.reopen'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      return ephemeral(await setState({ ctx, platform, ops, project, iid, event: 'reopen' }));
    },
    async 'mr.merge'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      const flags = command.flags;
      if (flags.sha !== undefined && !ShaSchema.safeParse(flags.sha).success) {
        throw new InvalidInputError(
          md`${code('--sha')} takes a commit sha (7 to 64 hexadecimal characters), not ${code(flags.sha.slice(0, 80))}. Nothing was sent.`,
        );
      }
      if (flags.message !== undefined && JSON.stringify(flags.message).length > 1000) {
        throw new InvalidInputError(
          'The merge commit message is too long to confirm here (keep it under about 900 characters). Nothing was sent.',
        );
      }
      const mr = await ops.get(ctx, project, iid);
      const blocker = mergeBlocker(mr, { whenPipelineSucceeds: flags.whenPipelineSucceeds === true });
      if (blocker) return ephemeral(await card({ ctx, platform, ops, project, mr, notice: stale(blocker) }));
      const given = flags.sha?.toLowerCase();
      // A shortened sha of the head is the head; any other sha is not what would be merged.
      if (given && mr.sha && !mr.sha.startsWith(given)) {
        return ephemeral(
          await card({ ctx, platform, ops, project, mr, notice: stale(shaMismatchText(mr.sha, given)) }),
        );
      }
      const sha = mr.sha;
      if (!sha) throw new InvalidInputError(md`${mrRef(project, iid)} has no head commit to merge.`);
      const value = {
        p: projectButtonKey(project),
        i: iid,
        s: sha,
        ...(flags.removeSourceBranch ? { r: true as const } : {}),
        ...(flags.whenPipelineSucceeds ? { w: true as const } : {}),
        ...(flags.message ? { m: flags.message } : {}),
      };
      const confirmation = mergeConfirmation(mr, sha, {
        removeSourceBranch: flags.removeSourceBranch === true,
        whenPipelineSucceeds: flags.whenPipelineSucceeds === true,
        ...(flags.message ? { message: flags.message } : {}),
      });
      return ephemeral(buildConfirmPrompt(confirmation, MrButtons.confirmMerge, value));
    },
    async 'mr.cancel-auto-merge'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      return ephemeral(await cancelAutoMerge({ ctx, platform, ops, project, iid, fromCard: false }));
    },
    async 'mr.delete'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      const mr = await ops.get(ctx, project, iid);
      const value = { p: projectButtonKey(project), i: iid };
      return ephemeral(buildConfirmPrompt(deleteConfirmation(mr, project), MrButtons.delete, value));
    },
    async 'mr.subscribe'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      return ephemeral(await subscribe({ ctx, platform, ops, project, iid, on: true }));
    },
    async 'mr.unsubscribe'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      return ephemeral(await subscribe({ ctx, platform, ops, project, iid, on: false }));
    },
    async 'mr.todo'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      return ephemeral(await addTodo({ ctx, platform, ops, project, iid }));
    },
    async 'mr.estimate'(command, ctx, platform, ops) {
      return time({
        ctx,
        platform,
        ops,
        target: command.target,
        action: 'estimate',
        duration: command.args.duration.text,
      });
    },
    async 'mr.reset-estimate'(command, ctx, platform, ops) {
      return time({ ctx, platform, ops, target: command.target, action: 'reset-estimate' });
    },
    async 'mr.spend'(command, ctx, platform, ops) {
      return time({
        ctx,
        platform,
        ops,
        target: command.target,
        action: 'spend',
        duration: command.args.duration.text,
      });
    },
    async 'mr.reset-spent'(command, ctx, platform, ops) {
      return time({ ctx, platform, ops, target: command.target, action: 'reset-spent' });
    },
    async 'mr.time'(command, ctx, platform, ops) {
      const { project, iid } = await resolve(ctx, platform, command.target);
      const stats = await ops.timeStats(ctx, project, iid);
      const message = buildTimeTracking({ kind: 'merge_request', project, iid }, stats, {
        serverUrl: platform.serverUrl,
      });
      return { kind: 'message', message, inChannel: command.share };
    },
  },
  buttons: [
    mrNoun.on(MrButtons.show, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return ephemeral(await card({ ctx, platform, ops, project, mr: await ops.get(ctx, project, value.i) }));
    }),
    openMerge(false),
    openMerge(true),
    mrNoun.on(MrButtons.confirmMerge, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      const ask: MergeAsk = {
        sha: value.s,
        whenPipelineSucceeds: value.w === true,
        ...(value.r ? { removeSourceBranch: true } : {}),
        ...(value.m ? { message: value.m } : {}),
      };
      return { kind: 'update', message: await mergeAndRedraw({ ctx, platform, ops, project, iid: value.i, ask }) };
    }),
    onCard(MrButtons.cancelAutoMerge, (mergeRequest) => cancelAutoMerge({ ...mergeRequest, fromCard: true })),
    onCard(MrButtons.close, (mergeRequest) => setState({ ...mergeRequest, event: 'close' })),
    onCard(MrButtons.reopen, (mergeRequest) => setState({ ...mergeRequest, event: 'reopen' })),
    onCard(MrButtons.subscribe, (mergeRequest) => subscribe({ ...mergeRequest, on: true })),
    onCard(MrButtons.unsubscribe, (mergeRequest) => subscribe({ ...mergeRequest, on: false })),
    onCard(MrButtons.todo, addTodo),
    mrNoun.on(MrButtons.changes, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return changes({ ctx, platform, ops, project, iid: value.i, share: false });
    }),
    mrNoun.on(MrButtons.delete, async (value, ctx, platform, ops): Promise<Reply> => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      await ops.remove(ctx, project, value.i);
      return { kind: 'update', message: buildMergeRequestDeleted(project, value.i, ctx.actor.userId) };
    }),
  ],
  modals: [
    mrNoun.modal(
      MrModals.merge,
      async (value, ctx, platform, ops): Promise<ModalAnswer> => ({
        kind: 'accept',
        reply: async () => {
          const project = await platform.resolveProject(ctx, refOf(value.p));
          const chosen = ctx.values[MergeModalInput.block]?.[MergeModalInput.action]?.selected_options ?? [];
          const message = await mergeAndRedraw({
            ctx,
            platform,
            ops,
            project,
            iid: value.i,
            ask: {
              sha: value.s,
              removeSourceBranch: chosen.some((option) => option.value === MergeModalInput.option),
              whenPipelineSucceeds: value.w,
            },
          });
          return { kind: 'update', message };
        },
      }),
    ),
  ],
});
