import crypto from 'node:crypto';
import { StaleActionError } from '../../errors.js';
import { ACTION_PREFIX, decodeButtonAction } from '../../ids.js';
import type { Dispatch } from '../../nouns/assemble.js';
import type { ButtonContext, Surface } from '../../nouns/types.js';
import type { Actor, Session } from '../../operations/context.js';
import type { ClaimStore } from '../../store/claim-store.js';
import { acknowledge } from '../transport/acknowledge.js';
import { deliver } from '../web-api/deliver.js';
import { respondTo } from '../web-api/respond.js';
import type { Routes } from './routes.js';

export interface ActionListenerOptions {
  dispatch: Dispatch;
  sessionOf(actor: Actor): Session;
  now(): Date;
  /** Clicks being carried out on any replica: the same click landing on two does one thing. */
  claims?: ClaimStore;
}

/** How long a click's claim lasts if its replica dies before giving it back. */
const CLICK_CLAIM_MS = 2 * 60 * 1000;

/**
 * What makes two clicks the same: who, which action, on what. Where a row button sits in a list (q, n) does
 * not change what it acts on, so a row's Retry and the card's Retry of one job are the same click.
 */
function clickKey(actor: Actor, name: string, value: unknown): string {
  const { q: _q, n: _n, ...what } = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const sorted = Object.fromEntries(Object.entries(what).sort(([a], [b]) => a.localeCompare(b)));
  return JSON.stringify([actor.teamId, actor.userId, name, sorted]);
}

export function registerActionListener(routes: Routes, o: ActionListenerOptions): void {
  // Clicks being carried out. A second click of the same button by the same person while the first still
  // runs (a double click, an impatient one) does nothing of its own: the first click's answer is the answer.
  const running = new Set<string>();

  routes.action({ prefix: ACTION_PREFIX }, async ({ ack, body, action, client, context, logger }) => {
    await acknowledge(context, ack);
    const decoded = decodeButtonAction(action.action_id, action.value, o.dispatch.buttonDefs);
    if (!decoded.ok) throw new StaleActionError(decoded.reason);
    const handler = o.dispatch.button(decoded.name);
    if (!handler) throw new StaleActionError(`no handler for ${decoded.name}`);
    const actor = {
      teamId: body.team?.id ?? body.user.team_id ?? '',
      userId: body.user.id,
      userName: body.user.name ?? body.user.id,
    };
    const key = clickKey(actor, decoded.name, decoded.value);
    if (running.has(key)) {
      logger.debug(`a click of ${decoded.name} came again while the first runs; the first one answers`);
      return;
    }
    const container = body.container as
      | { type?: string; message_ts?: string; is_ephemeral?: boolean; channel_id?: string }
      | undefined;
    // The same click on another replica (a double click the load balancer split): the database says who runs it.
    const shared = `click:${crypto
      .createHash('sha256')
      .update(`${key}|${container?.message_ts ?? body.view?.id ?? ''}`)
      .digest('hex')}`;
    if (o.claims && !(await o.claims.claim(shared, new Date(Date.now() + CLICK_CLAIM_MS)))) {
      logger.debug(`a click of ${decoded.name} runs on another replica; that one answers`);
      return;
    }
    running.add(key);
    try {
      const channelId = body.channel?.id ?? container?.channel_id ?? null;
      const message = container?.message_ts
        ? { ts: container.message_ts, ephemeral: container.is_ephemeral === true }
        : null;
      // A button of a view is on the Home tab or in a modal; the Home has neither a message nor a response_url.
      const surface: Surface = container?.type === 'view' ? (body.view?.type === 'home' ? 'home' : 'modal') : 'message';
      const ctx: ButtonContext = {
        actor,
        channelId,
        now: o.now(),
        message,
        surface,
        session: o.sessionOf(actor),
        responseUrl: body.response_url ?? null,
        shared: message !== null && !message.ephemeral,
      };
      const respond = respondTo(body.response_url);
      const delivery = { client, respond, userId: actor.userId, channelId, triggerId: body.trigger_id, message };
      await deliver(delivery, await handler(decoded.value, ctx));
    } finally {
      running.delete(key);
      await o.claims?.release(shared);
    }
  });
}
