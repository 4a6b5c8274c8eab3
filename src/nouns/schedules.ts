import { ScheduleButtons } from '../buttons/ci.js';
import { type Project, projectButtonKey, projectLabel } from '../gitlab/project.js';
import type { PipelineSchedule } from '../gitlab/schemas.js';
import type { RequestContext } from '../operations/context.js';
import { createScheduleOperations, type ScheduleAction, type ScheduleOperations } from '../operations/schedules.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/common.js';
import { describeFilters, type ListPlace, pageSize } from '../views/lists.js';
import { done, type Notice, stale, unreadAfter } from '../views/notice.js';
import {
  buildScheduleCard,
  buildScheduleDeleted,
  buildScheduleList,
  scheduleConfirmation,
  scheduleRow,
} from '../views/schedules.js';
import { cardContext, placeOf, readOrWhy, redrawListAfterWrite, refOf } from './support.js';
import { ephemeral, noun, type Platform, type Reply } from './types.js';

const n = noun('schedule', (d) => createScheduleOperations(d));

/**
 * Schedules are planned around: the card shows times in the viewer's zone. A card only its asker sees
 * offers no Take ownership when they own the schedule; a shared card is for everyone, so it does.
 */
async function scheduleCard(
  ctx: RequestContext,
  s: Platform,
  schedule: PipelineSchedule,
  project: Project,
  o: { notice?: Notice; shared?: boolean } = {},
) {
  const timeZone = await s.timeZoneOf(ctx.actor.userId);
  const c = await cardContext(ctx, s, { notice: o.notice, timeZone, withViewer: !o.shared });
  return buildScheduleCard(schedule, project, c);
}

async function actOnSchedule(
  ctx: RequestContext,
  s: Platform,
  ops: ScheduleOperations,
  project: Project,
  id: number,
  action: ScheduleAction,
  place: ListPlace | null,
  shared = false,
): Promise<SlackMessage> {
  const result = await ops.act(ctx, project, id, action);
  const notice = done(action, ctx.actor.userId, `schedule #${id}`);
  if (place) {
    const timeZone = await s.timeZoneOf(ctx.actor.userId);
    const row =
      result && action !== 'delete' ? scheduleRow(result, project, 'now', { now: ctx.now, timeZone }) : undefined;
    const withRow = row ? { ...notice, row } : notice;
    return redrawListAfterWrite(s, ctx, place, { expect: 'schedule.list', notice: withRow });
  }
  if (action === 'delete' || !result) return buildScheduleDeleted(result ?? { id }, project, ctx.actor.userId);
  // Only the single read carries the last pipeline; the action's answer may not.
  if (result.last_pipeline !== undefined) return scheduleCard(ctx, s, result, project, { notice, shared });
  const read = await readOrWhy(() => ops.get(ctx, project, id));
  if (read.ok) return scheduleCard(ctx, s, read.value, project, { notice, shared });
  return scheduleCard(ctx, s, result, project, { notice: unreadAfter(notice, 'Its last pipeline', read.why), shared });
}

/** What is true already when a typed command asks for it. */
const SCHEDULE_ALREADY = {
  owned: 'You own this schedule already: there is nothing to take.',
  active: 'Already active.',
  inactive: 'Already inactive.',
} as const;

/**
 * A typed activate or deactivate: the server answers both alike whatever the state was, so the schedule is read
 * first, and one that is already so is shown as it is instead of "Deactivated by" a change that was none.
 */
async function switchTyped(
  ctx: RequestContext,
  s: Platform,
  ops: ScheduleOperations,
  project: Project,
  id: number,
  active: boolean,
): Promise<SlackMessage> {
  const schedule = await ops.get(ctx, project, id);
  if (schedule.active === active) {
    const notice = stale(active ? SCHEDULE_ALREADY.active : SCHEDULE_ALREADY.inactive);
    return scheduleCard(ctx, s, schedule, project, { notice });
  }
  return actOnSchedule(ctx, s, ops, project, id, active ? 'activate' : 'deactivate', null);
}

