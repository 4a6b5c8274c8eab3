import type { WebClient } from '@slack/web-api';
import type { DigestSlack } from '../../digest/slack.js';
import { createTtlCache } from '../../ttl-cache.js';
import { plainText } from '../../views/mrkdwn.js';
import { createDeliverySlack } from './delivery-slack.js';

// Digests' side of Slack with Bolt's Web API client: the kernel's posts and search (delivery-slack.ts), a
// command's private answer, the admin check, and images hosted for a post to show.

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
    async hostImage(image) {
      // No channel_id: the file is uploaded, not shared; the post that shows it is the kernel's, made once.
      const res = await client.filesUploadV2({
        file: image.png,
        filename: image.filename,
        // A title is plain text, but it may become notification text: it must not notify anyone.
        title: plainText(image.title),
        alt_text: image.altText.slice(0, 1000),
      });
      const fileId = res.files.flatMap((f) => f.files ?? [])[0]?.id;
      if (!fileId) throw new Error('Slack did not say which file it hosted');
      return { fileId };
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
