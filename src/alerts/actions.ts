// The todo actions alerts can be about (COMMANDS.md), all five by default.
export const ALERT_ACTIONS = ['assigned', 'mentioned', 'build_failed', 'marked', 'approval_required'] as const;
export type AlertAction = (typeof ALERT_ACTIONS)[number];
