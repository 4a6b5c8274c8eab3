import type { WebClient } from '@slack/web-api';
import type { FoundPost } from '../../delivery/slack.js';
import { WATCH_CARD_EVENT, WATCH_FIX_EVENT, type WatchSlack } from '../../watch/slack.js';
import { createDeliverySlack } from './delivery-slack.js';

// Watches' side of Slack: cards and fix replies carrying their mark, the redraw of a fixed card, and the kernel's
// one search (the channel's latest messages for a card, the card's thread for a fix reply).

/** A card is looked for among the latest pages only: one deeper than that is taken as not posted. */
const notDeeper = (found: FoundPost): FoundPost =>
  found.found === 'unknown' && found.error === 'history_too_long' ? { found: false } : found;

export function createWatchSlack(client: WebClient): WatchSlack {
  const slack = createDeliverySlack(client);
  return {
    post: (channel, message, o) =>
      slack.post(channel, message, {
        ...(o ? { mark: { event: o.event, payload: { ...o.mark } } } : {}),
        ...(o?.threadTs ? { threadTs: o.threadTs } : {}),
      }),
    update: slack.update,
    findCard: async (channel, mark) =>
      notDeeper(await slack.findMarked(channel, { event: WATCH_CARD_EVENT, payload: { ...mark } })),
    findReply: async (channel, threadTs, mark) =>
      notDeeper(await slack.findMarked(channel, { event: WATCH_FIX_EVENT, payload: { ...mark } }, { threadTs })),
    openDm: slack.openDm,
  };
}
