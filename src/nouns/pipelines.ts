import { PipelineButtons } from '../buttons/ci.js';
import { ProjectRequiredError, RefusedError } from '../errors.js';
import type { FollowService } from '../follow/service.js';
import { pipelineDrawn } from '../follow/state.js';
import { type Project, projectButtonKey, projectLabel } from '../gitlab/project.js';
import type { Job, Pipeline } from '../gitlab/schemas.js';
import type { RequestContext } from '../operations/context.js';
import type { Reading } from '../operations/failures.js';
import { createPipelineOperations, type PipelineOperations } from '../operations/pipelines.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/common.js';
import { describeFilters, type ListPlace, pageSize } from '../views/lists.js';
import { done, type Notice, stale, unreadAfter } from '../views/notice.js';
import {
  buildPipelineCard,
  buildPipelineList,
  buildRefMissing,
  failedJobsOf,
  type PipelineFailures,
  pipelineConfirmation,
  pipelineRow,
  pipelineStaleText,
} from '../views/pipelines.js';
import { answerFollowing, type Followed, followClicked } from './follow.js';
import { cardContext, placeOf, readOrWhy, redrawListAfterWrite, refOf } from './support.js';
import { ephemeral, noun, type Platform } from './types.js';

type Ops = PipelineOperations & { follows: FollowService | undefined; whyFailed: WhyFailed };

/** Why a pipeline's failed jobs failed (the first few), read as the caller. */
type WhyFailed = (ctx: RequestContext, project: Project, jobs: readonly Job[]) => Promise<PipelineFailures | null>;

const pipelineNoun = noun(
  'pipeline',
  (deps): Ops => ({
    ...createPipelineOperations(deps),
    follows: deps.follows,
    async whyFailed(ctx, project, jobs) {
      const failed = failedJobsOf(jobs);
      if (failed.length === 0) return null;
      const reading: Reading = { read: (fn) => deps.access.withClient(ctx, fn), teamId: ctx.actor.teamId };
      const notes = await deps.failures.explain(reading, project, failed, ctx.now);
      return { notes, more: failed.length - notes.length };
    },
  }),
);

const RUNNING = new Set(['created', 'pending', 'running']);

/** A word that reads as a project (`group/app`, `42`) rather than a branch name. */
const looksLikeProject = (word: string) => /^\d+$/.test(word) || /^[\w.-]+(\/[\w.-]+)+$/.test(word);

/** A pipeline's card as shown afresh: its jobs by stage, and why the failed ones failed. */
async function pipelineCard({
  ctx,
  platform,
  ops,
  project,
  id,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: Ops;
  project: Project;
  id: number;
}) {
  const { pipeline, jobs } = await ops.withJobs(ctx, project, id);
  const failures = await ops.whyFailed(ctx, project, jobs);
  return {
    pipeline,
    jobs,
    card: buildPipelineCard(pipeline, jobs, project, { ...(await cardContext(ctx, platform)), failures }),
  };
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
}): Promise<Redrawn> {
  // The card also shows the pipeline's jobs, read once more after the change; what the change answered is
  // drawn whatever that read meets.
  if (!place) {
    const read = await readOrWhy(() => ops.withJobs(ctx, project, pipeline.id));
    if (read.ok) {
      const { pipeline: now, jobs } = read.value;
      const message = buildPipelineCard(now, jobs, project, await cardContext(ctx, platform, { notice }));
      return { message, shows: { pipeline: now, jobs } };
    }
    const said = unreadAfter(notice, `Pipeline #${pipeline.id} and its jobs`, read.why);
    const message = buildPipelineCard(pipeline, null, project, await cardContext(ctx, platform, { notice: said }));
    return { message, shows: { pipeline, jobs: null } };
  }
  const row = pipelineRow(pipeline, { project, place, slot: 'now', serverUrl: platform.serverUrl });
  const withRow = { ...notice, row, rowKey: pipeline.id };
  const options = { expect: 'pipeline.list' as const, notice: withRow };
  return { message: await redrawListAfterWrite({ platform, ctx, place, options }), shows: null };
}

/** A card drawn after a change, with what it shows of the pipeline (for a card that follows it). */
interface Redrawn {
  message: SlackMessage;
  shows: { pipeline: Pipeline; jobs: Job[] | null } | null;
}

