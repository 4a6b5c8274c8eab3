import { PipelineButtons } from '../buttons/ci.js';
import { ProjectRequiredError, RefusedError } from '../errors.js';
import { type Project, projectButtonKey, projectLabel } from '../gitlab/project.js';
import type { Pipeline } from '../gitlab/schemas.js';
import type { RequestContext } from '../operations/context.js';
import { createPipelineOperations, type PipelineOperations } from '../operations/pipelines.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/common.js';
import { describeFilters, type ListPlace, pageSize } from '../views/lists.js';
import { done, type Notice, stale, unreadAfter } from '../views/notice.js';
import {
  buildPipelineCard,
  buildPipelineList,
  buildRefMissing,
  pipelineConfirmation,
  pipelineRow,
  pipelineStaleText,
} from '../views/pipelines.js';
import { cardContext, placeOf, readOrWhy, redrawListAfterWrite, refOf } from './support.js';
import { ephemeral, noun, type Platform } from './types.js';

const pipelineNoun = noun('pipeline', (deps) => createPipelineOperations(deps));

const RUNNING = new Set(['created', 'pending', 'running']);

/** A word that reads as a project (`group/app`, `42`) rather than a branch name. */
const looksLikeProject = (word: string) => /^\d+$/.test(word) || /^[\w.-]+(\/[\w.-]+)+$/.test(word);

async function pipelineCard({
  ctx,
  platform,
  ops,
  project,
  id,
  notice,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: PipelineOperations;
  project: Project;
  id: number;
  notice?: Notice;
}) {
  const { pipeline, jobs } = await ops.withJobs(ctx, project, id);
  return buildPipelineCard(pipeline, jobs, project, await cardContext(ctx, platform, { notice }));
}

async function redraw({
  ctx,
  platform,
  ops,
  project,
  pipeline,
  notice,
  place,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: PipelineOperations;
  project: Project;
  pipeline: Pipeline;
  notice: Notice;
  place: ListPlace | null;
}): Promise<SlackMessage> {
  // The card also shows the pipeline's jobs, read once more after the change; what the change answered is
  // drawn whatever that read meets.
  if (!place) {
    const read = await readOrWhy(() => ops.withJobs(ctx, project, pipeline.id));
    if (read.ok) {
      return buildPipelineCard(
        read.value.pipeline,
        read.value.jobs,
        project,
        await cardContext(ctx, platform, { notice }),
      );
    }
    const said = unreadAfter(notice, `Pipeline #${pipeline.id} and its jobs`, read.why);
    return buildPipelineCard(pipeline, null, project, await cardContext(ctx, platform, { notice: said }));
  }
  const row = pipelineRow(pipeline, project, place, 'now', platform.serverUrl);
  const withRow = { ...notice, row };
  return redrawListAfterWrite({ platform, ctx, place, options: { expect: 'pipeline.list', notice: withRow } });
}

async function actOnPipeline({
  ctx,
  platform,
  ops,
  project,
  id,
  action,
  place,
  fromCard,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: PipelineOperations;
  project: Project;
  id: number;
  action: 'retry' | 'cancel';
  place: ListPlace | null;
  fromCard: boolean;
}): Promise<SlackMessage> {
  // Canceling a pipeline that already stopped succeeds without doing anything: look first.
  if (action === 'cancel' && fromCard) {
    const current = await ops.get(ctx, project, id);
    if (!RUNNING.has(current.status))
      return redraw({
        ctx,
        platform,
        ops,
        project,
        pipeline: current,
        notice: stale(pipelineStaleText(current)),
        place,
      });
  }
  try {
    const pipeline = await ops.act(ctx, project, id, action);
    return redraw({
      ctx,
      platform,
      ops,
      project,
      pipeline,
      notice: done(action, ctx.actor.userId, `pipeline #${id}`),
      place,
    });
  } catch (err) {
    if (!(err instanceof RefusedError) || !fromCard || action !== 'cancel') throw err;
    const current = await ops.get(ctx, project, id).catch(() => null);
    if (current && !RUNNING.has(current.status)) {
      return redraw({
        ctx,
        platform,
        ops,
        project,
        pipeline: current,
        notice: stale(pipelineStaleText(current)),
        place,
      });
    }
    throw err;
  }
}

