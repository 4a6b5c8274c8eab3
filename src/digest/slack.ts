import type { DeliverySlack } from '../delivery/slack.js';
import type { SlackMessage } from '../views/blocks.js';

// What digests need from Slack besides the kernel's posts: a command's private answer, the admin check, and an
// image hosted by Slack for a digest post to show (the weekly insights' chart).
// slack/web-api/digest-slack.ts implements it with Bolt's Web API client.

/** The metadata a digest post carries, so that a run killed after posting is found in the channel's history. */
export const DIGEST_EVENT_TYPE = 'gl_digest_run';

/** An image for a post to show: uploaded into no channel, it is seen only where a message's image block shows it. */
export interface HostedImage {
  filename: string;
  title: string;
  png: Buffer;
  altText: string;
}

export interface DigestSlack extends DeliverySlack {
  /** Uploads an image without sharing it anywhere (Slack's external upload); its file id, for a `slack_file` block. */
  hostImage(image: HostedImage): Promise<{ fileId: string }>;
  /** A message only one person in the channel sees. */
  postEphemeral(channel: string, userId: string, message: SlackMessage): Promise<void>;
  /** Whether the person is an admin or owner of the Slack workspace. */
  isAdmin(userId: string): Promise<boolean>;
}
