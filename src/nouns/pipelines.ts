import { PipelineButtons } from '../buttons/ci.js';
import { ProjectRequiredError, RefusedError } from '../errors.js';
import type { FollowService } from '../follow/service.js';
import { pipelineDrawn } from '../follow/state.js';
import { type Project, projectButtonKey, projectLabel } from '../gitlab/project.js';
import type { Job, Pipeline } from '../gitlab/schemas.js';
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
import { answerFollowing, type Followed, followClicked } from './follow.js';
import { cardContext, placeOf, readOrWhy, redrawListAfterWrite, refOf } from './support.js';
import { ephemeral, noun, type Platform } from './types.js';

type Ops = PipelineOperations & { follows: FollowService | undefined };

const n = noun('pipeline', (d): Ops => ({ ...createPipelineOperations(d), follows: d.follows }));

const RUNNING = new Set(['created', 'pending', 'running']);

/** A word that reads as a project (`group/app`, `42`) rather than a branch name. */
const looksLikeProject = (word: string) => /^\d+$/.test(word) || /^[\w.-]+(\/[\w.-]+)+$/.test(word);

async function pipelineCard(
  ctx: RequestContext,
  s: Platform,
  ops: PipelineOperations,
  project: Project,
  id: number,
  notice?: Notice,
) {
  const { pipeline, jobs } = await ops.withJobs(ctx, project, id);
  return buildPipelineCard(pipeline, jobs, project, await cardContext(ctx, s, { notice }));
}

/** A card drawn after a change, with what it shows of the pipeline (for a card that follows it). */
interface Redrawn {
  message: SlackMessage;
  shows: { pipeline: Pipeline; jobs: Job[] | null } | null;
}

async function redraw(
  ctx: RequestContext,
  s: Platform,
  ops: PipelineOperations,
  project: Project,
  pipeline: Pipeline,
  notice: Notice,
  place: ListPlace | null,
): Promise<Redrawn> {
  // The card also shows the pipeline's jobs, read once more after the change; what the change answered is
  // drawn whatever that read meets.
  if (!place) {
    const read = await readOrWhy(() => ops.withJobs(ctx, project, pipeline.id));
    if (read.ok) {
      const { pipeline: now, jobs } = read.value;
      const message = buildPipelineCard(now, jobs, project, await cardContext(ctx, s, { notice }));
      return { message, shows: { pipeline: now, jobs } };
    }
    const said = unreadAfter(notice, `Pipeline #${pipeline.id} and its jobs`, read.why);
    const message = buildPipelineCard(pipeline, null, project, await cardContext(ctx, s, { notice: said }));
    return { message, shows: { pipeline, jobs: null } };
  }
  const row = pipelineRow(pipeline, project, place, 'now', s.serverUrl);
  const withRow = { ...notice, row };
  return {
    message: await redrawListAfterWrite(s, ctx, place, { expect: 'pipeline.list', notice: withRow }),
    shows: null,
  };
}

/** What a card that follows a pipeline starts from. */
const followedPipeline = (project: Project, p: Pipeline, jobs: Job[] | null): Followed => ({
  kind: 'pipeline',
  project,
  id: p.id,
  ref: p.ref,
  status: p.status,
  drawn: pipelineDrawn(p, jobs ?? []),
});

async function actOnPipeline(
  ctx: RequestContext,
  s: Platform,
  ops: PipelineOperations,
  project: Project,
  id: number,
  action: 'retry' | 'cancel',
  place: ListPlace | null,
  /** From a button drawn earlier, which may be out of date (a typed command is not). */
  fromCard: boolean,
): Promise<Redrawn & { acted: boolean }> {
  // Canceling a pipeline that already stopped succeeds without doing anything: look first.
  if (action === 'cancel' && fromCard) {
    const current = await ops.get(ctx, project, id);
    if (!RUNNING.has(current.status)) {
      const r = await redraw(ctx, s, ops, project, current, stale(pipelineStaleText(current)), place);
      return { ...r, acted: false };
    }
  }
  try {
    const pipeline = await ops.act(ctx, project, id, action);
    const notice = done(action, ctx.actor.userId, `pipeline #${id}`);
    return { ...(await redraw(ctx, s, ops, project, pipeline, notice, place)), acted: true };
  } catch (err) {
    if (!(err instanceof RefusedError) || !fromCard || action !== 'cancel') throw err;
    const current = await ops.get(ctx, project, id).catch(() => null);
    if (current && !RUNNING.has(current.status)) {
      const r = await redraw(ctx, s, ops, project, current, stale(pipelineStaleText(current)), place);
      return { ...r, acted: false };
    }
    throw err;
  }
}

