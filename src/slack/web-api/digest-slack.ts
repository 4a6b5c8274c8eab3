import type { WebClient } from '@slack/web-api';
import type { DigestSlack } from '../../digest/slack.js';
import { createTtlCache } from '../../ttl-cache.js';
import { createDeliverySlack } from './delivery-slack.js';

// Digests' side of Slack with Bolt's Web API client: the kernel's posts and search (delivery-slack.ts), a
// command's private answer and the admin check.

export function createDigestSlack(client: WebClient): DigestSlack {
  const admins = createTtlCache<boolean>({ ttlMs: 10 * 60 * 1000, maxEntries: 5000 });
  return {
    ...createDeliverySlack(client),
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
