import type { App } from '@slack/bolt';
import type { Services } from '../handlers/types.js';
import { BlockIds, CallbackIds, InputActionIds } from '../ids.js';
import type { TokenCheck } from '../operations/access.js';
import { registerSecret } from '../redact.js';
import { buildConnectedModal, buildTokenFieldError } from '../views/account.js';
import { acknowledge } from './acknowledge.js';

function fieldErrorFor(check: Exclude<TokenCheck, { ok: true }>, serverUrl: string): string {
  switch (check.reason) {
    case 'refused':
      return 'The server refused this token (401): it is wrong, expired or revoked. Nothing was stored.';
    case 'forbidden':
      return 'The token was accepted but may not use the API (403): create one with the api scope. Nothing was stored.';
    case 'unreachable':
      return `Could not reach ${serverUrl} in time to check the token; try again. Nothing was stored.`;
    default:
      return `The server answered ${check.status ?? 'unexpectedly'} while checking the token. Nothing was stored.`;
  }
}

export function registerViewListeners(app: App, s: Services, now: () => Date): void {
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
    const check = await s.account.connect(actor, token, now());
    if (!check.ok) {
      logger.info('token check failed', { team: actor.teamId, user: actor.userId, reason: check.reason });
      await acknowledge(context, ack, {
        response_action: 'errors',
        errors: buildTokenFieldError(fieldErrorFor(check, s.serverUrl)),
      });
      return;
    }
    logger.info('token stored', { team: actor.teamId, user: actor.userId });
    await acknowledge(context, ack, {
      response_action: 'update',
      view: buildConnectedModal(s.serverUrl, s.slashCommand),
    });
  });
}
