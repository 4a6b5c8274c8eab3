import type { WebClient } from '@slack/web-api';
import { SlackRefusedError } from '../digest/slack.js';
import { type DoneMark, FOLLOW_EVENT_TYPE, type FollowSlack } from '../follow/slack.js';
import { respondTo } from './respond.js';

// Following's side of Slack with Bolt's Web API client: shared cards posted and redrawn, ephemeral ones redrawn
// through their response_url, and the final DM carrying its mark so that a DM sent just before a kill is found.

/** A DM's final message is looked for among this many of its latest messages. */
const HISTORY_LIMIT = 200;

function slackError(err: unknown): string | null {
  const e = err as { code?: unknown; data?: { error?: unknown } };
  return e.code === 'slack_webapi_platform_error' && typeof e.data?.error === 'string' ? e.data.error : null;
}

const isMark = (m: unknown, mark: DoneMark): boolean => {
  const meta = (m as { metadata?: { event_type?: unknown; event_payload?: Record<string, unknown> } }).metadata;
  return (
    meta?.event_type === FOLLOW_EVENT_TYPE &&
    meta.event_payload?.key === mark.key &&
    Number(meta.event_payload?.follow) === mark.follow
  );
};

async function refusing<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const code = slackError(err);
    if (code) throw new SlackRefusedError(code);
    throw err;
  }
}

export function createFollowSlack(client: WebClient): FollowSlack {
  return {
    post: (channel, message, mark) =>
      refusing(async () => {
        const res = await client.chat.postMessage({
          channel,
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks } : {}),
          ...(mark ? { metadata: { event_type: FOLLOW_EVENT_TYPE, event_payload: { ...mark } } } : {}),
          unfurl_links: false,
          unfurl_media: false,
        });
        if (!res.ts) throw new Error('chat.postMessage answered without a ts');
        return { ts: res.ts };
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
    async replace(responseUrl, message) {
      const respond = respondTo(responseUrl);
      if (!respond) throw new SlackRefusedError('invalid_response_url');
      await respond({
        replace_original: true,
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
      });
    },
    openDm: (userId) =>
      refusing(async () => {
        const res = await client.conversations.open({ users: userId });
        if (!res.channel?.id) throw new SlackRefusedError('channel_not_found');
        return res.channel.id;
      }),
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
