import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { StaleActionError } from '../errors.js';
import type { ButtonHandler, ButtonHandlers, Services } from '../handlers/types.js';
import { ACTION_PREFIX, type ButtonName, decodeButtonAction } from '../ids.js';
import { acknowledge } from './acknowledge.js';
import { deliver } from './deliver.js';

export function registerActionListener(app: App, s: Services, handlers: ButtonHandlers, now: () => Date): void {
  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^${ACTION_PREFIX}`),
    async ({ ack, body, action, respond, client, context }) => {
      await acknowledge(context, ack);
      const decoded = decodeButtonAction(action.action_id, action.value);
      if (!decoded.ok) throw new StaleActionError(decoded.reason);
      const container = body.container as
        | { message_ts?: string; is_ephemeral?: boolean; channel_id?: string }
        | undefined;
      const channelId = body.channel?.id ?? container?.channel_id ?? null;
      const message = container?.message_ts
        ? { ts: container.message_ts, ephemeral: container.is_ephemeral === true }
        : null;
      const delivery = { client, respond, userId: body.user.id, channelId, triggerId: body.trigger_id, message };
      const { name, value } = decoded.action;
      const handler = handlers[name] as ButtonHandler<ButtonName> | undefined;
      if (!handler) throw new StaleActionError(`no handler for ${name}`);
      const ctx = {
        actor: {
          teamId: body.team?.id ?? body.user.team_id ?? '',
          userId: body.user.id,
          userName: body.user.name ?? body.user.id,
        },
        channelId,
        now: now(),
        message,
      };
      await deliver(delivery, await handler(value as never, ctx, s));
    },
  );
}
