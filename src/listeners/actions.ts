import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { StaleActionError } from '../errors.js';
import { ACTION_PREFIX, decodeButtonAction } from '../ids.js';
import type { Dispatch } from '../nouns/assemble.js';
import type { ButtonContext } from '../nouns/types.js';
import type { Actor, Session } from '../operations/context.js';
import { acknowledge } from './acknowledge.js';
import { deliver } from './deliver.js';

export interface ActionListenerOptions {
  dispatch: Dispatch;
  sessionOf(actor: Actor): Session;
  now(): Date;
}

export function registerActionListener(app: App, o: ActionListenerOptions): void {
  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^${ACTION_PREFIX}`),
    async ({ ack, body, action, respond, client, context }) => {
      await acknowledge(context, ack);
      const decoded = decodeButtonAction(action.action_id, action.value, o.dispatch.buttonDefs);
      if (!decoded.ok) throw new StaleActionError(decoded.reason);
      const handler = o.dispatch.button(decoded.name);
      if (!handler) throw new StaleActionError(`no handler for ${decoded.name}`);
      const container = body.container as
        | { message_ts?: string; is_ephemeral?: boolean; channel_id?: string }
        | undefined;
      const channelId = body.channel?.id ?? container?.channel_id ?? null;
      const message = container?.message_ts
        ? { ts: container.message_ts, ephemeral: container.is_ephemeral === true }
        : null;
      const actor = {
        teamId: body.team?.id ?? body.user.team_id ?? '',
        userId: body.user.id,
        userName: body.user.name ?? body.user.id,
      };
      const ctx: ButtonContext = {
        actor,
        channelId,
        now: o.now(),
        message,
        session: o.sessionOf(actor),
        responseUrl: body.response_url ?? null,
      };
      const delivery = { client, respond, userId: actor.userId, channelId, triggerId: body.trigger_id, message };
      await deliver(delivery, await handler(decoded.value, ctx));
    },
  );
}
