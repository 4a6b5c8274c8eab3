import type { RequestContext } from '../operations/context.js';
import type { ProjectKey } from '../operations/jobs.js';
import { projectLabel } from '../operations/projects.js';
import type { SlackMessage } from '../views/blocks.js';
import type { Notice } from '../views/ci.js';
import { buildConfirmPrompt } from '../views/confirm.js';
import { buildPipelineCard } from '../views/pipelines.js';
import { cardContext, listReply, redrawList } from './lists.js';
import { type ButtonHandlers, type CommandHandlers, ephemeral, type Services } from './types.js';

async function pipelineCard(
  ctx: RequestContext,
  s: Services,
  project: ProjectKey,
  id: number,
  notice?: Notice,
): Promise<SlackMessage> {
  const { pipeline, jobs } = await s.pipelines.get(ctx, project, id);
  return buildPipelineCard(pipeline, jobs, project, cardContext(ctx, s, notice));
}

async function actOnPipeline(
  ctx: RequestContext,
  s: Services,
  project: ProjectKey,
  id: number,
  action: 'retry' | 'cancel',
  list: { q?: string | undefined; n?: number | undefined },
): Promise<SlackMessage> {
  const pipeline = await s.pipelines.act(ctx, project, id, action);
  const notice = { action, actorId: ctx.actor.userId, detail: `pipeline #${id}` };
  if (list.q) return redrawList(list.q, list.n ?? 1, ctx, s, { ...notice, subject: { kind: 'pipeline', pipeline } });
  // The action answers the pipeline; the card also shows its jobs, read once more after the change.
  return pipelineCard(ctx, s, project, id, notice);
}

export const pipelineCommands: CommandHandlers = {
  'pipeline.list': listReply,
  async 'pipeline.show'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    return { kind: 'message', message: await pipelineCard(ctx, s, project, cmd.target.id), inChannel: cmd.share };
  },
  async 'pipeline.run'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    const pipeline = await s.pipelines.run(ctx, project, cmd.args.ref);
    const notice = { action: 'run', actorId: ctx.actor.userId, detail: `on ${cmd.args.ref}` };
    // A new pipeline has no jobs worth a second read yet.
    return ephemeral(buildPipelineCard(pipeline, null, project, cardContext(ctx, s, notice)));
  },
  async 'pipeline.retry'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    return ephemeral(await actOnPipeline(ctx, s, project, cmd.target.id, 'retry', {}));
  },
  async 'pipeline.cancel'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    const id = cmd.target.id;
    return ephemeral(
      buildConfirmPrompt({
        question: `Cancel pipeline #${id} in ${projectLabel(project)}? Its running jobs stop.`,
        yes: `Yes, cancel pipeline #${id}`,
        name: 'pipeline.cancel',
        value: { p: project, i: id },
      }),
    );
  },
};

export const pipelineButtons: ButtonHandlers = {
  async 'pipeline.show'(v, ctx, s) {
    return ephemeral(await pipelineCard(ctx, s, v.p, v.i));
  },
  async 'pipeline.retry'(v, ctx, s) {
    return { kind: 'update', message: await actOnPipeline(ctx, s, v.p, v.i, 'retry', v) };
  },
  async 'pipeline.cancel'(v, ctx, s) {
    return { kind: 'update', message: await actOnPipeline(ctx, s, v.p, v.i, 'cancel', v) };
  },
  async 'pipeline.jobs'(v, ctx, s) {
    const query = `jobs ${v.p} --pipeline ${v.i}`;
    return ephemeral(await redrawList(query, 1, ctx, s));
  },
};
