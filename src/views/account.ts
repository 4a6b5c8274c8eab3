import type { ModalView } from '@slack/types';
import { BlockIds, CallbackIds, InputActionIds } from '../ids.js';
import { connectionProblem } from '../operations/connection.js';
import type { Connection } from '../store/token-store.js';
import { actions, button, context, message, plain, type SlackMessage, section } from './blocks.js';
import { formatDateTime } from './format.js';
import { code, esc, link } from './mrkdwn.js';

export interface ConnectModalInput {
  serverUrl: string;
  /** Opaque to the view: travels in private_metadata back to the submission handler. */
  privateMetadata: string;
}

export function buildConnectModal({ serverUrl, privateMetadata }: ConnectModalInput): ModalView {
  const tokensPage = `${serverUrl}/profile/personal_access_tokens`;
  return {
    type: 'modal',
    callback_id: CallbackIds.connect,
    private_metadata: privateMetadata,
    title: plain('Connect your token', 24),
    submit: plain('Connect', 24),
    close: plain('Cancel', 24),
    blocks: [
      section(
        `Paste a personal access token for ${link(serverUrl, serverUrl)} with the ${code('api')} scope ` +
          `(create one under ${link(tokensPage, 'Settings → Access Tokens')}).\n` +
          'The bot checks it with one read, then stores it encrypted. Buttons you click and commands you run act as you.',
      ),
      {
        type: 'input',
        block_id: BlockIds.connectToken,
        label: plain('Personal access token', 2000),
        element: {
          type: 'plain_text_input',
          action_id: InputActionIds.connectToken,
          placeholder: plain('glpat-…', 150),
          min_length: 8,
          max_length: 255,
        },
      },
      context(['You can disconnect at any time with `/gl disconnect`; the token is then deleted from the bot.']),
    ],
  };
}

/** Replaces the modal once the token is stored. */
export function buildConnectedModal(serverUrl: string, slashCommand: string): ModalView {
  return {
    type: 'modal',
    callback_id: `${CallbackIds.connect}:done`,
    title: plain('Connected', 24),
    close: plain('Done', 24),
    blocks: [
      section(
        `:white_check_mark: You're connected to ${link(serverUrl, serverUrl)}.\n` +
          `Try ${code(`${slashCommand} jobs group/project --scope failed`)} or ${code(`${slashCommand} help`)}.`,
      ),
    ],
  };
}

export function buildConnectedMessage(serverUrl: string, slashCommand: string): SlackMessage {
  return message(`You're connected to ${serverUrl}.`, [
    section(
      `:white_check_mark: You're connected to ${link(serverUrl, serverUrl)}. ` +
        `Commands you run and buttons you click now act with your token. Try ${code(`${slashCommand} help`)}.`,
    ),
  ]);
}

/** Field errors for the token input, keyed by its block id (Slack's response_action: errors). */
export function buildTokenFieldError(text: string): Record<string, string> {
  return { [BlockIds.connectToken]: text.slice(0, 150) };
}

export type ConnectPromptReason = 'not_connected' | 'other_server' | 'token_revoked';

/** The one message a person without a usable token gets, with a Connect button. */
export function buildConnectPrompt(reason: ConnectPromptReason, serverUrl: string, slashCommand: string): SlackMessage {
  const why =
    reason === 'token_revoked'
      ? `Your token was refused by ${esc(serverUrl)} (revoked, expired or missing the \`api\` scope). Connect a new one to go on.`
      : reason === 'other_server'
        ? `Your stored token is for another server; this bot now talks to ${esc(serverUrl)}. Connect a token for it.`
        : `You're not connected yet: commands and buttons act with *your own* token for ${esc(serverUrl)}, so connect one first.`;
  return message(why, [
    section(`:key: ${why}`),
    actions([button({ text: 'Connect', name: 'account.connect', value: {}, style: 'primary' })]),
    context([`Or run ${code(`${slashCommand} connect`)}.`]),
  ]);
}

export function buildWhoami(connection: Connection | null, serverUrl: string, slashCommand: string): SlackMessage {
  const problem = connectionProblem(connection, serverUrl);
  if (problem || !connection) return buildConnectPrompt(problem ?? 'not_connected', serverUrl, slashCommand);
  const text =
    `You're connected to ${link(connection.serverUrl, connection.serverUrl)} since ${formatDateTime(connection.createdAt)}` +
    ` (token last checked ${formatDateTime(connection.verifiedAt)}).`;
  return message(`You're connected to ${connection.serverUrl}.`, [
    section(`:white_check_mark: ${text}`),
    context([`${code(`${slashCommand} disconnect`)} deletes the token from the bot.`]),
  ]);
}

export function buildDisconnected(wasConnected: boolean, serverUrl: string): SlackMessage {
  if (!wasConnected) return message("You weren't connected, so there was nothing to forget.");
  const text =
    'Disconnected: your token is deleted from this bot. If you no longer need it, revoke it on the server too: ' +
    link(`${serverUrl}/profile/personal_access_tokens`, 'Access Tokens');
  return message('Disconnected: your token is deleted from this bot.', [section(text)]);
}

export function buildChannelDefaultSet(project: string, webUrl: string | null, actorId: string, slashCommand: string) {
  const name = webUrl ? link(webUrl, project) : code(project);
  return message(`This channel's default project is now ${project}.`, [
    section(`:pushpin: <@${actorId}> set this channel's default project to ${name}.`),
    context([
      `Commands here may now leave out the project: ${code(`${slashCommand} jobs`)}, ${code(`${slashCommand} issue #12`)}. ` +
        `${code(`${slashCommand} use --clear`)} removes it.`,
    ]),
  ]);
}

export function buildChannelDefaultCleared(previous: string | null, actorId: string): SlackMessage {
  if (!previous) return message('This channel had no default project; nothing changed.');
  return message(`This channel no longer has a default project (was ${previous}).`, [
    section(`:pushpin: <@${actorId}> cleared this channel's default project (was ${code(previous)}).`),
  ]);
}

export function buildChannelDefaultShown(project: string | null, slashCommand: string): SlackMessage {
  return project
    ? message(`This channel's default project is ${project}.`, [
        section(`This channel's default project is ${code(project)}.`),
      ])
    : message(`This channel has no default project. Set one with ${slashCommand} use group/project.`);
}
