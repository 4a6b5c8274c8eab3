import type { FoundPost } from '../delivery/slack.js';
import type { SlackMessage } from '../views/blocks.js';

// What alerts need from Slack, without Slack: slack/web-api/alert-slack.ts implements it with Bolt's Web API client,
// which waits out Slack's 429s and retries (never drops a post).

/** The metadata an alert DM carries, so that a delivery killed after posting is found in the DM's history. */
export const ALERT_EVENT_TYPE = 'gl_todo_alert';

export interface AlertMark {
  /** `team:user` of the person alerted. */
  person: string;
  run: string;
}

export type FoundAlert = FoundPost;

export interface AlertSlack {
  /** Posts in a DM with the delivery's mark as message metadata; resolves with the message's ts. */
  post(channel: string, message: SlackMessage, mark?: AlertMark): Promise<{ ts: string }>;
  /** Looks for a delivery's post among the DM's messages after `afterTs` (the previous delivery) or the latest. */
  findDelivery(channel: string, mark: AlertMark, afterTs: string | null): Promise<FoundAlert>;
  /** The DM channel between the bot and a person. */
  openDm(userId: string): Promise<string>;
}
