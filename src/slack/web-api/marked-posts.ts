import type { WebClient } from '@slack/web-api';
import { SlackRefusedError } from '../../delivery/slack.js';
import { slackErrorCode } from '../../slack-errors.js';
import type { SlackMessage } from '../../views/blocks.js';

// What the bot posts on its own (digests, alerts, watches, follows) goes through here: a Slack refusal (ok: false)
// becomes a SlackRefusedError the services decide on, and a post carries the metadata that lets a delivery cut off
// by a kill be found again in the history. Network errors and timeouts stay as they are (the client retries them).

/** Runs one Web API call; a refusal comes out as a SlackRefusedError. */
export async function refusing<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const code = slackErrorCode(err);
    if (code) throw new SlackRefusedError(code);
    throw err;
  }
}

/** The bot's DM with a person (opened if need be); a refusal comes out as a SlackRefusedError. */
export function openDmWith(client: WebClient, userId: string): Promise<string> {
  return refusing(async () => {
    const res = await client.conversations.open({ users: userId });
    if (!res.channel?.id) throw new SlackRefusedError('channel_not_found');
    return res.channel.id;
  });
}

export interface PostMark {
  /** The metadata's event type, e.g. `gl_digest_run`. */
  eventType: string;
  payload: Record<string, string | number>;
}

/** Posts a message of the bot's own, without link previews, carrying its mark; answers with its ts. */
export function postMarked(
  client: WebClient,
  channel: string,
  message: SlackMessage,
  o: { mark?: PostMark | undefined; threadTs?: string | undefined } = {},
): Promise<{ ts: string }> {
  return refusing(async () => {
    const res = await client.chat.postMessage({
      channel,
      text: message.text,
      ...(message.blocks ? { blocks: message.blocks } : {}),
      ...(o.mark ? { metadata: { event_type: o.mark.eventType, event_payload: { ...o.mark.payload } } } : {}),
      ...(o.threadTs ? { thread_ts: o.threadTs } : {}),
      unfurl_links: false,
      unfurl_media: false,
    });
    if (!res.ts) throw new Error('chat.postMessage answered without a ts');
    return { ts: res.ts };
  });
}
