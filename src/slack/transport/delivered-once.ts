import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from '../../log.js';
import type { ClaimStore } from '../../store/claim-store.js';
import { acknowledge } from './acknowledge.js';

// Slack delivers an event again when it did not see the ack in time (`X-Slack-Retry-Num` over HTTP,
// `retry_attempt` over a socket), and the copy may reach another replica, or this one after a reconnect. The
// first delivery of an `event_id` claims it in the database; every later one is acknowledged (Bolt acks events
// before any middleware, except function_executed, whose ack it leaves to app.function: that one is acked here)
// and goes no further.

/** How long an event id is remembered: Slack's retries come within minutes. */
const EVENT_MEMORY_MS = 60 * 60 * 1000;

export function createDeliveredOnce(
  claims: ClaimStore,
  logger: Logger,
  now: () => number = Date.now,
): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const body = args.body as { type?: unknown; event_id?: unknown };
    if (body.type !== 'event_callback' || typeof body.event_id !== 'string' || body.event_id === '') {
      await args.next();
      return;
    }
    if (!(await claims.claim(`event:${body.event_id}`, new Date(now() + EVENT_MEMORY_MS)))) {
      logger.info('an event delivered again was acknowledged and not acted on', {
        event: body.event_id,
        retry: (args.context as { retryNum?: number }).retryNum ?? null,
      });
      await acknowledge(args.context, (args as { ack?: unknown }).ack);
      return;
    }
    await args.next();
  };
}
