import { type Md, md } from './mrkdwn.js';

// How a CI status reads at a glance.

const EMOJI: Record<string, string> = {
  created: ':white_circle:',
  pending: ':large_yellow_circle:',
  running: ':large_blue_circle:',
  success: ':white_check_mark:',
  failed: ':x:',
  canceled: ':no_entry_sign:',
  skipped: ':fast_forward:',
  manual: ':gear:',
};

export function statusEmoji(status: string): string {
  return EMOJI[status] ?? ':grey_question:';
}

/** The emoji and the status word; the word came from the server, so it is escaped. */
export function statusBadge(status: string): Md {
  return md`${statusEmoji(status)} ${status}`;
}

export const FINISHED = new Set(['success', 'failed', 'canceled']);
export const CANCELABLE = new Set(['created', 'pending', 'running']);

export function shortSha(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 8) : '—';
}
