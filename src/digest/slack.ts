import type { SlackMessage } from '../views/blocks.js';

// What digests need from Slack, without Slack: listeners/digest-slack.ts implements it with Bolt's Web API
// client (only listeners/ and app.ts import Bolt). Slack's own rate-limit answers are waited out and retried by
// that client, never dropped.

/** The metadata a digest post carries, so that a run killed after posting is found in the channel's history. */
export const DIGEST_EVENT_TYPE = 'gl_digest_run';

export interface RunMark {
  digest: number;
  run: string;
}

/** Slack refused a post for a reason that will not pass by itself (`not_in_channel`, `channel_not_found`…). */
export class SlackRefusedError extends Error {
  constructor(readonly error: string) {
    super(`Slack refused: ${error}`);
    this.name = 'SlackRefusedError';
  }
}

/** Errors that mean the digest cannot post where it is meant to until a person changes something. */
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

export type FoundRun = { found: true; ts: string } | { found: false } | { found: 'unknown'; error: string };

export interface DigestSlack {
  /** Posts in a channel, with the run's mark as message metadata; resolves with the message's ts. */
  post(channel: string, message: SlackMessage, mark?: RunMark): Promise<{ ts: string }>;
  /**
   * Looks for a run's post in the channel's history, among the messages after `afterTs` (the digest's previous
   * post) or, without one, among the latest few hundred.
   */
  findRun(channel: string, mark: RunMark, afterTs: string | null): Promise<FoundRun>;
  /** The DM channel between the bot and a person. */
  openDm(userId: string): Promise<string>;
  /** A message only one person in the channel sees. */
  postEphemeral(channel: string, userId: string, message: SlackMessage): Promise<void>;
  /** Whether the person is an admin or owner of the Slack workspace. */
  isAdmin(userId: string): Promise<boolean>;
}
