import type { Button, ModalView } from '@slack/types';
import { AccountButtons } from '../buttons/common.js';
import { connectionProblem } from '../connection.js';
import type { CommandKey } from '../grammar/index.js';
import { BlockIds, CallbackIds, InputActionIds } from '../ids.js';
import type { AlertSetting } from '../store/alert-store.js';
import type { StepConsent } from '../store/step-store.js';
import type { Connection } from '../store/token-store.js';
import { alertSummary } from './alerts.js';
import { actions, button, type Confirmation, context, message, plain, type SlackMessage, section } from './blocks.js';
import { formatDateTime } from './format.js';
import { code, joinMd, link, md, mention } from './mrkdwn.js';
import { buildStepConsentBlocks } from './steps.js';

export interface ConnectModalInput {
  serverUrl: string;
  slashCommand: string;
  /** Opaque to the view: travels in private_metadata back to the submission handler. */
  privateMetadata: string;
}

export function buildConnectModal({ serverUrl, slashCommand, privateMetadata }: ConnectModalInput): ModalView {
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
        md`Paste a personal access token for ${link(serverUrl, serverUrl)} with the ${code('api')} scope (create one under ${link(tokensPage, 'Settings → Access Tokens')}).
The bot checks it with one read, then stores it encrypted. Buttons you click and commands you run act as you.`,
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
      context([
        md`You can disconnect at any time with ${code(`${slashCommand} disconnect`)}; the token is then deleted from the bot.`,
      ]),
    ],
  };
}

/** Replaces the modal once the token is stored. */
export function buildConnectedModal(
  serverUrl: string,
  slashCommand: string,
  username: string | null,
  replaced: string | null = null,
): ModalView {
  const as = username ? md` as ${code(`@${username}`)}` : '';
  const instead = replaced ? md`\n:information_source: This replaces your connection as ${code(`@${replaced}`)}.` : '';
  return {
    type: 'modal',
    callback_id: `${CallbackIds.connect}:done`,
    title: plain('Connected', 24),
    close: plain('Done', 24),
    blocks: [
      section(
        md`:white_check_mark: You're connected to ${link(serverUrl, serverUrl)}${as}.${instead}
Try ${code(`${slashCommand} jobs group/project --scope failed`)} or ${code(`${slashCommand} help`)}.`,
      ),
    ],
  };
}

/** Field errors for the token input, keyed by its block id (Slack's response_action: errors). */
export function buildTokenFieldError(text: string): Record<string, string> {
  return { [BlockIds.connectToken]: text.slice(0, 150) };
}

export type TokenCheckFailure = 'refused' | 'forbidden' | 'unreachable' | 'unexpected';

/** What the connect modal says under the token field when the check fails; nothing is stored then. */
export function tokenCheckError(reason: TokenCheckFailure, serverUrl: string, status?: number): string {
  switch (reason) {
    case 'refused':
      return 'The server refused this token (401): it is wrong, expired or revoked. Nothing was stored.';
    case 'forbidden':
      return 'The token was accepted but may not use the API (403): create one with the api scope. Nothing was stored.';
    case 'unreachable':
      return `Could not reach ${serverUrl} in time to check the token; try again. Nothing was stored.`;
    default:
      return status && status >= 500
        ? `The server answered ${status} (an error on its side) while checking the token; try again later. Nothing was stored.`
        : `The server answered ${status ?? 'unexpectedly'} while checking the token. Nothing was stored.`;
  }
}

export type ConnectPromptReason = 'not_connected' | 'other_server' | 'token_revoked' | 'token_unreadable';

/** The one message a person without a usable token gets, with a Connect button. */
export function buildConnectPrompt(reason: ConnectPromptReason, serverUrl: string, slashCommand: string): SlackMessage {
  const why =
    reason === 'token_revoked'
      ? md`Your token was refused by ${serverUrl} (revoked, expired or missing the ${code('api')} scope). Connect a new one to go on.`
      : reason === 'token_unreadable'
        ? md`Your stored token can't be read any more (the bot's key changed or the record is damaged). Connect again to go on.`
        : reason === 'other_server'
          ? md`Your stored token is for another server; this bot now talks to ${serverUrl}. Connect a token for it.`
          : md`You're not connected yet: commands and buttons act with *your own* token for ${serverUrl}, so connect one first.`;
  return message(why, [
    section(md`:key: ${why}`),
    actions([button({ text: 'Connect', def: AccountButtons.connect, value: {}, style: 'primary' })]),
    context([md`Or run ${code(`${slashCommand} connect`)}.`]),
  ]);
}