/** What a card that follows a pipeline starts from. */
const followedPipeline = (project: Project, pipeline: Pipeline, jobs: Job[] | null): Followed => ({
  kind: 'pipeline',
  project,
  id: pipeline.id,
  ref: pipeline.ref,
  status: pipeline.status,
  drawn: pipelineDrawn(pipeline, jobs ?? []),
});

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
}): Promise<Redrawn & { acted: boolean }> {
  const unchanged = async (drawn: Promise<Redrawn>) => ({ ...(await drawn), acted: false });
  // Canceling a pipeline that already stopped succeeds without doing anything: look first.
  if (action === 'cancel' && fromCard) {
    const current = await ops.get(ctx, project, id);
    if (!RUNNING.has(current.status))
      return unchanged(
        redraw({
          ctx,
          platform,
          ops,
          project,
          pipeline: current,
          notice: stale(pipelineStaleText(current)),
          place,
        }),
      );
  }
  try {
    const pipeline = await ops.act(ctx, project, id, action);
    const notice = done(action, { actorId: ctx.actor.userId, detail: `pipeline #${id}` });
    return { ...(await redraw({ ctx, platform, ops, project, pipeline, notice, place })), acted: true };
  } catch (err) {
    if (!(err instanceof RefusedError) || !fromCard || action !== 'cancel') throw err;
    const current = await ops.get(ctx, project, id).catch(() => null);
    if (current && !RUNNING.has(current.status)) {
      return unchanged(
        redraw({ ctx, platform, ops, project, pipeline: current, notice: stale(pipelineStaleText(current)), place }),
      );
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
      if (!command.flags.follow) {
        const { card } = await pipelineCard({ ctx, platform, ops, project, id: command.target.id });
        return { kind: 'message', message: card, inChannel: command.share };
      }
      const { pipeline, jobs, card } = await pipelineCard({ ctx, platform, ops, project, id: command.target.id });
      return answerFollowing(ctx, {
        follows: ops.follows,
        what: followedPipeline(project, pipeline, jobs),
        card,
        share: command.share,
      });
    },
    async 'pipeline.run'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project).catch((err: unknown) => {
        // `pipeline run demo/web` in a channel without a default: the one word was meant as the project.
        if (err instanceof ProjectRequiredError && looksLikeProject(command.args.ref)) return null;
        throw err;
      });
      if (!project) return ephemeral(buildRefMissing(command.args.ref, platform.slashCommand));
      const pipeline = await ops.run(ctx, project, command.args.ref);
      const notice = done('run', { actorId: ctx.actor.userId, detail: `on ${command.args.ref}` });
      // A new pipeline has no jobs worth a second read yet.
      const card = buildPipelineCard(pipeline, null, project, await cardContext(ctx, platform, { notice }));
      return answerFollowing(ctx, {
        follows: ops.follows,
        what: followedPipeline(project, pipeline, null),
        card,
        share: command.share,
      });
    },
    async 'pipeline.retry'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const id = command.target.id;
      const retried = await actOnPipeline({
        ctx,
        platform,
        ops,
        project,
        id,
        action: 'retry',
        place: null,
        fromCard: false,
      });
      if (!retried.acted || !retried.shows)
        return { kind: 'message', message: retried.message, inChannel: command.share };
      const what = followedPipeline(project, retried.shows.pipeline, retried.shows.jobs);
      return answerFollowing(ctx, { follows: ops.follows, what, card: retried.message, share: command.share });
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
      return ephemeral((await pipelineCard({ ctx, platform, ops, project, id: value.i })).card);
    }),
    pipelineNoun.on(PipelineButtons.retry, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      const place = placeOf(value);
      const retried = await actOnPipeline({
        ctx,
        platform,
        ops,
        project,
        id: value.i,
        action: 'retry',
        place,
        fromCard: true,
      });
      if (!retried.acted || !retried.shows) return { kind: 'update', message: retried.message };
      const what = followedPipeline(project, retried.shows.pipeline, retried.shows.jobs);
      return followClicked(ctx, { follows: ops.follows, what, card: retried.message, inList: place !== null });
    }),
    pipelineNoun.on(PipelineButtons.cancel, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      const place = placeOf(value);
      const canceled = await actOnPipeline({
        ctx,
        platform,
        ops,
        project,
        id: value.i,
        action: 'cancel',
        place,
        fromCard: true,
      });
      return { kind: 'update', message: canceled.message };
    }),
    pipelineNoun.on(PipelineButtons.jobs, async (value, ctx, platform) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      const query = `jobs ${projectButtonKey(project)} --pipeline ${value.i}`;
      return ephemeral(await platform.redrawList({ query, page: 1 }, ctx, { expect: 'job.list' }));
    }),
  ],
});
