import type { FoundPost } from '../delivery/slack.js';
import type { SlackMessage } from '../views/blocks.js';

// What watches need from Slack, without Slack: slack/web-api/watch-slack.ts implements it with Bolt's Web API client.
// Slack's 429s are waited out and retried by that client; refusals come as delivery/slack.ts's SlackRefusedError.

/** The metadata of a watch's card, so that a post cut off by a kill is found in the channel's history. */
export const WATCH_CARD_EVENT = 'gl_watch_card';
/** The metadata of the reply that says a failure was fixed, found in the card's thread. */
export const WATCH_FIX_EVENT = 'gl_watch_fix';

export interface CardMark {
  watch: number;
  card: string;
}

export interface WatchSlack {
  /**
   * Posts a watch's card (or, with `threadTs`, the fix reply in its thread) with its mark as metadata; without
   * `o`, a notice.
   */
  post(
    channel: string,
    message: SlackMessage,
    o?: { mark: CardMark; event: typeof WATCH_CARD_EVENT | typeof WATCH_FIX_EVENT; threadTs?: string },
  ): Promise<{ ts: string }>;
  /** Redraws a posted card. */
  update(channel: string, ts: string, message: SlackMessage): Promise<void>;
  /** Looks for a card's post among the channel's latest messages. */
  findCard(channel: string, mark: CardMark): Promise<FoundPost>;
  /** Looks for the fix reply in a card's thread. */
  findReply(channel: string, threadTs: string, mark: CardMark): Promise<FoundPost>;
  /** The DM channel between the bot and a person. */
  openDm(userId: string): Promise<string>;
}
