import type { SlackMessage } from '../views/blocks.js';

// What scheduled delivery needs from Slack, without Slack: slack/web-api/delivery-slack.ts implements it with Bolt's Web
// API client (only slack/ and app.ts import Bolt), which waits out Slack's 429s and retries, never drops a post.
// Every post the kernel makes once carries a mark (message metadata), and one search finds a marked post that was
// made but not committed (a kill, a lost answer), for every kind.

/** Slack refused a post for a reason that will not pass by itself (`not_in_channel`, `channel_not_found`…). */
export class SlackRefusedError extends Error {
  constructor(readonly error: string) {
    super(`Slack refused: ${error}`);
    this.name = 'SlackRefusedError';
  }
}

/** Errors that mean a kind cannot post where it is meant to until a person changes something. */
export const CHANNEL_ERRORS = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
  'team_access_not_granted',
  'ekm_access_denied',
]);

/** A post's mark: the metadata's event type (one per kind of post) and the fields that name the delivery. */
export interface PostMark {
  event: string;
  payload: Record<string, string | number>;
}

export type FoundPost = { found: true; ts: string } | { found: false } | { found: 'unknown'; error: string };

/** Where a marked post is looked for. */
export interface SearchScope {
  /** Only messages after this ts (the kind's previous post there): older history cannot hold a later post. */
  afterTs?: string | null;
  /** In this thread's replies instead of the channel's history. */
  threadTs?: string;
  /** Pages of 200 read at most when there is no `afterTs` (default 5). */
  pages?: number;
}

export interface DeliverySlack {
  /** Posts (in a thread with `threadTs`) with the mark as message metadata; resolves with the message's ts. */
  post(channel: string, message: SlackMessage, o?: { mark?: PostMark; threadTs?: string }): Promise<{ ts: string }>;
  /** Redraws a posted message in place. */
  update(channel: string, ts: string, message: SlackMessage): Promise<void>;
  /** The one search for a marked post: every field of `mark.payload` must match. */
  findMarked(channel: string, mark: PostMark, scope?: SearchScope): Promise<FoundPost>;
  /** The DM channel between the bot and a person. */
  openDm(userId: string): Promise<string>;
}

/** Whether a message (as Slack's history returns it) carries `mark`; numbers and their text are the same. */
export function carriesMark(message: unknown, mark: PostMark): boolean {
  const meta = (message as { metadata?: { event_type?: unknown; event_payload?: Record<string, unknown> } }).metadata;
  if (meta?.event_type !== mark.event) return false;
  const payload = meta.event_payload ?? {};
  return Object.entries(mark.payload).every(([k, v]) => String(payload[k]) === String(v));
}
