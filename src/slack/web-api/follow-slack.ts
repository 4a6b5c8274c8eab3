import type { WebClient } from '@slack/web-api';
import { SlackRefusedError } from '../../delivery/slack.js';
import { FOLLOW_EVENT_TYPE, type FollowSlack } from '../../follow/slack.js';
import { createDeliverySlack } from './delivery-slack.js';
import { respondTo } from './respond.js';

// Following's side of Slack with Bolt's Web API client: shared cards posted and redrawn, ephemeral ones redrawn
// through their response_url, and the final DM carrying its mark so that a DM sent just before a kill is found.

/** A DM's final message is looked for among its latest messages (one page). */
const DONE_PAGES = 1;

export function createFollowSlack(client: WebClient): FollowSlack {
  const slack = createDeliverySlack(client);
  return {
    post: (channel, message, mark) =>
      slack.post(channel, message, mark ? { mark: { event: FOLLOW_EVENT_TYPE, payload: { ...mark } } } : {}),
    update: slack.update,
    async replace(responseUrl, message) {
      const respond = respondTo(responseUrl);
      if (!respond) throw new SlackRefusedError('invalid_response_url');
      await respond({
        replace_original: true,
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
      });
    },
    openDm: slack.openDm,
    async findDone(channel, mark) {
      const found = await slack.findMarked(
        channel,
        { event: FOLLOW_EVENT_TYPE, payload: { ...mark } },
        { pages: DONE_PAGES },
      );
      return found.found === 'unknown' && found.error === 'history_too_long' ? { found: false } : found;
    },
  };
}