export const pipelines = n.define({
  lists: {
    async 'pipeline.list'(cmd, ctx, s, ops, place, notice) {
      const f = cmd.flags;
      const project = await s.resolveProject(ctx, cmd.target.project);
      const perPage = pageSize(f.perPage);
      const result = await ops.list(ctx, project, {
        ...(f.page ? { page: f.page } : {}),
        ...(perPage ? { per_page: perPage } : {}),
        ...(f.status ? { status: f.status as never } : {}),
        ...(f.scope ? { scope: f.scope } : {}),
        ...(f.ref ? { ref: f.ref } : {}),
        ...(f.yamlErrors ? { yaml_errors: true } : {}),
        ...(f.name ? { name: f.name } : {}),
        ...(f.username ? { username: f.username } : {}),
        ...(f.orderBy ? { order_by: f.orderBy } : {}),
        ...(f.sort ? { sort: f.sort } : {}),
      });
      return buildPipelineList(result.items, project, result, {
        title: `Pipelines in ${projectLabel(project)}`,
        filters: describeFilters({ ...f }),
        place,
        ctx: await cardContext(ctx, s, { notice }),
      });
    },
  },
  commands: {
    async 'pipeline.show'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      if (!cmd.flags.follow) {
        return {
          kind: 'message',
          message: await pipelineCard(ctx, s, ops, project, cmd.target.id),
          inChannel: cmd.share,
        };
      }
      const { pipeline, jobs } = await ops.withJobs(ctx, project, cmd.target.id);
      const card = buildPipelineCard(pipeline, jobs, project, await cardContext(ctx, s));
      return answerFollowing(ctx, ops.follows, followedPipeline(project, pipeline, jobs), card, cmd.share);
    },
    async 'pipeline.run'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project).catch((err: unknown) => {
        // `pipeline run demo/web` in a channel without a default: the one word was meant as the project.
        if (err instanceof ProjectRequiredError && looksLikeProject(cmd.args.ref)) return null;
        throw err;
      });
      if (!project) return ephemeral(buildRefMissing(cmd.args.ref, s.slashCommand));
      const pipeline = await ops.run(ctx, project, cmd.args.ref);
      const notice = done('run', ctx.actor.userId, `on ${cmd.args.ref}`);
      // A new pipeline has no jobs worth a second read yet.
      const card = buildPipelineCard(pipeline, null, project, await cardContext(ctx, s, { notice }));
      return answerFollowing(ctx, ops.follows, followedPipeline(project, pipeline, null), card, cmd.share);
    },
    async 'pipeline.retry'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const r = await actOnPipeline(ctx, s, ops, project, cmd.target.id, 'retry', null, false);
      if (!r.acted || !r.shows) return { kind: 'message', message: r.message, inChannel: cmd.share };
      const what = followedPipeline(project, r.shows.pipeline, r.shows.jobs);
      return answerFollowing(ctx, ops.follows, what, r.message, cmd.share);
    },
    async 'pipeline.cancel'(cmd, ctx, s) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const id = cmd.target.id;
      const value = { p: projectButtonKey(project), i: id };
      return ephemeral(buildConfirmPrompt(pipelineConfirmation({ id }, project), PipelineButtons.cancel, value));
    },
  },
  buttons: [
    n.on(PipelineButtons.show, async (v, ctx, s, ops) => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return ephemeral(await pipelineCard(ctx, s, ops, project, v.i));
    }),
    n.on(PipelineButtons.retry, async (v, ctx, s, ops) => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      const r = await actOnPipeline(ctx, s, ops, project, v.i, 'retry', placeOf(v), true);
      if (!r.acted || !r.shows) return { kind: 'update', message: r.message };
      const what = followedPipeline(project, r.shows.pipeline, r.shows.jobs);
      return followClicked(ctx, ops.follows, what, r.message, placeOf(v) !== null);
    }),
    n.on(PipelineButtons.cancel, async (v, ctx, s, ops) => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      const r = await actOnPipeline(ctx, s, ops, project, v.i, 'cancel', placeOf(v), true);
      return { kind: 'update', message: r.message };
    }),
    n.on(PipelineButtons.jobs, async (v, ctx, s) => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      const query = `jobs ${projectButtonKey(project)} --pipeline ${v.i}`;
      return ephemeral(await s.redrawList({ query, page: 1 }, ctx, { expect: 'job.list' }));
    }),
  ],
});
