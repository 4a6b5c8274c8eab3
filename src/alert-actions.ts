// The todo actions alerts can be about (COMMANDS.md), all five by default: named by the store, the views and the
// nouns alike, so they live at the bottom, importing nothing.
export const ALERT_ACTIONS = ['assigned', 'mentioned', 'build_failed', 'marked', 'approval_required'] as const;
export type AlertAction = (typeof ALERT_ACTIONS)[number];
