import type { ModalView } from '@slack/types';
import type { Command, ProjectRef } from '../grammar/index.js';
import type { ButtonName, ButtonValue } from '../ids.js';
import type { AccountOperations } from '../operations/account.js';
import type { RequestContext } from '../operations/context.js';
import type { DeploymentOperations } from '../operations/deployments.js';
import type { JobOperations } from '../operations/jobs.js';
import type { PipelineOperations } from '../operations/pipelines.js';
import type { ScheduleOperations } from '../operations/schedules.js';
import type { SlackMessage } from '../views/blocks.js';

// Handlers turn a parsed command or a decoded button into a Reply: they call operations
// and views, and never touch Bolt. Listeners deliver the Reply.

export type Reply =
  /** A new message: ephemeral to the person unless inChannel. */
  | { kind: 'message'; message: SlackMessage; inChannel?: boolean }
  /** Redraw the message whose button was clicked, in place. */
  | { kind: 'update'; message: SlackMessage }
  | { kind: 'modal'; view: ModalView }
  /** A file (a whole trace): into the channel when inChannel, else into the person's DM; then `message`. */
  | {
      kind: 'upload';
      file: { filename: string; title: string; content: string };
      message: SlackMessage;
      inChannel: boolean;
    }
  /** Remove the message whose button was clicked (a confirmation that was declined). */
  | { kind: 'delete' }
  | { kind: 'none' };

export interface Services {
  serverUrl: string;
  slashCommand: string;
  account: AccountOperations;
  jobs: JobOperations;
  pipelines: PipelineOperations;
  schedules: ScheduleOperations;
  deployments: DeploymentOperations;
  /** The project a command names, else the channel's default, else ProjectRequiredError. */
  resolveProject(ctx: RequestContext, ref: ProjectRef | null): Promise<string | number>;
  /** The person's IANA time zone from their Slack profile (UTC when unknown). */
  timeZoneOf(userId: string): Promise<string>;
  /** Private metadata for the connect modal opened from a channel (where to say "connected"). */
  connectMetadata(channelId: string | null): string;
}

export type CommandKey = Command['key'];
export type CommandOf<K extends CommandKey> = Extract<Command, { key: K }>;

/** A command's context also carries its text, so that lists can redraw themselves (next page, after a row action). */
export interface CommandContext extends RequestContext {
  text: string;
}

export type CommandHandler<K extends CommandKey> = (
  cmd: CommandOf<K>,
  ctx: CommandContext,
  s: Services,
) => Promise<Reply>;
export type CommandHandlers = { [K in CommandKey]?: CommandHandler<K> };

export interface ButtonContext extends RequestContext {
  /** The message that carried the button (null inside modals). */
  message: { ts: string; ephemeral: boolean } | null;
}

export type ButtonHandler<N extends ButtonName> = (
  value: ButtonValue<N>,
  ctx: ButtonContext,
  s: Services,
) => Promise<Reply>;
export type ButtonHandlers = { [N in ButtonName]?: ButtonHandler<N> };

export const ephemeral = (message: SlackMessage): Reply => ({ kind: 'message', message });
