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

export function statusBadge(status: string): string {
  return `${statusEmoji(status)} ${status}`;
}

export const FINISHED = new Set(['success', 'failed', 'canceled']);
export const CANCELABLE = new Set(['created', 'pending', 'running']);

/** Past tense of what a button did, for the "Retried by @name" line under a redrawn card. */
export const DONE_BY: Record<string, string> = {
  retry: 'Retried',
  cancel: 'Canceled',
  play: 'Started',
  erase: 'Erased',
  keep: 'Artifacts kept',
  take: 'Ownership taken',
  activate: 'Activated',
  deactivate: 'Deactivated',
  delete: 'Deleted',
  run: 'Started',
  create: 'Created',
  edit: 'Updated',
};

export function shortSha(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 8) : '—';
}
