import type { WebClient } from '@slack/web-api';
import { type CardMark, WATCH_CARD_EVENT, WATCH_FIX_EVENT, type WatchSlack } from '../watch/slack.js';
import { openDmWith, postMarked, refusing, slackError } from './marked-posts.js';

// Watches' side of Slack with Bolt's Web API client: cards and fix replies carrying their mark, the redraw of a
// fixed card, and the searches that settle a delivery cut off by a kill. The client waits out 429s and retries.

const HISTORY_PAGE = 200;
/** A card cut off by a kill is looked for among this many pages of the channel's latest messages. */
const HISTORY_PAGES = 5;

const hasMark = (m: unknown, event: string, mark: CardMark): boolean => {
  const meta = (m as { metadata?: { event_type?: unknown; event_payload?: Record<string, unknown> } }).metadata;
  return (
    meta?.event_type === event &&
    meta.event_payload?.card === mark.card &&
    Number(meta.event_payload?.watch) === mark.watch
  );
};

export function createWatchSlack(client: WebClient): WatchSlack {
  return {
    post: (channel, message, o) =>
      postMarked(client, channel, message, {
        mark: o && { eventType: o.event, payload: { ...o.mark } },
        threadTs: o?.threadTs,
      }),
    update: (channel, ts, message) =>
      refusing(async () => {
        await client.chat.update({
          channel,
          ts,
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks } : {}),
        });
      }),
    async findCard(channel, mark) {
      try {
        let cursor: string | undefined;
        for (let page = 0; page < HISTORY_PAGES; page++) {
          const res = await client.conversations.history({
            channel,
            limit: HISTORY_PAGE,
            include_all_metadata: true,
            ...(cursor ? { cursor } : {}),
          });
          const hit = (res.messages ?? []).find((m) => hasMark(m, WATCH_CARD_EVENT, mark));
          if (hit?.ts) return { found: true, ts: hit.ts };
          cursor = res.response_metadata?.next_cursor || undefined;
          if (!res.has_more || !cursor) return { found: false };
        }
        return { found: false };
      } catch (err) {
        return { found: 'unknown', error: slackError(err) ?? 'unreachable' };
      }
    },
    async findReply(channel, threadTs, mark) {
      try {
        let cursor: string | undefined;
        for (let page = 0; page < HISTORY_PAGES; page++) {
          const res = await client.conversations.replies({
            channel,
            ts: threadTs,
            limit: HISTORY_PAGE,
            include_all_metadata: true,
            ...(cursor ? { cursor } : {}),
          });
          const hit = (res.messages ?? []).find((m) => hasMark(m, WATCH_FIX_EVENT, mark));
          if (hit?.ts) return { found: true, ts: hit.ts };
          cursor = res.response_metadata?.next_cursor || undefined;
          if (!res.has_more || !cursor) return { found: false };
        }
        return { found: false };
      } catch (err) {
        return { found: 'unknown', error: slackError(err) ?? 'unreachable' };
      }
    },
    openDm: (userId) => openDmWith(client, userId),
  };
}
