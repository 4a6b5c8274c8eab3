import crypto from 'node:crypto';
import { DatabaseBusyError, DatabaseUnavailableError, StaleActionError } from '../../errors.js';
import {
  BlockIds,
  CallbackIds,
  decodeConnectMetadata,
  decodeModalSubmission,
  InputActionIds,
  MODAL_PREFIX,
  type ViewStateValues,
} from '../../ids.js';
import type { Dispatch } from '../../nouns/assemble.js';
import type { ModalContext } from '../../nouns/types.js';
import type { AccountOperations } from '../../operations/account.js';
import type { Actor, Session } from '../../operations/context.js';
import { registerSecret } from '../../redact.js';
import type { ClaimStore } from '../../store/claim-store.js';
import { buildConnectedModal, buildTokenFieldError, tokenCheckError } from '../../views/account.js';
import { DATABASE_BUSY, DATABASE_UNAVAILABLE } from '../../views/errors.js';
import { acknowledge, setAnswerChannel } from '../transport/acknowledge.js';
import { type Delivery, deliver } from '../web-api/deliver.js';
import { respondTo } from '../web-api/respond.js';
import type { Routes } from './routes.js';

export interface ViewListenerOptions {
  account: AccountOperations;
  serverUrl: string;
  slashCommand: string;
  dispatch: Dispatch;
  sessionOf(actor: Actor): Session;
  now(): Date;
  /** Submissions carried out on any replica: one view submitted to two (a Merge sent twice) does one thing. */
  claims?: ClaimStore;
}

/** How long a submitted view is remembered: a closed modal is not submitted again. */
const SUBMISSION_MEMORY_MS = 10 * 60 * 1000;

/** How long a response_url is worth trying: Slack's 30 minutes, less a margin for the request itself. */
const RESPONSE_URL_LIFETIME_MS = 29 * 60 * 1000;

export function registerViewListeners(routes: Routes, o: ViewListenerOptions): void {
  routes.view(CallbackIds.connect, async ({ ack, body, view, context, client, logger }) => {
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
    let unstored: string | null = null;
    const check = await o.account.connect(actor, token, o.now()).catch((err: unknown) => {
      if (err instanceof DatabaseBusyError) unstored = DATABASE_BUSY;
      else if (err instanceof DatabaseUnavailableError) unstored = DATABASE_UNAVAILABLE;
      else throw err;
      return null;
    });
    if (!check) {
      logger.warn('token not stored: the database did not take it', { team: actor.teamId, user: actor.userId });
      await acknowledge(context, ack, {
        response_action: 'errors',
        errors: buildTokenFieldError(`${unstored ?? DATABASE_BUSY} Nothing was stored.`),
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
      view: buildConnectedModal(o.serverUrl, o.slashCommand, check.username, check.replaced),
    });
    // Connected from the Home tab: the Home behind the modal shows the connection and what it reads.
    if (decodeConnectMetadata(view.private_metadata).home) {
      const ctx = { actor, channelId: null, now: o.now(), session: o.sessionOf(actor) };
      const delivery = { client, respond: undefined, userId: actor.userId, channelId: null, triggerId: undefined };
      await deliver(delivery, { kind: 'home', view: await o.dispatch.redrawHome(ctx) });
    }
  });

  // The modals nouns register: field errors keep a modal open; otherwise it closes and the answer goes to
  // where it was opened (its private_metadata says which channel, and which message to redraw).
  routes.view({ prefix: MODAL_PREFIX }, async ({ ack, body, view, context, client, logger }) => {
    const decoded = decodeModalSubmission(view.callback_id, view.private_metadata, o.dispatch.modalDefs);
    if (!decoded.ok) throw new StaleActionError(decoded.reason);
    const handler = o.dispatch.modal(decoded.name);
    if (!handler) throw new StaleActionError(`no handler for ${decoded.name}`);
    setAnswerChannel(context, decoded.channelId);
    const actor = {
      teamId: body.team?.id ?? body.user.team_id ?? '',
      userId: body.user.id,
      userName: body.user.name,
    };
    const ctx: ModalContext = {
      actor,
      channelId: decoded.channelId,
      now: o.now(),
      session: o.sessionOf(actor),
      values: view.state.values as unknown as ViewStateValues,
      message: decoded.message,
      surface: decoded.home ? 'home' : 'message',
      // A message in a channel redrawn after the form is read by many, as after a click on it.
      shared: decoded.message !== null && decoded.message !== undefined && !decoded.message.ephemeral,
    };
    // The same view submitted to two replicas (or twice to one): the first to claim it in the database acts.
    const once = `submission:${crypto
      .createHash('sha256')
      .update(`${actor.teamId}|${actor.userId}|${view.id}`)
      .digest('hex')}`;
    if (o.claims && !(await o.claims.claim(once, new Date(Date.now() + SUBMISSION_MEMORY_MS)))) {
      logger.debug(`a submission of ${decoded.name} came again; the first one answers`);
      await acknowledge(context, ack);
      return;
    }
    const answer = await handler(decoded.value, ctx).catch(async (err: unknown) => {
      await o.claims?.release(once);
      throw err;
    });
    if (answer.kind === 'errors') {
      // The modal stays open to be corrected and submitted again.
      await o.claims?.release(once);
      await acknowledge(context, ack, { response_action: 'errors', errors: answer.errors });
      return;
    }
    await acknowledge(context, ack);
    const reply = await answer.reply();
    const delivery: Delivery = {
      client,
      respond: undefined,
      userId: actor.userId,
      channelId: decoded.channelId,
      triggerId: body.trigger_id,
      message: decoded.message,
    };
    // The opening click's response_url redraws ephemeral and posted messages alike. Slack keeps it for 30
    // minutes and 5 answers: after that a posted message is updated with chat.update and an ephemeral one
    // (which nothing else can change) is answered with a fresh ephemeral message.
    const fresh = !decoded.openedAt || ctx.now.getTime() - decoded.openedAt.getTime() < RESPONSE_URL_LIFETIME_MS;
    if (decoded.responseUrl && fresh && reply.kind !== 'upload') {
      try {
        await deliver({ ...delivery, respond: respondTo(decoded.responseUrl) }, reply);
        return;
      } catch (err) {
        logger.info(
          `the response_url of a modal's message is no longer usable; answering another way (${String(err)})`,
        );
      }
    }
    await deliver(delivery, reply);
  });
}
