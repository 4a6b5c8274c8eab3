import type { WebClient } from '@slack/web-api';
import { ALERT_EVENT_TYPE, type AlertMark, type AlertSlack } from '../alerts/slack.js';
import { openDmWith, postMarked, slackError } from './marked-posts.js';

// Alerts' side of Slack with Bolt's Web API client: DMs carrying the delivery's metadata, and the history search
// that settles a delivery killed after posting. The client waits out Slack's 429s and retries.

const HISTORY_PAGE = 200;
const HISTORY_PAGES = 5;

const isMark = (m: unknown, mark: AlertMark): boolean => {
  const meta = (m as { metadata?: { event_type?: unknown; event_payload?: Record<string, unknown> } }).metadata;
  return (
    meta?.event_type === ALERT_EVENT_TYPE &&
    meta.event_payload?.run === mark.run &&
    meta.event_payload?.person === mark.person
  );
};

export function createAlertSlack(client: WebClient): AlertSlack {
  return {
    post: (channel, message, mark) =>
      postMarked(client, channel, message, { mark: mark && { eventType: ALERT_EVENT_TYPE, payload: { ...mark } } }),
    async findDelivery(channel, mark, afterTs) {
      try {
        let cursor: string | undefined;
        for (let page = 0; page < HISTORY_PAGES; page++) {
          const res = await client.conversations.history({
            channel,
            limit: HISTORY_PAGE,
            include_all_metadata: true,
            ...(afterTs ? { oldest: afterTs } : {}),
            ...(cursor ? { cursor } : {}),
          });
          const hit = (res.messages ?? []).find((m) => isMark(m, mark));
          if (hit?.ts) return { found: true, ts: hit.ts };
          cursor = res.response_metadata?.next_cursor || undefined;
          if (!res.has_more || !cursor) return { found: false };
        }
        return { found: 'unknown', error: 'history_too_long' };
      } catch (err) {
        return { found: 'unknown', error: slackError(err) ?? 'unreachable' };
      }
    },
    openDm: (userId) => openDmWith(client, userId),
  };
}
