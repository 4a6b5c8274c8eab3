import { PipelineButtons } from '../buttons/ci.js';
import type { Refusal } from '../errors.js';
import type { FailureNote } from '../failure/note.js';
import { onServer, type Project, projectButtonKey, projectLabel, projectPageUrl } from '../gitlab/project.js';
import type { Job, Pipeline, PipelineBasic } from '../gitlab/schemas.js';
import {
  actions,
  type Block,
  button,
  type Confirmation,
  context,
  fields,
  header,
  message,
  type SlackMessage,
  section,
} from './blocks.js';
import { type CardContext, openButton, when } from './common.js';
import { failureBlocks } from './failure.js';
import { formatDuration } from './format.js';
import { jobUrl } from './jobs.js';
import { truncate } from './limits.js';
import { buildList, type ListPlace, type PageInfo } from './lists.js';
import { bold, code, joinMd, linked, type Md, md, type Text } from './mrkdwn.js';
import { noticeBlocks } from './notice.js';
import { shortSha, statusBadge, statusEmoji } from './status.js';

export function pipelineUrl(serverUrl: string, project: Project, p: Pick<PipelineBasic, 'id' | 'web_url'>) {
  return onServer(serverUrl, p.web_url) ?? projectPageUrl(serverUrl, project, `pipelines/${p.id}`);
}

type PipelineAction = 'retry' | 'cancel' | 'jobs';

export function pipelineActionsFor(p: Pick<PipelineBasic, 'status'>): PipelineAction[] {
  const out: PipelineAction[] = [];
  if (p.status === 'failed' || p.status === 'canceled') out.push('retry');
  if (p.status === 'pending' || p.status === 'running') out.push('cancel');
  out.push('jobs');
  return out;
}

export function pipelineConfirmation(p: { id: number; ref?: string }, project: Project): Confirmation {
  const what = p.ref ? `pipeline #${p.id} (${p.ref})` : `pipeline #${p.id}`;
  return {
    title: 'Cancel this pipeline?',
    question: md`Cancel ${what} in ${projectLabel(project)}? Its running jobs stop.`,
    confirm: 'Cancel pipeline',
    deny: 'Keep running',
    yes: `Yes, cancel pipeline #${p.id}`,
  };
}

/** What is true now when a pipeline's card was out of date. */
export function pipelineStaleText(p: Pick<PipelineBasic, 'status'>): Md {
  return md`Not running any more (it is ${p.status}), so there is nothing to cancel.`;
}

function pipelineButton(
  action: PipelineAction,
  pipeline: PipelineBasic,
  { project, place, slot }: { project: Project; place: ListPlace | null; slot?: number | string },
) {
  const key = projectButtonKey(project);
  const value = { p: key, i: pipeline.id, ...(place ? { q: place.query, n: place.page } : {}) };
  switch (action) {
    case 'retry':
      return button({ text: 'Retry', def: PipelineButtons.retry, value, style: 'primary', slot });
    case 'cancel':
      return button({
        text: 'Cancel',
        def: PipelineButtons.cancel,
        value,
        slot,
        confirm: pipelineConfirmation(pipeline, project),
      });
    case 'jobs':
      return button({ text: 'Jobs', def: PipelineButtons.jobs, value: { p: key, i: pipeline.id }, slot });
  }
}

/**
 * Jobs grouped by stage, stages in the order the pipeline runs them. A retried job is replaced by its retry (a
 * 9.5 server lists both): the newest job of each name in a stage stands where the first one stood.
 */
function latestByStage(jobs: readonly Job[]): Map<string, Map<string, Job>> {
  const stages = new Map<string, Map<string, Job>>();
  for (const job of [...jobs].sort((a, b) => a.id - b.id)) {
    const byName = stages.get(job.stage) ?? new Map<string, Job>();
    byName.set(job.name, job);
    stages.set(job.stage, byName);
  }
  return stages;
}

/** The pipeline's failed jobs as its card shows them (a retried job by its retry), in the order the stages run. */
export function failedJobsOf(jobs: readonly Job[]): Job[] {
  return [...latestByStage(jobs).values()].flatMap((byName) =>
    [...byName.values()].filter((j) => j.status === 'failed'),
  );
}

export function jobsByStage(jobs: Job[], serverUrl: string, project: Project): Md {
  const stages = latestByStage(jobs);
  const lines = [...stages].map(
    ([stage, list]) =>
      md`${bold(stage)}  ${joinMd(
        [...list.values()].map((j) => md`${statusEmoji(j.status)} ${linked(jobUrl(serverUrl, project, j), j.name)}`),
        '  ·  ',
      )}`,
  );
  return joinMd(lines, '\n');
}

/** Why a pipeline's failed jobs failed: the first few explained, how many more there are. */
export interface PipelineFailures {
  notes: readonly FailureNote[];
  more: number;
}

