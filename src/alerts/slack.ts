import type { PostMark } from '../delivery/slack.js';

// What marks an alert DM, so that a delivery killed after posting is found in the DM's history by the kernel's one
// search (delivery/steps.ts). Alerts post through the kernel's Slack port (delivery/slack.ts).

/** The metadata event type an alert DM carries. */
export const ALERT_EVENT_TYPE = 'gl_todo_alert';

/** The mark of one delivery: the person alerted (`team:user`) and its run key. */
export const alertMark = (person: string, run: string): PostMark => ({
  event: ALERT_EVENT_TYPE,
  payload: { person, run },
});
