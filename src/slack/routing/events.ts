import type { Dispatch } from '../../nouns/assemble.js';
import type { Actor, RequestContext, Session } from '../../operations/context.js';
import { decodeSlackEvent } from '../../slack-events.js';
import { deliver } from '../web-api/deliver.js';
import type { Routes } from './routes.js';

// Events API events (the Home tab opened, links shared): each type some noun answers is decoded and handed to
// it as the person the event is about; its reply is delivered like any other. Bolt acknowledges events itself.

export interface EventListenerOptions {
  dispatch: Dispatch;
  sessionOf(actor: Actor): Session;
  now(): Date;
}

export function registerEventListeners(routes: Routes, o: EventListenerOptions): void {
  for (const type of o.dispatch.eventTypes) {
    routes.event(type, async ({ event, body, client, context, logger }) => {
      const decoded = decodeSlackEvent(type, event);
      // Nobody waits on an event: one the bot cannot read is noted and left alone.
      if (!decoded.ok) {
        logger.warn(`an event was not handled: ${decoded.reason}`);
        return;
      }
      const handler = o.dispatch.event(type);
      if (!handler) return;
      const e = decoded.event as { user: string; channel?: string };
      const actor = { teamId: context.teamId ?? String(body.team_id ?? ''), userId: e.user, userName: '' };
      const ctx: RequestContext = {
        actor,
        channelId: e.channel ?? null,
        now: o.now(),
        session: o.sessionOf(actor),
      };
      const reply = await handler(decoded.event, ctx);
      await deliver(
        { client, respond: undefined, userId: actor.userId, channelId: ctx.channelId, triggerId: undefined },
        reply,
      );
    });
  }
}
