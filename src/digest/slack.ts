import type { DeliverySlack } from '../delivery/slack.js';
import type { SlackMessage } from '../views/blocks.js';

// What digests need from Slack besides the kernel's posts: a command's private answer and the admin check.
// slack/web-api/digest-slack.ts implements it with Bolt's Web API client.

/** The metadata a digest post carries, so that a run killed after posting is found in the channel's history. */
export const DIGEST_EVENT_TYPE = 'gl_digest_run';

export interface DigestSlack extends DeliverySlack {
  /** A message only one person in the channel sees. */
  postEphemeral(channel: string, userId: string, message: SlackMessage): Promise<void>;
  /** Whether the person is an admin or owner of the Slack workspace. */
  isAdmin(userId: string): Promise<boolean>;
}
