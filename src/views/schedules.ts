import type { Button } from '@slack/types';
import { ScheduleButtons } from '../buttons/ci.js';
import type { Refusal } from '../errors.js';
import { type Project, projectButtonKey, projectLabel, projectPageUrl } from '../gitlab/project.js';
import type { PipelineSchedule } from '../gitlab/schemas.js';
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
import { type CardContext, openButton, whenNext } from './common.js';
import type { Readers } from './format.js';
import { buildList, type ListPlace, type PageInfo } from './lists.js';
import { code, linked, type Md, md, mention, type Text } from './mrkdwn.js';
import { noticeBlocks } from './notice.js';
import { pipelineUrl } from './pipelines.js';
import { statusEmoji } from './status.js';

export function scheduleUrl(serverUrl: string, project: Project, s: Pick<PipelineSchedule, 'id'>): string | null {
  return projectPageUrl(serverUrl, project, `pipeline_schedules/${s.id}/edit`);
}

type ScheduleRef = { id: number; description?: string };

const named = (s: ScheduleRef, project: Project) =>
  md`schedule #${s.id}${s.description !== undefined ? md` “${s.description}”` : ''} in ${projectLabel(project)}`;

/** The one text of each confirmation, for card dialogs and typed prompts alike. */
export function scheduleConfirmation(action: 'take' | 'delete', s: ScheduleRef, project: Project): Confirmation {
  return action === 'take'
    ? {
        title: 'Take ownership?',
        question: md`Take ownership of ${named(s, project)}? Its scheduled pipelines will then run with *your* permissions.`,
        confirm: 'Take ownership',
        yes: `Yes, take schedule #${s.id}`,
      }
    : {
        title: 'Delete this schedule?',
        question: md`Delete ${named(s, project)}? This cannot be undone.`,
        confirm: 'Delete',
        yes: `Yes, delete schedule #${s.id}`,
      };
}

export function scheduleButtons(
  s: PipelineSchedule,
  project: Project,
  o: { place?: ListPlace | null; viewer?: string | null } = {},
): Button[] {
  const v = { p: projectButtonKey(project), s: s.id, ...(o.place ? { q: o.place.query, n: o.place.page } : {}) };
  const out: Button[] = [];
  // The owner has nothing to take.
  if (!o.viewer || s.owner?.username !== o.viewer) {
    out.push(
      button({
        text: 'Take ownership',
        def: ScheduleButtons.take,
        value: v,
        confirm: scheduleConfirmation('take', s, project),
      }),
    );
  }
  out.push(
    s.active
      ? button({ text: 'Deactivate', def: ScheduleButtons.deactivate, value: v })
      : button({ text: 'Activate', def: ScheduleButtons.activate, value: v, style: 'primary' }),
    button({
      text: 'Delete',
      def: ScheduleButtons.delete,
      value: v,
      style: 'danger',
      confirm: scheduleConfirmation('delete', s, project),
    }),
  );
  return out;
}

function nextRun(s: PipelineSchedule, c: Readers): Text {
  if (!s.active) return '— (inactive)';
  if (!s.next_run_at) return '—';
  const d = new Date(s.next_run_at);
  if (Number.isNaN(d.getTime())) return '—';
  return whenNext(d, c);
}

export function buildScheduleCard(s: PipelineSchedule, project: Project, c: CardContext): SlackMessage {
  const url = scheduleUrl(c.serverUrl, project, s);
  const owner = s.owner ? md`${s.owner.name} (@${s.owner.username})` : '— (no owner)';
  const last = s.last_pipeline
    ? md`${statusEmoji(s.last_pipeline.status)} ${linked(pipelineUrl(c.serverUrl, project, s.last_pipeline), `#${s.last_pipeline.id}`)} ${s.last_pipeline.status}`
    : s.last_pipeline === null
      ? 'none yet'
      : '—';
  const blocks: Block[] = [
    header(`:calendar: Schedule #${s.id} · ${s.description}`),
    fields([
      md`*Ref*\n${code(s.ref)}`,
      md`*Cron*\n${code(s.cron)} (${s.cron_timezone})`,
      md`*Next run*\n${nextRun(s, c)}`,
      md`*Active*\n${s.active ? 'yes' : 'no'}`,
      md`*Owner*\n${owner}`,
      md`*Last pipeline*\n${last}`,
    ]),
    context([
      md`${projectLabel(project)}${c.shared ? '' : md` · times in ${c.timeZone}`}${url ? md` · ${linked(url, 'Open in GitLab')}` : ''}`,
    ]),
    ...noticeBlocks(c.notice),
    actions([...scheduleButtons(s, project, { viewer: c.viewer ?? null }), ...openButton(url)]),
  ];
  return message(md`Schedule #${s.id} ${s.description}: ${s.active ? 'active' : 'inactive'}`, blocks);
}

export function buildScheduleDeleted(s: ScheduleRef, project: Project, actorId: string): SlackMessage {
  const text = md`Schedule #${s.id}${s.description !== undefined ? md` “${s.description}”` : ''} in ${projectLabel(project)} was deleted by ${mention(actorId)}.`;
  return message(text, [section(md`:wastebasket: ${text}`)]);
}

export function scheduleRow(schedule: PipelineSchedule, project: Project, slot: number | string, at: Readers): Block {
  const owner = schedule.owner ? md` · owner @${schedule.owner.username}` : '';
  // The next run is what people scan this list for.
  const next = schedule.active && schedule.next_run_at ? md` · next run ${nextRun(schedule, at)}` : '';
  const text = md`${schedule.active ? ':large_green_circle:' : ':white_circle:'} *#${schedule.id}* ${schedule.description} · ${code(schedule.ref)} · ${code(schedule.cron)} ${schedule.cron_timezone} · ${schedule.active ? 'active' : 'inactive'}${owner}${next}`;
  const value = { p: projectButtonKey(project), s: schedule.id };
  return section(text, button({ text: 'Details', def: ScheduleButtons.show, value, slot }));
}

export function buildScheduleList(
  schedules: PipelineSchedule[],
  project: Project,
  page: PageInfo,
  options: { title: string; filters: string; place: ListPlace | null; ctx: CardContext },
): SlackMessage {
  return buildList({
    title: options.title,
    filters: options.filters,
    notice: options.ctx.notice,
    empty: md`No pipeline schedules in ${projectLabel(project)}${options.filters ? md` (${options.filters})` : ''}.`,
    items: schedules,
    row: (s, i) => scheduleRow(s, project, i, options.ctx),
    page,
    place: options.place,
  });
}

const SCHEDULE_WHAT: Record<string, string> = {
  take: 'take ownership of it',
  activate: 'activate it',
  deactivate: 'deactivate it',
  delete: 'delete it',
  edit: 'change this schedule',
};

export function scheduleRefusal(r: Refusal, label: string): Md | null {
  if (r.status !== 403) return null;
  return md`${label}: you may not ${SCHEDULE_WHAT[r.action] ?? r.action} (403). Only maintainers, or the schedule's owner, can.`;
}
