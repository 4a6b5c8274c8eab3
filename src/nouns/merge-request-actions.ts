import { RefusedError } from '../errors.js';
import type { MergeOptions } from '../gitlab/merge-requests.js';
import type { Project } from '../gitlab/project.js';
import type { MergeRequest } from '../gitlab/schemas.js';
import type { ProjectRef, UserRef } from '../grammar/index.js';
import type { RequestContext } from '../operations/context.js';
import type { MergeRequestOperations, TimeAction } from '../operations/merge-requests.js';
import { type SlackMessage, section } from '../views/blocks.js';
import { buildDiffAnswer, type DiffAnswer, diffFilename } from '../views/merge-request-details.js';
import { autoMergeDetail, mergedDetail, mergeJoinedText, mergeRefusedText } from '../views/merge-request-merging.js';
import { buildMergeRequestCard, mergeRequestUrl, mrRef } from '../views/merge-requests.js';
import { code, md } from '../views/mrkdwn.js';
import { buildNoticeOnly, done, type Notice, stale, unreadAfter } from '../views/notice.js';
import { shortSha } from '../views/status.js';
import { buildTimeTracking, trackedDetail } from '../views/time-tracking.js';
import { cardContext, readOrWhy } from './support.js';
import { ephemeral, type Platform, type Reply } from './types.js';

// What the merge request commands and buttons do, drawn as cards: merging pinned to the head the person
// saw, cancel, close/reopen, subscribe, todo, changes and time tracking. The registration is in
// merge-requests.ts.

type Ops = MergeRequestOperations;

/** One merge request a button acts on, with what acting on it needs. */
export interface MergeRequestAt {
  ctx: RequestContext;
  platform: Platform;
  ops: Ops;
  project: Project;
  iid: number;
}

/** The card of a merge request as it is, with its head pipeline (which decides between Merge and Merge when pipeline succeeds). */
export async function card({
  ctx,
  platform,
  ops,
  project,
  mr,
  notice,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: Ops;
  project: Project;
  mr: MergeRequest;
  notice?: Notice;
}) {
  const pipeline = await ops.headPipeline(ctx, project, mr);
  return buildMergeRequestCard(mr, project, { ...(await cardContext(ctx, platform, { notice })), pipeline });
}

export async function resolve(
  ctx: RequestContext,
  platform: Platform,
  target: { project: ProjectRef | null; iid: number },
) {
  return { project: await platform.resolveProject(ctx, target.project), iid: target.iid };
}

export interface MergeAsk {
  /** The head the person confirmed. */
  sha: string;
  removeSourceBranch?: boolean;
  whenPipelineSucceeds: boolean;
  message?: string;
}

/**
 * Merges as the acting person and draws the card as it is afterwards. A refusal is explained by the merge
 * request as it is now (new commits, conflicts, already merged, no permission), on the card. A merge of the
 * same merge request already under way is waited for instead of sent again.
 */
export async function mergeAndRedraw({
  ctx,
  platform,
  ops,
  project,
  iid,
  ask,
}: MergeRequestAt & {
  ask: MergeAsk;
}): Promise<SlackMessage> {
  const options: MergeOptions = {
    sha: ask.sha,
    ...(ask.removeSourceBranch !== undefined ? { should_remove_source_branch: ask.removeSourceBranch } : {}),
    ...(ask.whenPipelineSucceeds ? { merge_when_pipeline_succeeds: true } : {}),
    ...(ask.message ? { merge_commit_message: ask.message } : {}),
  };
  // Twice at most: when the merge this one waited for did not happen, it is tried once as this person.
  for (let attempt = 0; attempt < 2; attempt++) {
    let outcome: Awaited<ReturnType<Ops['merge']>>;
    try {
      outcome = await ops.merge(ctx, project, iid, options);
    } catch (err) {
      if (!(err instanceof RefusedError)) throw err;
      const current = await ops.get(ctx, project, iid).catch(() => null);
      if (!current) throw err;
      return card({
        ctx,
        platform,
        ops,
        project,
        mr: current,
        notice: stale(mergeRefusedText(current, ask.sha, err.refusal)),
      });
    }
    if (outcome.kind === 'answered') {
      const mr = outcome.mr;
      const pipeline = await ops.headPipeline(ctx, project, mr);
      const notice =
        mr.state === 'merged'
          ? done('merge', {
              actorId: ctx.actor.userId,
              detail: mergedDetail(mr, { askedToWait: ask.whenPipelineSucceeds }),
            })
          : mr.merge_when_pipeline_succeeds
            ? done('auto-merge', { actorId: ctx.actor.userId, detail: autoMergeDetail(ask.sha, pipeline) })
            : stale('GitLab answered without merging it (it may still be checking): look again in a moment.');
      return buildMergeRequestCard(mr, project, { ...(await cardContext(ctx, platform, { notice })), pipeline });
    }
    const current = await ops.get(ctx, project, iid);
    const joined = mergeJoinedText(current, outcome.by);
    if (joined) return card({ ctx, platform, ops, project, mr: current, notice: stale(joined) });
  }
  const current = await ops.get(ctx, project, iid);
  return card({
    ctx,
    platform,
    ops,
    project,
    mr: current,
    notice: stale('Other merges of it were under way at the same time and none completed.'),
  });
}

