import type { WebClient } from '@slack/web-api';
import { carriesMark, type DeliverySlack } from '../../delivery/slack.js';
import { slackErrorCode } from '../../slack-errors.js';
import { openDmWith, postMarked, refusing } from './marked-posts.js';

// The delivery kernel's side of Slack with Bolt's Web API client: marked posts, redraws, DMs, and the one search
// through a channel's history (or a thread's replies) for a post made but not committed. The client waits out
// Slack's 429s and retries.

const HISTORY_PAGE = 200;
/** Without a previous post to stop at, a post is looked for among this many pages of the latest messages. */
const HISTORY_PAGES = 5;
/** Even with a previous post to stop at, a search gives up after this many pages (and says it could not tell). */
const MAX_PAGES = 50;

export function createDeliverySlack(client: WebClient): DeliverySlack {
  return {
    post: (channel, message, o = {}) =>
      postMarked(client, channel, message, {
        mark: o.mark && { eventType: o.mark.event, payload: o.mark.payload },
        threadTs: o.threadTs,
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
    async findMarked(channel, mark, scope = {}) {
      const afterTs = scope.afterTs ?? null;
      const pages = afterTs ? MAX_PAGES : (scope.pages ?? HISTORY_PAGES);
      try {
        let cursor: string | undefined;
        for (let page = 0; page < pages; page++) {
          const common = { channel, limit: HISTORY_PAGE, include_all_metadata: true, ...(cursor ? { cursor } : {}) };
          const res = scope.threadTs
            ? await client.conversations.replies({ ...common, ts: scope.threadTs })
            : await client.conversations.history({ ...common, ...(afterTs ? { oldest: afterTs } : {}) });
          const hit = (res.messages ?? []).find((m) => carriesMark(m, mark));
          if (hit?.ts) return { found: true, ts: hit.ts };
          cursor = res.response_metadata?.next_cursor || undefined;
          if (!res.has_more || !cursor) return { found: false };
        }
        return { found: 'unknown', error: 'history_too_long' };
      } catch (err) {
        return { found: 'unknown', error: slackErrorCode(err) ?? 'unreachable' };
      }
    },
    openDm: (userId) => openDmWith(client, userId),
  };
}