export const pipelines = pipelineNoun.define({
  lists: {
    async 'pipeline.list'(command, ctx, platform, ops, place, notice) {
      const flags = command.flags;
      const project = await platform.resolveProject(ctx, command.target.project);
      const perPage = pageSize(flags.perPage);
      const result = await ops.list(ctx, project, {
        ...(flags.page ? { page: flags.page } : {}),
        ...(perPage ? { per_page: perPage } : {}),
        ...(flags.status ? { status: flags.status as never } : {}),
        ...(flags.scope ? { scope: flags.scope } : {}),
        ...(flags.ref ? { ref: flags.ref } : {}),
        ...(flags.yamlErrors ? { yaml_errors: true } : {}),
        ...(flags.name ? { name: flags.name } : {}),
        ...(flags.username ? { username: flags.username } : {}),
        ...(flags.orderBy ? { order_by: flags.orderBy } : {}),
        ...(flags.sort ? { sort: flags.sort } : {}),
      });
      return buildPipelineList(result.items, project, result, {
        title: `Pipelines in ${projectLabel(project)}`,
        filters: describeFilters({ ...flags }),
        place,
        ctx: await cardContext(ctx, platform, { notice }),
      });
    },
  },
  commands: {
    async 'pipeline.show'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      return {
        kind: 'message',
        message: await pipelineCard({ ctx, platform, ops, project, id: command.target.id }),
        inChannel: command.share,
      };
    },
    async 'pipeline.run'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project).catch((err: unknown) => {
        // `pipeline run demo/web` in a channel without a default: the one word was meant as the project.
        if (err instanceof ProjectRequiredError && looksLikeProject(command.args.ref)) return null;
        throw err;
      });
      if (!project) return ephemeral(buildRefMissing(command.args.ref, platform.slashCommand));
      const pipeline = await ops.run(ctx, project, command.args.ref);
      const notice = done('run', ctx.actor.userId, `on ${command.args.ref}`);
      // A new pipeline has no jobs worth a second read yet.
      return ephemeral(buildPipelineCard(pipeline, null, project, await cardContext(ctx, platform, { notice })));
    },
    async 'pipeline.retry'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      return ephemeral(
        await actOnPipeline({
          ctx,
          platform,
          ops,
          project,
          id: command.target.id,
          action: 'retry',
          place: null,
          fromCard: false,
        }),
      );
    },
    async 'pipeline.cancel'(command, ctx, platform) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const id = command.target.id;
      const value = { p: projectButtonKey(project), i: id };
      return ephemeral(buildConfirmPrompt(pipelineConfirmation({ id }, project), PipelineButtons.cancel, value));
    },
  },
  buttons: [
    pipelineNoun.on(PipelineButtons.show, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return ephemeral(await pipelineCard({ ctx, platform, ops, project, id: value.i }));
    }),
    pipelineNoun.on(PipelineButtons.retry, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return {
        kind: 'update',
        message: await actOnPipeline({
          ctx,
          platform,
          ops,
          project,
          id: value.i,
          action: 'retry',
          place: placeOf(value),
          fromCard: true,
        }),
      };
    }),
    pipelineNoun.on(PipelineButtons.cancel, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return {
        kind: 'update',
        message: await actOnPipeline({
          ctx,
          platform,
          ops,
          project,
          id: value.i,
          action: 'cancel',
          place: placeOf(value),
          fromCard: true,
        }),
      };
    }),
    pipelineNoun.on(PipelineButtons.jobs, async (value, ctx, platform) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      const query = `jobs ${projectButtonKey(project)} --pipeline ${value.i}`;
      return ephemeral(await platform.redrawList({ query, page: 1 }, ctx, { expect: 'job.list' }));
    }),
  ],
});
