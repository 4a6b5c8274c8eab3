import type { FoundPost } from '../delivery/slack.js';
import type { SlackMessage } from '../views/blocks.js';

// What following needs from Slack, without Slack: slack/web-api/follow-slack.ts implements it with Bolt's Web API
// client and the response_url poster commands answer with. Slack's 429s are waited out by that client.

/** The metadata a follow's final DM carries, so that a DM posted just before a kill is found, not sent again. */
export const FOLLOW_EVENT_TYPE = 'gl_follow_done';

export interface DoneMark {
  follow: number;
  key: string;
}

export interface FollowSlack {
  /** Posts a shared card in a channel; resolves with its ts. Throws SlackRefusedError when Slack says no. */
  post(channel: string, message: SlackMessage, mark?: DoneMark): Promise<{ ts: string }>;
  /** Redraws a shared card in place. */
  update(channel: string, ts: string, message: SlackMessage): Promise<void>;
  /** Redraws an ephemeral card through its response_url (one of its five uses). */
  replace(responseUrl: string, message: SlackMessage): Promise<void>;
  /** The DM channel between the bot and a person. */
  openDm(userId: string): Promise<string>;
  /** Looks for a final DM among the latest messages of a DM. */
  findDone(channel: string, mark: DoneMark): Promise<FoundPost>;
}
