import type { Button } from '@slack/types';
import type { PipelineSchedule } from '../gitlab/schemas.js';
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
import { formatDateTime } from './format.js';
import { code, esc } from './mrkdwn.js';
import { pipelineUrl } from './pipelines.js';
import { statusEmoji } from './status.js';

export function scheduleUrl(serverUrl: string, project: ProjectKey, s: Pick<PipelineSchedule, 'id'>): string | null {
  return webUrl(serverUrl, project, `pipeline_schedules/${s.id}/edit`);
}

function value(project: ProjectKey, s: PipelineSchedule, list: ListContext | null) {
  return { p: project, s: s.id, ...(list ? { q: list.query, n: list.page } : {}) };
}

export function scheduleButtons(s: PipelineSchedule, project: ProjectKey, list: ListContext | null = null): Button[] {
  const v = value(project, s, list);
  const label = `schedule #${s.id} “${s.description}” in ${projectLabel(project)}`;
  return [
    button({
      text: 'Take ownership',
      name: 'schedule.take',
      value: v,
      confirm: {
        title: 'Take ownership?',
        text: `Take ownership of ${label}? Its scheduled pipelines will then run with *your* permissions.`,
        confirm: 'Take ownership',
      },
    }),
    s.active
      ? button({ text: 'Deactivate', name: 'schedule.deactivate', value: v })
      : button({ text: 'Activate', name: 'schedule.activate', value: v, style: 'primary' }),
    button({
      text: 'Delete',
      name: 'schedule.delete',
      value: v,
      style: 'danger',
      confirm: { title: 'Delete this schedule?', text: `Delete ${label}? This cannot be undone.`, confirm: 'Delete' },
    }),
  ];
}

function nextRun(s: PipelineSchedule, c: CardContext): string {
  if (!s.active) return '— (inactive)';
  if (!s.next_run_at) return '—';
  const d = new Date(s.next_run_at);
  if (Number.isNaN(d.getTime())) return '—';
  return `${formatDateTime(d, c.timeZone)} (${when(s.next_run_at, c.now)})`;
}

export function buildScheduleCard(s: PipelineSchedule, project: ProjectKey, c: CardContext): SlackMessage {
  const url = scheduleUrl(c.serverUrl, project, s);
  const owner = s.owner ? `${esc(s.owner.name)} (@${esc(s.owner.username)})` : '— (no owner)';
  const last = s.last_pipeline
    ? `${statusEmoji(s.last_pipeline.status)} ${linked(pipelineUrl(c.serverUrl, project, s.last_pipeline), `#${s.last_pipeline.id}`)} ${s.last_pipeline.status}`
    : s.last_pipeline === null
      ? 'none yet'
      : '—';
  const blocks: Block[] = [
    header(`:calendar: Schedule #${s.id} · ${s.description}`),
    fields([
      `*Ref*\n${code(s.ref)}`,
      `*Cron*\n${code(s.cron)} (${esc(s.cron_timezone)})`,
      `*Next run*\n${nextRun(s, c)}`,
      `*Active*\n${s.active ? 'yes' : 'no'}`,
      `*Owner*\n${owner}`,
      `*Last pipeline*\n${last}`,
    ]),
    context([
      `${esc(projectLabel(project))} · times in ${esc(c.timeZone)}${url ? ` · ${linked(url, 'Open in GitLab')}` : ''}`,
    ]),
    ...noticeBlock(c.notice),
    actions([...scheduleButtons(s, project), ...openButton(url)]),
  ];
  return message(`Schedule #${s.id} ${s.description}: ${s.active ? 'active' : 'inactive'}`, blocks);
}

export function buildScheduleDeleted(s: PipelineSchedule, project: ProjectKey, actorId: string): SlackMessage {
  return message(`Schedule #${s.id} ${s.description} was deleted.`, [
    section(
      `:wastebasket: Schedule #${s.id} “${esc(s.description)}” in ${esc(projectLabel(project))} was deleted by <@${actorId}>.`,
    ),
  ]);
}

function scheduleRow(s: PipelineSchedule, project: ProjectKey, slot: number | string): Block {
  const owner = s.owner ? ` · owner @${esc(s.owner.username)}` : '';
  const text = `${s.active ? ':large_green_circle:' : ':white_circle:'} *#${s.id}* ${esc(s.description)} · ${code(s.ref)} · ${code(s.cron)} ${esc(s.cron_timezone)} · ${s.active ? 'active' : 'inactive'}${owner}`;
  return section(text, button({ text: 'Details', name: 'schedule.show', value: { p: project, s: s.id }, slot }));
}

export function buildScheduleList(
  schedules: PipelineSchedule[],
  project: ProjectKey,
  page: { page: number | null; nextPage: number | null; total: number | null },
  o: { title: string; filters: string; list: ListContext | null; ctx: CardContext },
): SlackMessage {
  const blocks: Block[] = [header(o.title)];
  if (o.filters) blocks.push(context([o.filters]));
  blocks.push(...noticeBlock(o.ctx.notice));
  if (schedules.length === 0)
    blocks.push(
      section(`No pipeline schedules in ${esc(projectLabel(project))}${o.filters ? ` (${esc(o.filters)})` : ''}.`),
    );
  const subject = o.ctx.notice?.subject;
  if (subject?.kind === 'schedule') blocks.push(scheduleRow(subject.schedule, project, 'now'));
  schedules.slice(0, LIST_ROWS).forEach((s, i) => {
    blocks.push(scheduleRow(s, project, i));
  });
  blocks.push(...pagingBlocks(o.list, { ...page, shown: Math.min(schedules.length, LIST_ROWS) }));
  return message(`${o.title}: ${schedules.length} shown`, blocks);
}
