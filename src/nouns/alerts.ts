import { ALERT_ACTIONS } from '../alert-actions.js';
import { parseQuietHours } from '../alerts/quiet.js';
import { AlertButtons } from '../buttons/alerts.js';
import { InvalidInputError, RefusedError } from '../errors.js';
import type { Todo } from '../gitlab/schemas.js';
import { createAlertOperations } from '../operations/alerts.js';
import type { QuietHours } from '../store/alert-store.js';
import { buildAlertRedraw, buildAlertSetting } from '../views/alerts.js';
import { code, md } from '../views/mrkdwn.js';
import { done, stale } from '../views/notice.js';
import { TODO_ALREADY_DONE, todoSubject } from '../views/todos.js';
import { ephemeral, noun, type Reply } from './types.js';

// Todo alerts (`/gl notify`): the person's own setting, kept by the bot; turning them on reads where their todos
// stand with their token. The DMs themselves come from alerts/ (a poll every minute); their Done button is here.

const n = noun('notify', (d) => createAlertOperations({ access: d.access, alerts: d.alerts }));

export const alerts = n.define({
  commands: {
    async 'notify.on'(cmd, ctx, s, ops) {
      let quiet: QuietHours | null = null;
      if (cmd.flags.quiet !== undefined) {
        const q = parseQuietHours(cmd.flags.quiet);
        if (!q.ok) {
          throw new InvalidInputError(
            md`The quiet hours ${code(cmd.flags.quiet)} ${q.problem}. Usage: ${code(`${s.slashCommand} notify on [--actions assigned,mentioned] [--quiet 19:00-08:00]`)}`,
          );
        }
        quiet = q.value;
      }
      const actions =
        cmd.flags.actions && cmd.flags.actions.length > 0 ? [...new Set(cmd.flags.actions)] : [...ALERT_ACTIONS];
      const tz = await s.timeZoneOf(ctx.actor.userId);
      const { setting, wasOn } = await ops.enable(ctx, { actions, quiet, tz });
      const notice = wasOn ? done('edit', { actorId: ctx.actor.userId, detail: 'todo alerts' }) : undefined;
      return ephemeral(
        buildAlertSetting(setting, {
          now: ctx.now,
          timeZone: tz,
          slashCommand: s.slashCommand,
          ...(notice ? { notice } : {}),
        }),
      );
    },
    async 'notify.off'(_cmd, ctx, s, ops) {
      const wasOn = await ops.disable(ctx);
      const notice = wasOn ? undefined : stale('Todo alerts were off already.');
      return ephemeral(
        buildAlertSetting(null, { now: ctx.now, slashCommand: s.slashCommand, ...(notice ? { notice } : {}) }),
      );
    },
    async 'notify.show'(_cmd, ctx, s, ops) {
      const timeZone = await s.timeZoneOf(ctx.actor.userId);
      return ephemeral(buildAlertSetting(await ops.get(ctx), { now: ctx.now, timeZone, slashCommand: s.slashCommand }));
    },
  },
  buttons: [
    n.on(AlertButtons.done, async (v, ctx, s, ops): Promise<Reply> => {
      const ids = v.g ?? [v.t];
      let marked: Todo | null = null;
      try {
        marked = await ops.markDone(ctx, v.t);
      } catch (err) {
        // Done elsewhere already (or never the clicker's): the message is drawn as things are.
        if (!(err instanceof RefusedError) || err.refusal.status !== 404) throw err;
      }
      const notice = marked
        ? done('done', { actorId: ctx.actor.userId, detail: todoSubject(marked, { serverUrl: s.serverUrl }) })
        : stale(TODO_ALREADY_DONE);
      const { todos, gone } = await ops.current(ctx, ids, marked ? [marked] : []);
      // Redrawn in the zone the DM was drawn in (the person's), not UTC.
      const timeZone = await s.timeZoneOf(ctx.actor.userId);
      return {
        kind: 'update',
        message: buildAlertRedraw(todos, gone, { serverUrl: s.serverUrl, now: ctx.now, notice, timeZone }),
      };
    }),
  ],
});