function confirmTyped(action: 'take' | 'delete', project: Project, id: number): Reply {
  const value = { p: projectButtonKey(project), s: id };
  return ephemeral(buildConfirmPrompt(scheduleConfirmation(action, { id }, project), ScheduleButtons[action], value));
}

const act = (action: ScheduleAction) =>
  n.on(ScheduleButtons[action], async (v, ctx, s, ops): Promise<Reply> => {
    const project = await s.resolveProject(ctx, refOf(v.p));
    const shared = ctx.message !== null && !ctx.message.ephemeral;
    return { kind: 'update', message: await actOnSchedule(ctx, s, ops, project, v.s, action, placeOf(v), shared) };
  });

export const schedules = n.define({
  lists: {
    async 'schedule.list'(cmd, ctx, s, ops, place, notice) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const perPage = pageSize(cmd.flags.perPage);
      const result = await ops.list(ctx, project, {
        ...(cmd.flags.page ? { page: cmd.flags.page } : {}),
        ...(perPage ? { per_page: perPage } : {}),
        ...(cmd.flags.scope ? { scope: cmd.flags.scope } : {}),
      });
      return buildScheduleList(result.items, project, result, {
        title: `Pipeline schedules in ${projectLabel(project)}`,
        filters: describeFilters({ scope: cmd.flags.scope }),
        place,
        ctx: await cardContext(ctx, s, { notice, timeZone: await s.timeZoneOf(ctx.actor.userId) }),
      });
    },
  },
  commands: {
    async 'schedule.show'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const schedule = await ops.get(ctx, project, cmd.target.id);
      const message = await scheduleCard(ctx, s, schedule, project, { shared: cmd.share });
      return { kind: 'message', message, inChannel: cmd.share };
    },
    async 'schedule.create'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const schedule = await ops.create(ctx, project, {
        description: cmd.args.description,
        ref: cmd.args.ref,
        cron: cmd.args.cron,
        ...(cmd.flags.tz ? { cron_timezone: cmd.flags.tz } : {}),
        active: !cmd.flags.inactive,
      });
      const notice = done('create', ctx.actor.userId, `schedule #${schedule.id}`);
      return ephemeral(await scheduleCard(ctx, s, schedule, project, { notice }));
    },
    async 'schedule.edit'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const f = cmd.flags;
      const schedule = await ops.edit(ctx, project, cmd.target.id, {
        ...(f.description !== undefined ? { description: f.description } : {}),
        ...(f.ref !== undefined ? { ref: f.ref } : {}),
        ...(f.cron !== undefined ? { cron: f.cron } : {}),
        ...(f.tz !== undefined ? { cron_timezone: f.tz } : {}),
        ...(f.active !== undefined ? { active: f.active } : {}),
      });
      const notice = done('edit', ctx.actor.userId, `schedule #${schedule.id}`);
      return ephemeral(await scheduleCard(ctx, s, schedule, project, { notice }));
    },
    async 'schedule.take'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      // Its owner has nothing to take: say so instead of asking, and change nothing.
      const schedule = await ops.get(ctx, project, cmd.target.id);
      const viewer = (await ctx.session.connection())?.username ?? null;
      if (viewer !== null && schedule.owner?.username === viewer) {
        return ephemeral(await scheduleCard(ctx, s, schedule, project, { notice: stale(SCHEDULE_ALREADY.owned) }));
      }
      return confirmTyped('take', project, cmd.target.id);
    },
    async 'schedule.delete'(cmd, ctx, s) {
      return confirmTyped('delete', await s.resolveProject(ctx, cmd.target.project), cmd.target.id);
    },
    async 'schedule.activate'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      return ephemeral(await switchTyped(ctx, s, ops, project, cmd.target.id, true));
    },
    async 'schedule.deactivate'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      return ephemeral(await switchTyped(ctx, s, ops, project, cmd.target.id, false));
    },
  },
  buttons: [
    n.on(ScheduleButtons.show, async (v, ctx, s, ops) => {
      const project = await s.resolveProject(ctx, refOf(v.p));
      return ephemeral(await scheduleCard(ctx, s, await ops.get(ctx, project, v.s), project));
    }),
    act('take'),
    act('activate'),
    act('deactivate'),
    act('delete'),
  ],
});
