import type { WebClient } from '@slack/web-api';
import { DIGEST_EVENT_TYPE, type DigestSlack, type RunMark } from '../digest/slack.js';
import { createTtlCache } from '../ttl-cache.js';
import { openDmWith, postMarked, slackError } from './marked-posts.js';

// Digests' side of Slack with Bolt's Web API client: posts carrying the run's metadata, the history search that
// settles a run killed after posting, DMs and the admin check. The client waits out Slack's 429s and retries.

const HISTORY_PAGE = 200;
/** Without a previous post to stop at, a run's post is looked for among this many of the latest messages. */
const HISTORY_PAGES = 5;

const isMark = (m: unknown, mark: RunMark): boolean => {
  const meta = (m as { metadata?: { event_type?: unknown; event_payload?: Record<string, unknown> } }).metadata;
  return (
    meta?.event_type === DIGEST_EVENT_TYPE &&
    meta.event_payload?.run === mark.run &&
    Number(meta.event_payload?.digest) === mark.digest
  );
};

export function createDigestSlack(client: WebClient): DigestSlack {
  const admins = createTtlCache<boolean>({ ttlMs: 10 * 60 * 1000, maxEntries: 5000 });
  return {
    post: (channel, message, mark) =>
      postMarked(client, channel, message, { mark: mark && { eventType: DIGEST_EVENT_TYPE, payload: { ...mark } } }),
    async findRun(channel, mark, afterTs) {
      try {
        let cursor: string | undefined;
        for (let page = 0; page < HISTORY_PAGES || afterTs !== null; page++) {
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
          if (page > 50) break;
        }
        return { found: 'unknown', error: 'history_too_long' };
      } catch (err) {
        return { found: 'unknown', error: slackError(err) ?? 'unreachable' };
      }
    },
    openDm: (userId) => openDmWith(client, userId),
    async postEphemeral(channel, userId, message) {
      await client.chat.postEphemeral({
        channel,
        user: userId,
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
      });
    },
    async isAdmin(userId) {
      const hit = admins.get(userId, Date.now());
      if (hit !== undefined) return hit;
      const res = await client.users.info({ user: userId });
      const admin = res.user?.is_admin === true || res.user?.is_owner === true;
      admins.set(userId, admin, Date.now());
      return admin;
    },
  };
}
