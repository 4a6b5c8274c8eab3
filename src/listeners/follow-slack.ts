import type { WebClient } from '@slack/web-api';
import { SlackRefusedError } from '../digest/slack.js';
import { type DoneMark, FOLLOW_EVENT_TYPE, type FollowSlack } from '../follow/slack.js';
import { openDmWith, postMarked, refusing, slackError } from './marked-posts.js';
import { respondTo } from './respond.js';

// Following's side of Slack with Bolt's Web API client: shared cards posted and redrawn, ephemeral ones redrawn
// through their response_url, and the final DM carrying its mark so that a DM sent just before a kill is found.

/** A DM's final message is looked for among this many of its latest messages. */
const HISTORY_LIMIT = 200;

const isMark = (m: unknown, mark: DoneMark): boolean => {
  const meta = (m as { metadata?: { event_type?: unknown; event_payload?: Record<string, unknown> } }).metadata;
  return (
    meta?.event_type === FOLLOW_EVENT_TYPE &&
    meta.event_payload?.key === mark.key &&
    Number(meta.event_payload?.follow) === mark.follow
  );
};

export function createFollowSlack(client: WebClient): FollowSlack {
  return {
    post: (channel, message, mark) =>
      postMarked(client, channel, message, { mark: mark && { eventType: FOLLOW_EVENT_TYPE, payload: { ...mark } } }),
    update: (channel, ts, message) =>
      refusing(async () => {
        await client.chat.update({
          channel,
          ts,
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks } : {}),
        });
      }),
    async replace(responseUrl, message) {
      const respond = respondTo(responseUrl);
      if (!respond) throw new SlackRefusedError('invalid_response_url');
      await respond({
        replace_original: true,
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
      });
    },
    openDm: (userId) => openDmWith(client, userId),
    async findDone(channel, mark) {
      try {
        const res = await client.conversations.history({ channel, limit: HISTORY_LIMIT, include_all_metadata: true });
        const hit = (res.messages ?? []).find((m) => isMark(m, mark));
        return hit?.ts ? { found: true, ts: hit.ts } : { found: false };
      } catch (err) {
        return { found: 'unknown', error: slackError(err) ?? 'unreachable' };
      }
    },
  };
}
