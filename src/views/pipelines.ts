import type { Button } from '@slack/types';
import type { Job, Pipeline, PipelineBasic } from '../gitlab/schemas.js';
import { actions, type Block, button, context, fields, header, message, type SlackMessage, section } from './blocks.js';
import {
  type CardContext,
  LIST_ROWS,
  type ListContext,
  linked,
  noticeBlock,
  openButton,
  type ProjectKey,
  pagingBlocks,
  projectLabel,
  webUrl,
  when,
} from './ci.js';
import { formatDuration } from './format.js';
import { jobUrl } from './jobs.js';
import { LIMITS, truncate } from './limits.js';
import { code, esc } from './mrkdwn.js';
import { shortSha, statusBadge, statusEmoji } from './status.js';

export function pipelineUrl(
  serverUrl: string,
  project: ProjectKey,
  p: Pick<PipelineBasic, 'id' | 'web_url'>,
): string | null {
  return p.web_url ?? webUrl(serverUrl, project, `pipelines/${p.id}`);
}

type PipelineAction = 'retry' | 'cancel' | 'jobs';

export function pipelineActionsFor(p: Pick<PipelineBasic, 'status'>): PipelineAction[] {
  const out: PipelineAction[] = [];
  if (p.status === 'failed' || p.status === 'canceled') out.push('retry');
  if (p.status === 'pending' || p.status === 'running') out.push('cancel');
  out.push('jobs');
  return out;
}

function pipelineButton(
  action: PipelineAction,
  p: PipelineBasic,
  project: ProjectKey,
  list: ListContext | null,
  slot?: number | string,
): Button {
  const value = { p: project, i: p.id, ...(list ? { q: list.query, n: list.page } : {}) };
  switch (action) {
    case 'retry':
      return button({ text: 'Retry', name: 'pipeline.retry', value, style: 'primary', slot });
    case 'cancel':
      return button({
        text: 'Cancel',
        name: 'pipeline.cancel',
        value,
        slot,
        confirm: {
          title: 'Cancel this pipeline?',
          text: `Cancel pipeline #${p.id} (${p.ref}) in ${projectLabel(project)}? Its running jobs stop.`,
          confirm: 'Cancel pipeline',
          deny: 'Keep running',
        },
      });
    case 'jobs':
      return button({ text: 'Jobs', name: 'pipeline.jobs', value: { p: project, i: p.id }, slot });
  }
}

/** Jobs grouped by stage, stages in the order the pipeline runs them. */
export function jobsByStage(jobs: Job[], serverUrl: string, project: ProjectKey): string {
  const stages = new Map<string, Job[]>();
  for (const job of [...jobs].sort((a, b) => a.id - b.id)) {
    const list = stages.get(job.stage) ?? [];
    list.push(job);
    stages.set(job.stage, list);
  }
  const lines = [...stages].map(
    ([stage, list]) =>
      `*${esc(stage)}*  ${list.map((j) => `${statusEmoji(j.status)} ${linked(jobUrl(serverUrl, project, j), j.name)}`).join('  ·  ')}`,
  );
  return truncate(lines.join('\n'), LIMITS.sectionText);
}

export function buildPipelineCard(p: Pipeline, jobs: Job[] | null, project: ProjectKey, c: CardContext): SlackMessage {
  const url = pipelineUrl(c.serverUrl, project, p);
  const who = p.user ? `${esc(p.user.name)} (@${esc(p.user.username)})` : '—';
  const blocks: Block[] = [
    header(`${statusEmoji(p.status)} Pipeline #${p.id} · ${p.ref}`),
    fields([
      `*Status*\n${statusBadge(p.status)}`,
      `*Ref*\n${code(p.ref)}${p.tag ? ' (tag)' : ''}`,
      `*Commit*\n${code(shortSha(p.sha))}`,
      `*Triggered by*\n${who}`,
      `*Created*\n${when(p.created_at, c.now)}`,
      `*Duration*\n${typeof p.duration === 'number' ? formatDuration(p.duration) : '—'}`,
    ]),
  ];
  if (p.yaml_errors) blocks.push(section(`:warning: *YAML errors*: ${esc(truncate(p.yaml_errors, 500))}`));
  if (jobs && jobs.length > 0) blocks.push(section(jobsByStage(jobs, c.serverUrl, project)));
  else if (jobs) blocks.push(section('_No jobs._'));
  const extra = [`${esc(projectLabel(project))}${p.coverage ? ` · coverage ${esc(p.coverage)}%` : ''}`];
  if (url) extra.push(linked(url, 'Open in GitLab'));
  blocks.push(context(extra));
  blocks.push(...noticeBlock(c.notice));
  blocks.push(actions([...pipelineActionsFor(p).map((a) => pipelineButton(a, p, project, null)), ...openButton(url)]));
  return message(`Pipeline #${p.id} on ${p.ref}: ${p.status}`, blocks);
}

function pipelineRow(
  p: PipelineBasic,
  project: ProjectKey,
  list: ListContext | null,
  slot: number | string,
  serverUrl: string,
): Block {
  const url = pipelineUrl(serverUrl, project, p);
  const text = `${statusEmoji(p.status)} *${linked(url, `#${p.id}`)}* ${code(p.ref)} · ${code(shortSha(p.sha))} · ${p.status}`;
  const primary = pipelineActionsFor(p)[0] as PipelineAction;
  return section(text, pipelineButton(primary, p, project, list, slot));
}

export function buildPipelineList(
  pipelines: PipelineBasic[],
  project: ProjectKey,
  page: { page: number | null; nextPage: number | null; total: number | null },
  o: { title: string; filters: string; list: ListContext | null; ctx: CardContext },
): SlackMessage {
  const blocks: Block[] = [header(o.title)];
  if (o.filters) blocks.push(context([o.filters]));
  blocks.push(...noticeBlock(o.ctx.notice));
  if (pipelines.length === 0) {
    blocks.push(
      section(`No pipelines in ${esc(projectLabel(project))} match${o.filters ? ` (${esc(o.filters)})` : ''}.`),
    );
  }
  const subject = o.ctx.notice?.subject;
  if (subject?.kind === 'pipeline') blocks.push(pipelineRow(subject.pipeline, project, o.list, 'now', o.ctx.serverUrl));
  pipelines.slice(0, LIST_ROWS).forEach((p, i) => {
    blocks.push(pipelineRow(p, project, o.list, i, o.ctx.serverUrl));
  });
  blocks.push(...pagingBlocks(o.list, { ...page, shown: Math.min(pipelines.length, LIST_ROWS) }));
  return message(`${o.title}: ${pipelines.length} shown`, blocks);
}
