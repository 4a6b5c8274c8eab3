import type { WebClient } from '@slack/web-api';
import { ALERT_EVENT_TYPE, type AlertSlack } from '../../alerts/slack.js';
import { createDeliverySlack } from './delivery-slack.js';

// Alerts' side of Slack: DMs carrying the delivery's mark, found again by the kernel's one search.

export function createAlertSlack(client: WebClient): AlertSlack {
  const slack = createDeliverySlack(client);
  return {
    post: (channel, message, mark) =>
      slack.post(channel, message, mark ? { mark: { event: ALERT_EVENT_TYPE, payload: { ...mark } } } : {}),
    findDelivery: (channel, mark, afterTs) =>
      slack.findMarked(channel, { event: ALERT_EVENT_TYPE, payload: { ...mark } }, { afterTs }),
    openDm: slack.openDm,
  };
}
