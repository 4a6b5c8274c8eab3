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
import { cardContext, placeOf, readersOf, readOrWhy, redrawListAfterWrite, refOf } from './support.js';
import { ephemeral, noun, type Platform, type Reply } from './types.js';

const scheduleNoun = noun('schedule', (deps) => createScheduleOperations(deps));

/**
 * Schedules are planned around: the card shows times in the viewer's zone. A card only its asker sees
 * offers no Take ownership when they own the schedule; a shared card is for everyone, so it does.
 */
async function scheduleCard({
  ctx,
  platform,
  schedule,
  project,
  options = {},
}: {
  ctx: RequestContext;
  platform: Platform;
  schedule: PipelineSchedule;
  project: Project;
  options?: { notice?: Notice; shared?: boolean };
}) {
  const timeZone = await platform.timeZoneOf(ctx.actor.userId);
  const card = await cardContext(ctx, platform, { notice: options.notice, timeZone, withViewer: !options.shared });
  return buildScheduleCard(schedule, project, card);
}

async function actOnSchedule({
  ctx,
  platform,
  ops,
  project,
  id,
  action,
  place,
  shared = false,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: ScheduleOperations;
  project: Project;
  id: number;
  action: ScheduleAction;
  place: ListPlace | null;
  shared?: boolean;
}): Promise<SlackMessage> {
  const result = await ops.act(ctx, project, id, action);
  const notice = done(action, { actorId: ctx.actor.userId, detail: `schedule #${id}` });
  if (place) {
    const at = await readersOf(ctx, platform);
    const row = result && action !== 'delete' ? scheduleRow(result, project, 'now', at) : undefined;
    const withRow = row ? { ...notice, row } : notice;
    return redrawListAfterWrite({ platform, ctx, place, options: { expect: 'schedule.list', notice: withRow } });
  }
  if (action === 'delete' || !result) return buildScheduleDeleted(result ?? { id }, project, ctx.actor.userId);
  // Only the single read carries the last pipeline; the action's answer may not.
  if (result.last_pipeline !== undefined)
    return scheduleCard({ ctx, platform, schedule: result, project, options: { notice, shared } });
  const read = await readOrWhy(() => ops.get(ctx, project, id));
  if (read.ok) return scheduleCard({ ctx, platform, schedule: read.value, project, options: { notice, shared } });
  return scheduleCard({
    ctx,
    platform,
    schedule: result,
    project,
    options: {
      notice: unreadAfter(notice, 'Its last pipeline', read.why),
      shared,
    },
  });
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
async function switchTyped({
  ctx,
  platform,
  ops,
  project,
  id,
  active,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: ScheduleOperations;
  project: Project;
  id: number;
  active: boolean;
}): Promise<SlackMessage> {
  const schedule = await ops.get(ctx, project, id);
  if (schedule.active === active) {
    const notice = stale(active ? SCHEDULE_ALREADY.active : SCHEDULE_ALREADY.inactive);
    return scheduleCard({ ctx, platform, schedule, project, options: { notice } });
  }
  return actOnSchedule({ ctx, platform, ops, project, id, action: active ? 'activate' : 'deactivate', place: null });
}

function confirmTyped(action: 'take' | 'delete', project: Project, id: number): Reply {
  const value = { p: projectButtonKey(project), s: id };
  return ephemeral(buildConfirmPrompt(scheduleConfirmation(action, { id }, project), ScheduleButtons[action], value));
}

const act = (action: ScheduleAction) =>
  scheduleNoun.on(ScheduleButtons[action], async (value, ctx, platform, ops): Promise<Reply> => {
    const project = await platform.resolveProject(ctx, refOf(value.p));
    const shared = ctx.message !== null && !ctx.message.ephemeral;
    return {
      kind: 'update',
      message: await actOnSchedule({ ctx, platform, ops, project, id: value.s, action, place: placeOf(value), shared }),
    };
  });

export const schedules = scheduleNoun.define({
  lists: {
    async 'schedule.list'(command, ctx, platform, ops, place, notice) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const perPage = pageSize(command.flags.perPage);
      const result = await ops.list(ctx, project, {
        ...(command.flags.page ? { page: command.flags.page } : {}),
        ...(perPage ? { per_page: perPage } : {}),
        ...(command.flags.scope ? { scope: command.flags.scope } : {}),
      });
      return buildScheduleList(result.items, project, result, {
        title: `Pipeline schedules in ${projectLabel(project)}`,
        filters: describeFilters({ scope: command.flags.scope }),
        place,
        ctx: await cardContext(ctx, platform, { notice, timeZone: await platform.timeZoneOf(ctx.actor.userId) }),
      });
    },
  },
  commands: {
    async 'schedule.show'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const schedule = await ops.get(ctx, project, command.target.id);
      const message = await scheduleCard({ ctx, platform, schedule, project, options: { shared: command.share } });
      return { kind: 'message', message, inChannel: command.share };
    },
    async 'schedule.create'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      // The cron reads in the creator's own zone unless told otherwise, as a digest's does, and the answer says which.
      const zone = command.flags.tz ?? (await platform.timeZoneOf(ctx.actor.userId));
      const schedule = await ops.create(ctx, project, {
        description: command.args.description,
        ref: command.args.ref,
        cron: command.args.cron,
        cron_timezone: zone,
        active: !command.flags.inactive,
      });
      const detail = command.flags.tz
        ? `schedule #${schedule.id}`
        : `schedule #${schedule.id} · its cron reads in ${zone}, your Slack time zone (--tz to choose another)`;
      const notice = done('create', { actorId: ctx.actor.userId, detail });
      return ephemeral(await scheduleCard({ ctx, platform, schedule, project, options: { notice } }));
    },
    async 'schedule.edit'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const flags = command.flags;
      const schedule = await ops.edit(ctx, project, command.target.id, {
        ...(flags.description !== undefined ? { description: flags.description } : {}),
        ...(flags.ref !== undefined ? { ref: flags.ref } : {}),
        ...(flags.cron !== undefined ? { cron: flags.cron } : {}),
        ...(flags.tz !== undefined ? { cron_timezone: flags.tz } : {}),
        ...(flags.active !== undefined ? { active: flags.active } : {}),
      });
      const notice = done('edit', { actorId: ctx.actor.userId, detail: `schedule #${schedule.id}` });
      return ephemeral(await scheduleCard({ ctx, platform, schedule, project, options: { notice } }));
    },
    async 'schedule.take'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      // Its owner has nothing to take: say so instead of asking, and change nothing.
      const schedule = await ops.get(ctx, project, command.target.id);
      const viewer = (await ctx.session.connection())?.username ?? null;
      if (viewer !== null && schedule.owner?.username === viewer) {
        return ephemeral(
          await scheduleCard({ ctx, platform, schedule, project, options: { notice: stale(SCHEDULE_ALREADY.owned) } }),
        );
      }
      return confirmTyped('take', project, command.target.id);
    },
    async 'schedule.delete'(command, ctx, platform) {
      return confirmTyped('delete', await platform.resolveProject(ctx, command.target.project), command.target.id);
    },
    async 'schedule.activate'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      return ephemeral(await switchTyped({ ctx, platform, ops, project, id: command.target.id, active: true }));
    },
    async 'schedule.deactivate'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      return ephemeral(await switchTyped({ ctx, platform, ops, project, id: command.target.id, active: false }));
    },
  },
  buttons: [
    scheduleNoun.on(ScheduleButtons.show, async (value, ctx, platform, ops) => {
      const project = await platform.resolveProject(ctx, refOf(value.p));
      return ephemeral(await scheduleCard({ ctx, platform, schedule: await ops.get(ctx, project, value.s), project }));
    }),
    act('take'),
    act('activate'),
    act('deactivate'),
    act('delete'),
  ],
});