export function buildPipelineCard(
  pipeline: Pipeline,
  jobs: Job[] | null,
  project: Project,
  ctx: CardContext & { failures?: PipelineFailures | null },
): SlackMessage {
  const url = pipelineUrl(ctx.serverUrl, project, pipeline);
  const who = pipeline.user ? md`${pipeline.user.name} (@${pipeline.user.username})` : '—';
  const blocks: Block[] = [
    header(`${statusEmoji(pipeline.status)} Pipeline #${pipeline.id} · ${pipeline.ref}`),
    fields([
      md`*Status*\n${statusBadge(pipeline.status)}`,
      md`*Ref*\n${code(pipeline.ref)}${pipeline.tag ? ' (tag)' : ''}`,
      md`*Commit*\n${code(shortSha(pipeline.sha))}`,
      md`*Triggered by*\n${who}`,
      md`*Created*\n${when(pipeline.created_at, ctx)}`,
      md`*Duration*\n${typeof pipeline.duration === 'number' ? formatDuration(pipeline.duration) : '—'}`,
    ]),
  ];
  if (pipeline.yaml_errors) blocks.push(section(md`:warning: *YAML errors*: ${truncate(pipeline.yaml_errors, 500)}`));
  if (jobs && jobs.length > 0) blocks.push(section(jobsByStage(jobs, ctx.serverUrl, project)));
  else if (jobs) blocks.push(section('_No jobs._'));
  if (ctx.failures) {
    const { notes, more } = ctx.failures;
    blocks.push(...failureBlocks(notes, { project, serverUrl: ctx.serverUrl, named: true, traceButtons: true, more }));
  }
  const extra: Text[] = [md`${projectLabel(project)}${pipeline.coverage ? md` · coverage ${pipeline.coverage}%` : ''}`];
  if (url) extra.push(linked(url, 'Open in GitLab'));
  blocks.push(context(extra));
  blocks.push(...noticeBlocks(ctx.notice));
  blocks.push(
    actions([
      ...pipelineActionsFor(pipeline).map((a) => pipelineButton(a, pipeline, { project, place: null })),
      ...openButton(url),
    ]),
  );
  return message(md`Pipeline #${pipeline.id} on ${pipeline.ref}: ${pipeline.status}`, blocks);
}

export function pipelineRow(
  pipeline: PipelineBasic,
  {
    project,
    place,
    slot,
    serverUrl,
  }: { project: Project; place: ListPlace | null; slot: number | string; serverUrl: string },
) {
  const url = pipelineUrl(serverUrl, project, pipeline);
  const text = md`${statusEmoji(pipeline.status)} ${bold(linked(url, `#${pipeline.id}`))} ${code(pipeline.ref)} · ${code(shortSha(pipeline.sha))} · ${pipeline.status}`;
  const primary = pipelineActionsFor(pipeline)[0] as PipelineAction;
  return section(text, pipelineButton(primary, pipeline, { project, place, slot }));
}

export function buildPipelineList(
  pipelines: PipelineBasic[],
  project: Project,
  page: PageInfo,
  options: { title: string; filters: string; place: ListPlace | null; ctx: CardContext },
): SlackMessage {
  return buildList({
    title: options.title,
    filters: options.filters,
    notice: options.ctx.notice,
    empty: md`No pipelines in ${projectLabel(project)} match${options.filters ? md` (${options.filters})` : ''}.`,
    items: pipelines,
    key: (p) => p.id,
    row: (p, i) => pipelineRow(p, { project, place: options.place, slot: i, serverUrl: options.ctx.serverUrl }),
    page,
    place: options.place,
  });
}

/** `pipeline run demo/web` where no channel default makes `demo/web` the ref: the ref is what is missing. */
export function buildRefMissing(project: string, slashCommand: string): SlackMessage {
  const usage = code(`${slashCommand} pipeline run ${project} <ref>`);
  const text = md`The ref is missing: which branch or tag should the pipeline run on? ${usage}`;
  return message(text, [
    section(md`:grey_question: ${text}`),
    context([
      md`If ${code(project)} is the ref, name the project first, or set this channel's default with ${code(`${slashCommand} use group/project`)}.`,
    ]),
  ]);
}

/** A branch or tag a command named that the project does not have. */
export function refRefusal(r: Refusal): Md | null {
  if (r.subject.kind !== 'ref') return null;
  const project = projectLabel(r.subject.project);
  if (r.reason === 'no_ref') {
    const so = r.action === 'create' ? 'no merge request was opened' : 'no pipeline was started';
    return md`${project} has no branch or tag ${code(r.subject.ref)} (400), so ${so}. Check the name.`;
  }
  if (r.status === 403 && r.action === 'run') {
    return md`You may not run pipelines on ${code(r.subject.ref)} in ${project} (403): that needs at least the Developer role in the project, and a protected branch may need more. Nothing was started.`;
  }
  return null;
}

export function pipelineRefusal(r: Refusal, label: string): Md | null {
  if (r.status !== 403) return null;
  const verb = r.action === 'retry' ? 'retried' : 'canceled';
  return md`${label} cannot be ${verb}: you may not run pipelines in this project, or its state does not allow it (403).`;
}
