// Request bodies shaped like the ones Slack sends: slash commands (form fields),
// block actions and view submissions (a `payload` form field holding JSON).

export interface SlackPerson {
  id: string;
  name: string;
}

export const TEAM = { id: 'T0TEST', domain: 'test-team' };
export const APP_ID = 'A0APP';

/** How Slack escapes the text of a slash command before sending it. */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function slashCommandBody(o: {
  user: SlackPerson;
  command: string;
  text: string;
  channel: string;
  responseUrl: string;
  triggerId: string;
  escape?: boolean;
}): string {
  return new URLSearchParams({
    token: 'verification-token-unused',
    team_id: TEAM.id,
    team_domain: TEAM.domain,
    channel_id: o.channel,
    channel_name: `chan-${o.channel.toLowerCase()}`,
    user_id: o.user.id,
    user_name: o.user.name,
    command: o.command,
    text: o.escape === false ? o.text : slackEscape(o.text),
    api_app_id: APP_ID,
    is_enterprise_install: 'false',
    response_url: o.responseUrl,
    trigger_id: o.triggerId,
  }).toString();
}

export interface ClickedButton {
  action_id: string;
  block_id?: string;
  value?: string;
  text: string;
}

export function blockActionsBody(o: {
  user: SlackPerson;
  channel: string;
  messageTs: string;
  ephemeral: boolean;
  message?: { text: string; blocks?: unknown[] };
  button: ClickedButton;
  responseUrl: string;
  triggerId: string;
  /** A message a Workflow Builder step posted with its workflow token: the click carries the step's context. */
  functionContext?: { executionId: string; callbackId: string; inputs: Record<string, unknown>; token: string };
}): string {
  const payload: Record<string, unknown> = {
    type: 'block_actions',
    user: { id: o.user.id, username: o.user.name, name: o.user.name, team_id: TEAM.id },
    api_app_id: APP_ID,
    token: 'verification-token-unused',
    container: { type: 'message', message_ts: o.messageTs, channel_id: o.channel, is_ephemeral: o.ephemeral },
    trigger_id: o.triggerId,
    team: TEAM,
    channel: { id: o.channel, name: `chan-${o.channel.toLowerCase()}` },
    state: { values: {} },
    response_url: o.responseUrl,
    actions: [
      {
        action_id: o.button.action_id,
        block_id: o.button.block_id ?? 'b1',
        text: { type: 'plain_text', text: o.button.text, emoji: true },
        value: o.button.value,
        type: 'button',
        action_ts: `${(Date.now() / 1000).toFixed(6)}`,
      },
    ],
  };
  if (!o.ephemeral && o.message) {
    payload.message = { type: 'message', ts: o.messageTs, text: o.message.text, blocks: o.message.blocks };
  }
  if (o.functionContext) {
    const f = o.functionContext;
    payload.function_data = { execution_id: f.executionId, function: { callback_id: f.callbackId }, inputs: f.inputs };
    payload.bot_access_token = f.token;
  }
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/**
 * A click of a button on a view that is not a message (the Home tab): Slack then sends the view instead of a
 * message and a channel, and no response_url.
 */
export function viewActionsBody(o: {
  user: SlackPerson;
  view: Record<string, unknown>;
  button: ClickedButton;
  triggerId: string;
}): string {
  const viewId = String(o.view.id ?? '');
  const payload = {
    type: 'block_actions',
    user: { id: o.user.id, username: o.user.name, name: o.user.name, team_id: TEAM.id },
    api_app_id: APP_ID,
    token: 'verification-token-unused',
    container: { type: 'view', view_id: viewId },
    trigger_id: o.triggerId,
    team: TEAM,
    view: { ...o.view, id: viewId, team_id: TEAM.id, state: { values: {} }, hash: `${viewId}.hash` },
    actions: [
      {
        action_id: o.button.action_id,
        block_id: o.button.block_id ?? 'b1',
        text: { type: 'plain_text', text: o.button.text, emoji: true },
        value: o.button.value,
        type: 'button',
        action_ts: `${(Date.now() / 1000).toFixed(6)}`,
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export function viewSubmissionBody(o: {
  user: SlackPerson;
  view: Record<string, unknown>;
  values: Record<string, Record<string, unknown>>;
  triggerId: string;
}): string {
  const payload = {
    type: 'view_submission',
    team: TEAM,
    user: { id: o.user.id, username: o.user.name, name: o.user.name, team_id: TEAM.id },
    api_app_id: APP_ID,
    token: 'verification-token-unused',
    trigger_id: o.triggerId,
    view: { ...o.view, state: { values: o.values } },
    response_urls: [],
    is_enterprise_install: false,
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/**
 * A message shortcut used on a message (type `message_action`): the whole message as Slack shows it, its channel,
 * a trigger_id for the form and a response_url for private answers.
 */
export function messageShortcutBody(o: {
  user: SlackPerson;
  callbackId: string;
  channel: string;
  message: Record<string, unknown> & { ts: string };
  responseUrl: string;
  triggerId: string;
}): string {
  const payload = {
    type: 'message_action',
    token: 'verification-token-unused',
    action_ts: `${(Date.now() / 1000).toFixed(6)}`,
    team: TEAM,
    user: { id: o.user.id, username: o.user.name, name: o.user.name, team_id: TEAM.id },
    channel: { id: o.channel, name: `chan-${o.channel.toLowerCase()}` },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: o.callbackId,
    trigger_id: o.triggerId,
    response_url: o.responseUrl,
    message_ts: o.message.ts,
    message: o.message,
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

let eventCount = 0;

/** A Workflow Builder step reached in a workflow: the function_executed Slack sends the app that declared it. */
export function functionExecutedEvent(o: {
  callbackId: string;
  title: string;
  inputs: Record<string, unknown>;
  executionId: string;
  workflowExecutionId: string;
  token: string;
}): Record<string, unknown> {
  return {
    type: 'function_executed',
    function: {
      id: `Fn${o.callbackId.toUpperCase().replace(/[^A-Z0-9]/g, '')}`,
      callback_id: o.callbackId,
      title: o.title,
      type: 'app',
      input_parameters: [],
      output_parameters: [],
      app_id: APP_ID,
      date_created: 1_700_000_000,
      date_updated: 1_700_000_000,
      date_deleted: 0,
    },
    inputs: o.inputs,
    function_execution_id: o.executionId,
    workflow_execution_id: o.workflowExecutionId,
    event_ts: `${(Date.now() / 1000).toFixed(6)}`,
    bot_access_token: o.token,
  };
}

/** An Events API callback, as Slack posts it to the request URL; each has its own event_id, as Slack's do. */
export function eventCallbackBody(event: Record<string, unknown>): string {
  eventCount += 1;
  return JSON.stringify({
    token: 'verification-token-unused',
    team_id: TEAM.id,
    api_app_id: APP_ID,
    event,
    type: 'event_callback',
    event_id: `Ev${Date.now()}${String(eventCount).padStart(6, '0')}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: TEAM.id, user_id: 'U0BOT', is_bot: true }],
  });
}
