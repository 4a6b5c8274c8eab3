import type { DeliverySlack, PostMark } from '../delivery/slack.js';
import type { SlackMessage } from '../views/blocks.js';

// What following needs from Slack, without Slack: the kernel's Slack port (delivery/slack.ts: shared cards posted
// and redrawn, the final DM with its mark, the one search), and the redraw of an ephemeral card through its
// response_url, which slack/web-api/follow-slack.ts adds with the poster commands answer with.

/** The metadata a follow's final DM carries, so that a DM posted just before a kill is found, not sent again. */
export const FOLLOW_EVENT_TYPE = 'gl_follow_done';

/** The mark of a follow's final DM: the follow and the key of its intent. */
export const doneMark = (follow: number, key: string): PostMark => ({
  event: FOLLOW_EVENT_TYPE,
  payload: { follow, key },
});

export interface FollowSlack extends DeliverySlack {
  /** Redraws an ephemeral card through its response_url (one of its five uses). */
  replace(responseUrl: string, message: SlackMessage): Promise<void>;
}