/** Cancels "merge when the pipeline succeeds"; from a card, a refusal the current state explains is shown on it. */
export async function cancelAutoMerge({
  ctx,
  platform,
  ops,
  project,
  iid,
  fromCard,
}: MergeRequestAt & {
  fromCard: boolean;
}): Promise<SlackMessage> {
  try {
    const mr = await ops.cancelAutoMerge(ctx, project, iid);
    return card({
      ctx,
      platform,
      ops,
      project,
      mr,
      notice: done('cancel-auto-merge', { actorId: ctx.actor.userId, detail: `!${iid}` }),
    });
  } catch (err) {
    if (!(err instanceof RefusedError) || !fromCard) throw err;
    const current = await ops.get(ctx, project, iid).catch(() => null);
    if (!current || (current.state === 'opened' && current.merge_when_pipeline_succeeds)) throw err;
    const why =
      current.state === 'merged'
        ? 'Already merged: there is no automatic merge to cancel.'
        : 'Not set to merge when the pipeline succeeds any more, so there is nothing to cancel.';
    return card({ ctx, platform, ops, project, mr: current, notice: stale(why) });
  }
}

/** Closing what is closed (or reopening what is open) succeeds without doing anything: look first. */
export async function setState({
  ctx,
  platform,
  ops,
  project,
  iid,
  event,
}: MergeRequestAt & {
  event: 'close' | 'reopen';
}): Promise<SlackMessage> {
  const current = await ops.get(ctx, project, iid);
  if (current.state === 'merged') {
    return card({
      ctx,
      platform,
      ops,
      project,
      mr: current,
      notice: stale(`Already merged: it can be neither closed nor reopened.`),
    });
  }
  if (current.state === (event === 'close' ? 'closed' : 'opened')) {
    return card({
      ctx,
      platform,
      ops,
      project,
      mr: current,
      notice: stale(event === 'close' ? 'Already closed.' : 'Already open.'),
    });
  }
  const mr = await ops.setState(ctx, project, iid, event);
  return card({
    ctx,
    platform,
    ops,
    project,
    mr,
    notice: done(event, { actorId: ctx.actor.userId, detail: `!${iid}` }),
  });
}

export async function subscribe({
  ctx,
  platform,
  ops,
  project,
  iid,
  on,
}: MergeRequestAt & {
  on: boolean;
}) {
  const answer = await ops.subscribe(ctx, project, iid, on);
  if (answer.changed)
    return card({
      ctx,
      platform,
      ops,
      project,
      mr: answer.value,
      notice: done(on ? 'subscribe' : 'unsubscribe', { actorId: ctx.actor.userId }),
    });
  const current = await ops.get(ctx, project, iid);
  return card({
    ctx,
    platform,
    ops,
    project,
    mr: current,
    notice: stale(on ? 'You were already subscribed.' : 'You were not subscribed.'),
  });
}

export async function addTodo({ ctx, platform, ops, project, iid }: MergeRequestAt) {
  const answer = await ops.todo(ctx, project, iid);
  if (answer.changed && answer.value.target_type === 'MergeRequest') {
    return card({
      ctx,
      platform,
      ops,
      project,
      mr: answer.value.target,
      notice: done('todo', { actorId: ctx.actor.userId }),
    });
  }
  const notice = answer.changed
    ? done('todo', { actorId: ctx.actor.userId })
    : stale('It is already one of your todos.');
  const read = await readOrWhy(() => ops.get(ctx, project, iid));
  if (read.ok) return card({ ctx, platform, ops, project, mr: read.value, notice });
  return buildNoticeOnly(unreadAfter(notice, `Merge request ${mrRef(project, iid)}`, read.why));
}

export async function changes({
  ctx,
  platform,
  ops,
  project,
  iid,
  share,
}: MergeRequestAt & {
  share: boolean;
}): Promise<Reply> {
  const mr = await ops.changes(ctx, project, iid);
  const url = mergeRequestUrl(platform.serverUrl, project, mr);
  const answer = buildDiffAnswer(mr.changes, {
    title: `Changes of ${mrRef(project, iid)}`,
    head: [
      section(
        md`${mr.title} · ${mr.source_branch ? md`${code(mr.source_branch)} → ` : ''}${code(mr.target_branch)} at ${code(shortSha(mr.sha))}`,
      ),
    ],
    filename: diffFilename(project, iid),
    url: url ? `${url}/diffs` : null,
    where: share ? 'in this channel' : 'in a direct message',
  });
  return diffReply(answer, share);
}

export function diffReply(answer: DiffAnswer, share: boolean): Reply {
  if (answer.file) return { kind: 'upload', file: answer.file, message: answer.message, inChannel: share };
  return { kind: 'message', message: answer.message, inChannel: share };
}

export async function time({
  ctx,
  platform,
  ops,
  target,
  action,
  duration,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: Ops;
  target: { project: ProjectRef | null; iid: number };
  action: TimeAction;
  duration?: string;
}) {
  const { project, iid } = await resolve(ctx, platform, target);
  const stats = await ops.time(ctx, project, { iid, action, duration });
  const notice = done(action, {
    actorId: ctx.actor.userId,
    detail: trackedDetail('merge_request', project, iid, duration),
  });
  return ephemeral(
    buildTimeTracking({ kind: 'merge_request', project, iid }, stats, { serverUrl: platform.serverUrl, notice }),
  );
}

/** A person named in a list filter, as the Filters line shows it. */
export async function personWord(ctx: RequestContext, platform: Platform, ref: UserRef | undefined) {
  return ref ? String(await platform.people.idOrUsername(ctx, ref)) : undefined;
}

export const isNoLabel = (labels: readonly string[] | undefined) => labels?.length === 1 && labels[0] === 'No Label';
