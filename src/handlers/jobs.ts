import type { JobButtonValue } from '../ids.js';
import type { RequestContext } from '../operations/context.js';
import type { JobAction, ProjectKey } from '../operations/jobs.js';
import { projectLabel } from '../operations/projects.js';
import type { SlackMessage } from '../views/blocks.js';
import { webUrl } from '../views/ci.js';
import { buildConfirmPrompt } from '../views/confirm.js';
import { buildArtifacts, buildJobCard, buildTrace } from '../views/jobs.js';
import { cardContext, listReply, redrawList } from './lists.js';
import { type ButtonHandlers, type CommandHandlers, ephemeral, type Reply, type Services } from './types.js';

const FULL_TRACE_LIMIT = 5 * 1024 * 1024;

async function actOnJob(
  ctx: RequestContext,
  s: Services,
  project: ProjectKey,
  id: number,
  action: JobAction,
  list: { q?: string | undefined; n?: number | undefined },
): Promise<SlackMessage> {
  const job = await s.jobs.act(ctx, project, id, action);
  const detail = action === 'retry' && job.id !== id ? `new job #${job.id} replaces #${id}` : `job #${id}`;
  const notice = { action, actorId: ctx.actor.userId, detail };
  if (list.q) return redrawList(list.q, list.n ?? 1, ctx, s, { ...notice, subject: { kind: 'job', job } });
  return buildJobCard(job, project, cardContext(ctx, s, notice));
}

/** Erase and cancel typed as commands first ask, with the button a card would carry. */
function confirmJob(action: 'erase' | 'cancel', project: ProjectKey, id: number): Reply {
  const at = `job #${id} in ${projectLabel(project)}`;
  return ephemeral(
    action === 'erase'
      ? buildConfirmPrompt({
          question: `Erase ${at}? Its trace and artifacts are deleted for good.`,
          yes: `Yes, erase job #${id}`,
          name: 'job.erase',
          value: { p: project, j: id },
        })
      : buildConfirmPrompt({
          question: `Cancel ${at}? It stops where it is.`,
          yes: `Yes, cancel job #${id}`,
          name: 'job.cancel',
          value: { p: project, j: id },
        }),
  );
}

export const jobCommands: CommandHandlers = {
  'job.list': listReply,
  async 'job.show'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    const job = await s.jobs.get(ctx, project, cmd.target.id);
    return { kind: 'message', message: buildJobCard(job, project, cardContext(ctx, s)), inChannel: cmd.share };
  },
  async 'job.retry'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    return ephemeral(await actOnJob(ctx, s, project, cmd.target.id, 'retry', {}));
  },
  async 'job.play'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    return ephemeral(await actOnJob(ctx, s, project, cmd.target.id, 'play', {}));
  },
  async 'job.keep'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    return ephemeral(await actOnJob(ctx, s, project, cmd.target.id, 'keep', {}));
  },
  async 'job.cancel'(cmd, ctx, s) {
    return confirmJob('cancel', await s.resolveProject(ctx, cmd.target.project), cmd.target.id);
  },
  async 'job.erase'(cmd, ctx, s) {
    return confirmJob('erase', await s.resolveProject(ctx, cmd.target.project), cmd.target.id);
  },
  async 'job.trace'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    const id = cmd.target.id;
    const trace = await s.jobs.trace(ctx, project, id);
    if (cmd.flags.full && trace.length > 0) {
      const content = trace.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
      const clipped = content.length > FULL_TRACE_LIMIT ? content.slice(content.length - FULL_TRACE_LIMIT) : content;
      // A trace ends with a newline: counted as the lines the short form shows, not one more.
      const lines = clipped.replace(/\n+$/, '').split('\n').length;
      const where = cmd.share ? 'in this channel' : 'in a direct message';
      const text = `The whole trace of job #${id} in ${projectLabel(project)} (${lines} lines) is uploaded ${where}${clipped === content ? '' : ' (its last 5 MB)'}.`;
      return {
        kind: 'upload',
        file: {
          filename: `job-${id}-trace.log`,
          title: `Trace of job #${id} in ${projectLabel(project)}`,
          content: clipped,
        },
        message: { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `:scroll: ${text}` } }] },
        inChannel: cmd.share,
      };
    }
    return { kind: 'message', message: buildTrace(null, id, project, trace, cmd.flags.lines), inChannel: cmd.share };
  },
  async 'job.artifacts'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    const id = cmd.target.id;
    const a = await s.jobs.artifacts(ctx, project, id);
    const message = buildArtifacts({
      title: `Artifacts of job #${id} in ${projectLabel(project)}`,
      fileName: a.fileName,
      size: a.size,
      downloadUrl: webUrl(s.serverUrl, project, `-/jobs/${id}/artifacts/download`),
    });
    return { kind: 'message', message, inChannel: cmd.share };
  },
  async 'job.artifacts-by-ref'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    const { ref, job } = cmd.flags;
    const a = await s.jobs.artifactsByRef(ctx, project, ref, job);
    const message = buildArtifacts({
      title: `Artifacts of the latest successful “${job}” job on ${ref} in ${projectLabel(project)}`,
      fileName: a.fileName,
      size: a.size,
      downloadUrl: webUrl(
        s.serverUrl,
        project,
        `-/jobs/artifacts/${encodeURIComponent(ref)}/download?job=${encodeURIComponent(job)}`,
      ),
    });
    return { kind: 'message', message, inChannel: cmd.share };
  },
};

const jobButton =
  (action: JobAction) =>
  async (v: JobButtonValue, ctx: RequestContext, s: Services): Promise<Reply> => ({
    kind: 'update',
    message: await actOnJob(ctx, s, v.p, v.j, action, v),
  });

export const jobButtons: ButtonHandlers = {
  async 'job.show'(v, ctx, s) {
    const job = await s.jobs.get(ctx, v.p, v.j);
    return ephemeral(buildJobCard(job, v.p, cardContext(ctx, s)));
  },
  'job.retry': jobButton('retry'),
  'job.cancel': jobButton('cancel'),
  'job.play': jobButton('play'),
  'job.erase': jobButton('erase'),
  'job.keep': jobButton('keep'),
  async 'job.trace'(v, ctx, s) {
    return ephemeral(buildTrace(null, v.j, v.p, await s.jobs.trace(ctx, v.p, v.j), 40));
  },
};
