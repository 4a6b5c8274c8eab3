import type { App } from '@slack/bolt';
import { DatabaseBusyError } from '../errors.js';
import { BlockIds, CallbackIds, InputActionIds } from '../ids.js';
import type { AccountOperations } from '../operations/account.js';
import { registerSecret } from '../redact.js';
import { buildConnectedModal, buildTokenFieldError, tokenCheckError } from '../views/account.js';
import { DATABASE_BUSY } from '../views/errors.js';
import { acknowledge } from './acknowledge.js';

export interface ViewListenerOptions {
  account: AccountOperations;
  serverUrl: string;
  slashCommand: string;
  now(): Date;
}

export function registerViewListeners(app: App, o: ViewListenerOptions): void {
  app.view(CallbackIds.connect, async ({ ack, body, view, context, logger }) => {
    const raw = view.state.values[BlockIds.connectToken]?.[InputActionIds.connectToken]?.value ?? '';
    const token = raw.trim();
    if (!token) {
      await acknowledge(context, ack, {
        response_action: 'errors',
        errors: buildTokenFieldError('Paste your personal access token.'),
      });
      return;
    }
    registerSecret(token);
    const actor = {
      teamId: body.team?.id ?? body.user.team_id ?? '',
      userId: body.user.id,
      userName: body.user.name,
    };
    // The check runs before the ack: only a view_submission ack can put an error on the field.
    const check = await o.account.connect(actor, token, o.now()).catch((err: unknown) => {
      if (err instanceof DatabaseBusyError) return null;
      throw err;
    });
    if (!check) {
      logger.warn('token not stored: the database is busy', { team: actor.teamId, user: actor.userId });
      await acknowledge(context, ack, {
        response_action: 'errors',
        errors: buildTokenFieldError(`${DATABASE_BUSY} Nothing was stored.`),
      });
      return;
    }
    if (!check.ok) {
      logger.info('token check failed', { team: actor.teamId, user: actor.userId, reason: check.reason });
      await acknowledge(context, ack, {
        response_action: 'errors',
        errors: buildTokenFieldError(tokenCheckError(check.reason, o.serverUrl, check.status)),
      });
      return;
    }
    logger.info('token stored', { team: actor.teamId, user: actor.userId });
    await acknowledge(context, ack, {
      response_action: 'update',
      view: buildConnectedModal(o.serverUrl, o.slashCommand, check.username),
    });
  });
}
