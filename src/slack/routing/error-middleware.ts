import crypto from 'node:crypto';
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { UnexpectedError } from '../../errors.js';
import { buildErrorMessage, buildUnexpectedErrorMessage } from '../../views/errors.js';
import { acknowledge, answerChannelOf, isAcknowledged } from '../transport/acknowledge.js';
import { markRefused, requestIdOf, requestLogger } from '../transport/observe-requests.js';
import { say } from '../web-api/deliver.js';
import { respondTo } from '../web-api/respond.js';

export interface ErrorMiddlewareOptions {
  serverUrl: string;
  slashCommand: string;
}

/**
 * The one place failures become words: known errors turn into a short ephemeral message;
 * anything else gets a reference id, shown to the person and passed on (once) to app.error.
 */
export function createErrorMiddleware(o: ErrorMiddlewareOptions): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    try {
      await args.next();
    } catch (error) {
      const known = buildErrorMessage(error, { serverUrl: o.serverUrl, slashCommand: o.slashCommand });
      // The reference a person reads is the request's id, which every log line of the request carries.
      const refId = known ? null : (requestIdOf(args.context) ?? crypto.randomBytes(4).toString('hex'));
      if (known) markRefused(args.context);
      const text = known ?? buildUnexpectedErrorMessage(refId as string);
      const a = args as unknown as {
        ack?: (b?: unknown) => Promise<void>;
        respond?: Parameters<typeof say>[0]['respond'];
        body: Record<string, unknown>;
      };
      try {
        const isCommand = a.body.command !== undefined;
        let shown = false;
        if (!isAcknowledged(args.context)) {
          if (isCommand) {
            await acknowledge(args.context, a.ack, { response_type: 'ephemeral', ...text });
            shown = true;
          } else {
            await acknowledge(args.context, a.ack);
          }
        }
        if (!shown) {
          const user = (a.body.user as { id?: string } | undefined)?.id ?? (a.body.user_id as string | undefined) ?? '';
          const channel =
            (a.body.channel as { id?: string } | undefined)?.id ??
            (a.body.channel_id as string | undefined) ??
            answerChannelOf(args.context);
          await say(
            {
              client: args.client,
              respond: respondTo(a.body.response_url),
              userId: user,
              channelId: channel,
              triggerId: undefined,
            },
            text,
          );
        }
      } catch (deliveryError) {
        const log = requestLogger(args.context);
        if (log) log.warn('could not tell the person about an error', { error: String(deliveryError) });
        else args.logger.warn(`could not tell the person about an error: ${String(deliveryError)}`);
      }
      if (refId) throw new UnexpectedError(refId, error);
    }
  };
}
