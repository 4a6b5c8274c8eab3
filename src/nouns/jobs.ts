import { JobButtons } from '../buttons/ci.js';
import { RefusedError } from '../errors.js';
import type { FailureNote } from '../failure/note.js';
import type { FollowService } from '../follow/service.js';
import { jobDrawn } from '../follow/state.js';
import { type Project, projectButtonKey, projectLabel, projectPageUrl } from '../gitlab/project.js';
import type { Job } from '../gitlab/schemas.js';
import type { RequestContext } from '../operations/context.js';
import type { Reading } from '../operations/failures.js';
import { createJobOperations, type JobAction, type JobOperations } from '../operations/jobs.js';
import { message, type SlackMessage, section } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/common.js';
import {
  buildArtifacts,
  buildJobCard,
  buildJobList,
  buildTrace,
  type JobFacts,
  jobConfirmation,
  jobRow,
  jobStaleText,
  neverRan,
  retriedDetail,
} from '../views/jobs.js';
import { describeFilters, type ListPlace, pageSize } from '../views/lists.js';
import { md } from '../views/mrkdwn.js';
import { done, type Notice, stale } from '../views/notice.js';
import { CANCELABLE, FINISHED } from '../views/status.js';
import { answerFollowing, type Followed, followClicked } from './follow.js';
import { cardContext, placeOf, redrawListAfterWrite, refOf } from './support.js';
import { type CommandContext, ephemeral, noun, type Platform, type Reply } from './types.js';

const FULL_TRACE_LIMIT = 5 * 1024 * 1024;

type Ops = JobOperations & {
  follows: FollowService | undefined;
  whyFailed: WhyFailed;
  /** After an erase: the trace read for the excerpt is gone. */
  traceErased(project: Project, jobId: number): void;
};

/** Why the caller's failed jobs failed, read as the caller. */
type WhyFailed = (ctx: RequestContext, project: Project, job: Job) => Promise<FailureNote | null>;

const jobNoun = noun(
  'job',
  (deps): Ops => ({
    ...createJobOperations(deps),
    follows: deps.follows,
    async whyFailed(ctx, project, job) {
      const reading: Reading = { read: (fn) => deps.access.withClient(ctx, fn), teamId: ctx.actor.teamId };
      return (await deps.failures.explain(reading, project, [job], ctx.now))[0] ?? null;
    },
    traceErased: (project, jobId) => deps.failures.forget(project, jobId),
  }),
);

/** What the API leaves unsaid about a finished job without artifacts: whether it was erased. */
async function factsOf({
  ctx,
  ops,
  project,
  job,
}: {
  ctx: RequestContext;
  ops: JobOperations;
  project: Project;
  job: Job;
}): Promise<JobFacts> {
  if (!FINISHED.has(job.status) || job.artifacts_file || neverRan(job)) return {};
  return { erased: !(await ops.hasTrace(ctx, project, job.id)) };
}

async function jobCard({
  ctx,
  platform,
  ops,
  project,
  job,
  notice,
  known,
  whyFailed,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: JobOperations;
  project: Project;
  job: Job;
  notice?: Notice;
  known?: JobFacts;
  /** Given when the card shows a failed job afresh (not after an action): its explaining lines are read. */
  whyFailed?: WhyFailed;
}) {
  const failure = whyFailed && job.status === 'failed' ? await whyFailed(ctx, project, job) : null;
  // The excerpt's read of the trace also says whether it was erased: no second look at it.
  const erasedByTrace =
    failure && failure.trace !== 'unread' && !job.artifacts_file && !neverRan(job)
      ? { erased: failure.trace === 'empty' }
      : null;
  const facts = known ?? (notice ? {} : (erasedByTrace ?? (await factsOf({ ctx, ops, project, job }))));
  return buildJobCard(job, project, { ...(await cardContext(ctx, platform, { notice })), facts, failure });
}

/** The card, or the list the button sat in, redrawn with a notice and the job as it is now. */
async function redraw({
  ctx,
  platform,
  ops,
  project,
  job,
  notice,
  place,
  facts,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: JobOperations;
  project: Project;
  job: Job;
  notice: Notice;
  place: ListPlace | null;
  facts?: JobFacts;
}): Promise<SlackMessage> {
  if (!place) return jobCard({ ctx, platform, ops, project, job, notice, known: facts });
  const row = jobRow(job, { project, place, slot: 'now', serverUrl: platform.serverUrl });
  const withRow = { ...notice, row, rowKey: job.id };
  return redrawListAfterWrite({ platform, ctx, place, options: { expect: 'job.list', notice: withRow } });
}

/**
 * When the server refuses an action, the card was usually out of date: someone else retried or started the
 * job, or it finished. Re-read it and say what is true now; a refusal the current state does not explain
 * stands (a real lack of permission).
 */
