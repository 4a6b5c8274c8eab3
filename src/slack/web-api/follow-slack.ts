import type { WebClient } from '@slack/web-api';
import { SlackRefusedError } from '../../delivery/slack.js';
import type { FollowSlack } from '../../follow/slack.js';
import { createDeliverySlack } from './delivery-slack.js';
import { respondTo } from './respond.js';

// Following's side of Slack with Bolt's Web API client: the kernel's port (shared cards posted and redrawn, the final
// DM carrying its mark, the one search), and ephemeral cards redrawn through their response_url.

export function createFollowSlack(client: WebClient): FollowSlack {
  return {
    ...createDeliverySlack(client),
    async replace(responseUrl, message) {
      const respond = respondTo(responseUrl);
      if (!respond) throw new SlackRefusedError('invalid_response_url');
      await respond({
        replace_original: true,
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
      });
    },
  };
}
