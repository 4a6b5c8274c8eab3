import type { ScheduleButtonValue } from '../ids.js';
import type { RequestContext } from '../operations/context.js';
import type { ProjectKey } from '../operations/jobs.js';
import { projectLabel } from '../operations/projects.js';
import type { ScheduleAction } from '../operations/schedules.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/confirm.js';
import { buildScheduleCard, buildScheduleDeleted } from '../views/schedules.js';
import { cardContext, listReply, redrawList } from './lists.js';
import { type ButtonHandlers, type CommandHandlers, ephemeral, type Reply, type Services } from './types.js';

async function scheduleCard(ctx: RequestContext, s: Services, project: ProjectKey, id: number): Promise<SlackMessage> {
  const [schedule, tz] = await Promise.all([s.schedules.get(ctx, project, id), s.timeZoneOf(ctx.actor.userId)]);
  return buildScheduleCard(schedule, project, cardContext(ctx, s, undefined, tz));
}

async function actOnSchedule(
  ctx: RequestContext,
  s: Services,
  project: ProjectKey,
  id: number,
  action: ScheduleAction,
  list: { q?: string | undefined; n?: number | undefined },
): Promise<SlackMessage> {
  const result = await s.schedules.act(ctx, project, id, action);
  const notice = { action, actorId: ctx.actor.userId, detail: `schedule #${id}` };
  if (list.q) {
    const subject = result && action !== 'delete' ? { kind: 'schedule' as const, schedule: result } : undefined;
    return redrawList(list.q, list.n ?? 1, ctx, s, subject ? { ...notice, subject } : notice);
  }
  if (action === 'delete' || !result) {
    return result
      ? buildScheduleDeleted(result, project, ctx.actor.userId)
      : {
          text: `Schedule #${id} was deleted.`,
          blocks: [
            {
              type: 'section',
              text: {
                type: 'mrkdwn',
                text: `:wastebasket: Schedule #${id} in ${projectLabel(project)} was deleted by <@${ctx.actor.userId}>.`,
              },
            },
          ],
        };
  }
  // Only the single read carries the last pipeline; the action's answer may not.
  const schedule = result.last_pipeline === undefined ? await s.schedules.get(ctx, project, id) : result;
  return buildScheduleCard(schedule, project, cardContext(ctx, s, notice, await s.timeZoneOf(ctx.actor.userId)));
}

function confirmSchedule(action: 'take' | 'delete', project: ProjectKey, id: number) {
  const at = `schedule #${id} in ${projectLabel(project)}`;
  return ephemeral(
    action === 'take'
      ? buildConfirmPrompt({
          question: `Take ownership of ${at}? Its scheduled pipelines will then run with your permissions.`,
          yes: `Yes, take schedule #${id}`,
          name: 'schedule.take',
          value: { p: project, s: id },
        })
      : buildConfirmPrompt({
          question: `Delete ${at}? This cannot be undone.`,
          yes: `Yes, delete schedule #${id}`,
          name: 'schedule.delete',
          value: { p: project, s: id },
        }),
  );
}

export const scheduleCommands: CommandHandlers = {
  'schedule.list': listReply,
  async 'schedule.show'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    return { kind: 'message', message: await scheduleCard(ctx, s, project, cmd.target.id), inChannel: cmd.share };
  },
  async 'schedule.create'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    const schedule = await s.schedules.create(ctx, project, {
      description: cmd.args.description,
      ref: cmd.args.ref,
      cron: cmd.args.cron,
      ...(cmd.flags.tz ? { cron_timezone: cmd.flags.tz } : {}),
      active: !cmd.flags.inactive,
    });
    const notice = { action: 'create', actorId: ctx.actor.userId, detail: `schedule #${schedule.id}` };
    return ephemeral(
      buildScheduleCard(schedule, project, cardContext(ctx, s, notice, await s.timeZoneOf(ctx.actor.userId))),
    );
  },
  async 'schedule.edit'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    const f = cmd.flags;
    const schedule = await s.schedules.edit(ctx, project, cmd.target.id, {
      ...(f.description !== undefined ? { description: f.description } : {}),
      ...(f.ref !== undefined ? { ref: f.ref } : {}),
      ...(f.cron !== undefined ? { cron: f.cron } : {}),
      ...(f.tz !== undefined ? { cron_timezone: f.tz } : {}),
      ...(f.active !== undefined ? { active: f.active } : {}),
    });
    const notice = { action: 'edit', actorId: ctx.actor.userId, detail: `schedule #${schedule.id}` };
    return ephemeral(
      buildScheduleCard(schedule, project, cardContext(ctx, s, notice, await s.timeZoneOf(ctx.actor.userId))),
    );
  },
  async 'schedule.take'(cmd, ctx, s) {
    return confirmSchedule('take', await s.resolveProject(ctx, cmd.target.project), cmd.target.id);
  },
  async 'schedule.delete'(cmd, ctx, s) {
    return confirmSchedule('delete', await s.resolveProject(ctx, cmd.target.project), cmd.target.id);
  },
  async 'schedule.activate'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    return ephemeral(await actOnSchedule(ctx, s, project, cmd.target.id, 'activate', {}));
  },
  async 'schedule.deactivate'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    return ephemeral(await actOnSchedule(ctx, s, project, cmd.target.id, 'deactivate', {}));
  },
};

const scheduleButton =
  (action: ScheduleAction) =>
  async (v: ScheduleButtonValue, ctx: RequestContext, s: Services): Promise<Reply> => ({
    kind: 'update',
    message: await actOnSchedule(ctx, s, v.p, v.s, action, v),
  });

export const scheduleButtons: ButtonHandlers = {
  async 'schedule.show'(v, ctx, s) {
    return ephemeral(await scheduleCard(ctx, s, v.p, v.s));
  },
  'schedule.take': scheduleButton('take'),
  'schedule.activate': scheduleButton('activate'),
  'schedule.deactivate': scheduleButton('deactivate'),
  'schedule.delete': scheduleButton('delete'),
};