export function buildWhoami(
  connection: Connection | null,
  o: {
    serverUrl: string;
    slashCommand: string;
    timeZone: string;
    stepConsents?: readonly StepConsent[];
    alerts?: AlertSetting | null;
    now?: Date;
  },
): SlackMessage {
  const { serverUrl, slashCommand, timeZone } = o;
  const problem = connectionProblem(connection, serverUrl);
  if (problem || !connection) return buildConnectPrompt(problem ?? 'not_connected', serverUrl, slashCommand);
  const as = connection.username ? md` as ${code(`@${connection.username}`)}` : '';
  // In the person's own zone, as their Home tab shows the same times.
  const text = md`You're connected to ${link(connection.serverUrl, connection.serverUrl)}${as} since ${formatDateTime(connection.createdAt, timeZone)} (token last checked ${formatDateTime(connection.verifiedAt, timeZone)}).`;
  return message(
    md`You're connected to ${connection.serverUrl}${connection.username ? ` as @${connection.username}` : ''}.`,
    [
      section(md`:white_check_mark: ${text}`),
      ...(o.alerts !== undefined ? [context([alertSummary(o.alerts, { now: o.now ?? new Date(), timeZone })])] : []),
      context([md`${code(`${slashCommand} disconnect`)} deletes the token from the bot.`]),
      ...buildStepConsentBlocks(o.stepConsents ?? [], timeZone),
    ],
  );
}

/** The Disconnect button asks first: buttons and commands stop acting as the person until they connect again. */
export function disconnectConfirmation(serverUrl: string): Confirmation {
  return {
    title: 'Disconnect?',
    question: md`Delete your token for ${serverUrl} from this bot? Buttons, commands and your digests stop acting as you until you connect again.`,
    confirm: 'Disconnect',
    yes: 'Yes, disconnect',
  };
}

export function disconnectButton(serverUrl: string): Button {
  return button({
    text: 'Disconnect',
    def: AccountButtons.disconnect,
    value: {},
    confirm: disconnectConfirmation(serverUrl),
  });
}

export function buildDisconnected(wasConnected: boolean, serverUrl: string): SlackMessage {
  if (!wasConnected) return message("You weren't connected, so there was nothing to forget.");
  const text = md`Disconnected: your token is deleted from this bot. If you no longer need it, revoke it on the server too: ${link(`${serverUrl}/profile/personal_access_tokens`, 'Access Tokens')}`;
  return message('Disconnected: your token is deleted from this bot.', [section(text)]);
}

/** Commands that may now leave out the project, as examples; only those this bot carries out. */
const USE_EXAMPLES: [CommandKey, string][] = [
  ['job.list', 'jobs'],
  ['issue.show', 'issue #12'],
  ['mr.show', 'mr !34'],
  ['pipeline.list', 'pipelines'],
];

export interface ChannelDefaultSet {
  project: string;
  webUrl: string | null;
  actorId: string;
  slashCommand: string;
  ships: (key: CommandKey) => boolean;
  /** Told to the person alone: the project is not public, so the channel is not told its name. */
  privately?: boolean;
}

export function buildChannelDefaultSet(set: ChannelDefaultSet): SlackMessage {
  const name = set.webUrl ? link(set.webUrl, set.project) : code(set.project);
  const examples = USE_EXAMPLES.filter(([key]) => set.ships(key))
    .slice(0, 2)
    .map(([, text]) => code(`${set.slashCommand} ${text}`));
  const said = set.privately
    ? md`:pushpin: This channel's default project is now ${name}. It is not public, so the channel was told only that a default was set, not which.`
    : md`:pushpin: ${mention(set.actorId)} set this channel's default project to ${name}.`;
  return message(md`This channel's default project is now ${set.project}.`, [
    section(said),
    context([
      md`Commands here may now leave out the project: ${joinMd(examples, ', ')}. ${code(`${set.slashCommand} use --clear`)} removes it.`,
    ]),
  ]);
}

/** What the channel hears when a non-public project became its default: that one was set, and by whom. */
export function buildChannelDefaultAnnounced(actorId: string): SlackMessage {
  const text = md`:pushpin: ${mention(actorId)} set a default project for this channel (one that is not public, so it is not named here). Commands here may now leave out the project.`;
  return message(md`${mention(actorId)} set a default project for this channel.`, [section(text)]);
}

/** Posted in the channel: a default the channel was told was not public stays unnamed (audience.ts). */
export function buildChannelDefaultCleared(previous: ChannelDefaultSeen | null, actorId: string): SlackMessage {
  if (!previous) return message('This channel had no default project; nothing changed.');
  if (previous.hidden) {
    return message(md`This channel no longer has a default project.`, [
      section(
        md`:pushpin: ${mention(actorId)} cleared this channel's default project (one that is not public, so it is not named here).`,
      ),
    ]);
  }
  return message(md`This channel no longer has a default project (was ${previous.project}).`, [
    section(md`:pushpin: ${mention(actorId)} cleared this channel's default project (was ${code(previous.project)}).`),
  ]);
}

/** What `/gl use` says of the channel's default; one that is not public is not named to anyone (not all may see it). */
export interface ChannelDefaultSeen {
  project: string;
  setBy: string;
  hidden: boolean;
}

export function buildChannelDefaultShown(current: ChannelDefaultSeen | null, slashCommand: string): SlackMessage {
  if (!current) return message(`This channel has no default project. Set one with ${slashCommand} use group/project.`);
  if (current.hidden) {
    return message(md`This channel's default project is one that is not public.`, [
      section(
        md`This channel's default project is one that is not public, so it is not named here; ${mention(current.setBy)} set it.`,
      ),
    ]);
  }
  return message(md`This channel's default project is ${current.project}.`, [
    section(md`This channel's default project is ${code(current.project)}.`),
  ]);
}