async function explainRefusal({
  ctx,
  ops,
  project,
  id,
  action,
}: {
  ctx: RequestContext;
  ops: JobOperations;
  project: Project;
  id: number;
  action: JobAction;
}): Promise<{ job: Job; notice: Notice; facts?: JobFacts } | null> {
  const job = await ops.get(ctx, project, id);
  switch (action) {
    case 'retry': {
      const newer = await ops.replacement(ctx, project, job);
      if (newer) return { job, notice: stale(jobStaleText('retried', { by: newer.user?.username, newJob: newer })) };
      return FINISHED.has(job.status) ? null : { job, notice: stale(jobStaleText('not-finished')) };
    }
    case 'play':
      return job.status === 'manual'
        ? null
        : { job, notice: stale(jobStaleText('not-manual', { by: job.user?.username })) };
    case 'cancel':
      return CANCELABLE.has(job.status) ? null : { job, notice: stale(jobStaleText('not-running')) };
    case 'erase':
      if (!FINISHED.has(job.status)) return { job, notice: stale(jobStaleText('not-finished')) };
      if (neverRan(job)) return { job, notice: stale(jobStaleText('never-ran')) };
      if (!job.artifacts_file && !(await ops.hasTrace(ctx, project, id)))
        return { job, notice: stale(jobStaleText('erased')), facts: { erased: true } };
      return null;
    case 'keep':
      return null;
  }
}

/** A job action typed as a command rather than clicked on a card: the card it leaves, to the person alone. */
async function typedJobAction(
  target: { project: Parameters<Platform['resolveProject']>[1]; id: number },
  deps: { ctx: CommandContext; platform: Platform; ops: Ops },
  action: JobAction,
): Promise<Reply> {
  const project = await deps.platform.resolveProject(deps.ctx, target.project);
  const acted = await actOnJobFor({ ...deps, project, id: target.id, action, place: null, fromCard: false });
  // Typed or clicked, a retry or a play is followed the same way: the answer keeps up with the new job.
  if (!acted.acted || !FOLLOWS_ACTION.has(action)) return ephemeral(acted.message);
  return answerFollowing(deps.ctx, {
    follows: deps.ops.follows,
    what: followedJob(project, acted.acted),
    card: acted.message,
    share: false,
  });
}

/** The card after an action, and the job the action left (null when it did nothing: the card was out of date). */
async function actOnJobFor({
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
  ops: Ops;
  project: Project;
  id: number;
  action: JobAction;
  place: ListPlace | null;
  fromCard: boolean;
}): Promise<{ message: SlackMessage; acted: Job | null }> {
  const unchanged = async (drawn: Promise<SlackMessage>) => ({ message: await drawn, acted: null });
  // Canceling something that already stopped succeeds without doing anything: look first.
  if (action === 'cancel' && fromCard) {
    const current = await ops.get(ctx, project, id);
    if (!CANCELABLE.has(current.status)) {
      return unchanged(
        redraw({ ctx, platform, ops, project, job: current, notice: stale(jobStaleText('not-running')), place }),
      );
    }
  }
  try {
    const job = await ops.act(ctx, project, id, action);
    if (action === 'erase') ops.traceErased(project, id);
    const detail = action === 'retry' ? retriedDetail(id, job) : `job #${id}`;
    const notice = done(action, { actorId: ctx.actor.userId, detail });
    return { message: await redraw({ ctx, platform, ops, project, job, notice, place }), acted: job };
  } catch (err) {
    if (!(err instanceof RefusedError) || !fromCard) throw err;
    // The refusal stands when the job as it is now does not explain it, or cannot be read either.
    const explained = await explainRefusal({ ctx, ops, project, id, action }).catch(() => null);
    if (!explained) throw err;
    return unchanged(
      redraw({
        ctx,
        platform,
        ops,
        project,
        job: explained.job,
        notice: explained.notice,
        place,
        facts: explained.facts,
      }),
    );
  }
}

/** What a card that follows a job starts from. */
const followedJob = (project: Project, job: Job): Followed => ({
  kind: 'job',
  project,
  id: job.id,
  ref: job.ref,
  status: job.status,
  drawn: jobDrawn(job),
});

/** Retry and Play start something: the card they redraw follows it (the retry is a new job). */
const FOLLOWS_ACTION = new Set<JobAction>(['retry', 'play']);

const act = (action: JobAction) =>
  jobNoun.on(JobButtons[action], async (value, ctx, platform, ops): Promise<Reply> => {
    const project = await platform.resolveProject(ctx, refOf(value.p));
    const place = placeOf(value);
    const acted = await actOnJobFor({ ctx, platform, ops, project, id: value.j, action, place, fromCard: true });
    if (!acted.acted || !FOLLOWS_ACTION.has(action)) return { kind: 'update', message: acted.message };
    return followClicked(ctx, {
      follows: ops.follows,
      what: followedJob(project, acted.acted),
      card: acted.message,
      inList: place !== null,
    });
  });

function confirmTyped(action: 'cancel' | 'erase', project: Project, id: number): Reply {
  const value = { p: projectButtonKey(project), j: id };
  return ephemeral(buildConfirmPrompt(jobConfirmation(action, { id }, project), JobButtons[action], value));
}

export const jobs = jobNoun.define({
  lists: {
    async 'job.list'(command, ctx, platform, ops, place, notice) {
      const flags = command.flags;
      const project = await platform.resolveProject(ctx, command.target.project);
      const perPage = pageSize(flags.perPage);
      const result = await ops.list(ctx, project, {
        ...(flags.scope ? { scope: flags.scope } : {}),
        ...(flags.pipeline ? { pipelineId: flags.pipeline } : {}),
        ...(flags.page ? { page: flags.page } : {}),
        ...(perPage ? { perPage } : {}),
      });
      const title = flags.pipeline
        ? `Jobs of pipeline #${flags.pipeline} in ${projectLabel(project)}`
        : `Jobs in ${projectLabel(project)}`;
      return buildJobList(result.items, project, result, {
        title,
        filters: describeFilters({ scope: flags.scope }),
        place,
        ctx: await cardContext(ctx, platform, { notice }),
      });
    },
  },
  commands: {
    async 'job.show'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const job = await ops.get(ctx, project, command.target.id);
      const card = await jobCard({ ctx, platform, ops, project, job, whyFailed: ops.whyFailed });
      if (!command.flags.follow) return { kind: 'message', message: card, inChannel: command.share };
      return answerFollowing(ctx, {
        follows: ops.follows,
        what: followedJob(project, job),
        card,
        share: command.share,
      });
    },
    'job.retry': (command, ctx, platform, ops) => typedJobAction(command.target, { ctx, platform, ops }, 'retry'),
    'job.play': (command, ctx, platform, ops) => typedJobAction(command.target, { ctx, platform, ops }, 'play'),
    'job.keep': (command, ctx, platform, ops) => typedJobAction(command.target, { ctx, platform, ops }, 'keep'),
    async 'job.cancel'(command, ctx, platform) {
      return confirmTyped('cancel', await platform.resolveProject(ctx, command.target.project), command.target.id);
    },
    async 'job.erase'(command, ctx, platform) {
      return confirmTyped('erase', await platform.resolveProject(ctx, command.target.project), command.target.id);
    },
    async 'job.trace'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const id = command.target.id;
      const trace = await ops.trace(ctx, project, id);
      if (command.flags.full && trace.length > 0) {
        const content = trace.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
        const clipped = content.length > FULL_TRACE_LIMIT ? content.slice(content.length - FULL_TRACE_LIMIT) : content;
        // A trace ends with a newline: counted as the lines the short form shows, not one more.
        const lines = clipped.replace(/\n+$/, '').split('\n').length;
        const where = command.share ? 'in this channel' : 'in a direct message';
        const what = `job #${id} in ${projectLabel(project)}`;
        const text = `The whole trace of ${what} (${lines} lines) is uploaded ${where}${clipped === content ? '' : ' (its last 5 MB)'}.`;
        return {
          kind: 'upload',
          file: { filename: `job-${id}-trace.log`, title: `Trace of ${what}`, content: clipped },
          message: message(text, [section(md`:scroll: ${text}`)]),
          inChannel: command.share,
        };
      }
      return {
        kind: 'message',
        message: buildTrace({
          jobId: id,
          project,
          trace,
          lines: command.flags.lines,
          slashCommand: platform.slashCommand,
        }),
        inChannel: command.share,
      };
    },
    async 'job.artifacts'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const id = command.target.id;
      const artifact = await ops.artifacts(ctx, project, id);
      const message = buildArtifacts({
        title: `Artifacts of job #${id} in ${projectLabel(project)}`,
        fileName: artifact.fileName,
        size: artifact.size,
        downloadUrl: projectPageUrl(platform.serverUrl, project, `-/jobs/${id}/artifacts/download`),
      });
      return { kind: 'message', message, inChannel: command.share };
    },
    async 'job.artifacts-by-ref'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const { ref, job } = command.flags;
      const artifact = await ops.artifactsByRef(ctx, project, { ref, jobName: job });
      const message = buildArtifacts({
        title: `Artifacts of the latest successful “${job}” job on ${ref} in ${projectLabel(project)}`,
        fileName: artifact.fileName,
        size: artifact.size,
        downloadUrl: projectPageUrl(
          platform.serverUrl,
          project,
          `-/jobs/artifacts/${encodeURIComponent(ref)}/download?job=${encodeURIComponent(job)}`,
        ),
      });
      return { kind: 'message', message, inChannel: command.share };
    },
  },
  buttons: [
    jobNoun.on(JobButtons.show, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      const job = await ops.get(ctx, project, value.j);
      return ephemeral(await jobCard({ ctx, platform, ops, project, job, whyFailed: ops.whyFailed }));
    }),
    act('retry'),
    act('cancel'),
    act('play'),
    act('erase'),
    act('keep'),
    jobNoun.on(JobButtons.trace, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return ephemeral(
        buildTrace({
          jobId: value.j,
          project,
          trace: await ops.trace(ctx, project, value.j),
          lines: 40,
          slashCommand: platform.slashCommand,
        }),
      );
    }),
  ],
});
