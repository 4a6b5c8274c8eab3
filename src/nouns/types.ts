import type { ModalView } from '@slack/types';
import type { Project } from '../gitlab/project.js';
import type { Command, CommandKey, CommandOf, ProjectRef } from '../grammar/index.js';
import type { ButtonDef, ButtonValue, ModalDef, ModalValue, ViewStateValues } from '../ids.js';
import type { GitlabAccess } from '../operations/access.js';
import type { RequestContext } from '../operations/context.js';
import type { PeopleResolver } from '../operations/people.js';
import type { ChannelStore } from '../store/channel-store.js';
import type { TokenStore } from '../store/token-store.js';
import type { SlackMessage } from '../views/blocks.js';
import type { ListPlace } from '../views/lists.js';
import type { Notice } from '../views/notice.js';

// A noun is one registration: its command handlers, its list renderers, its buttons (each with
// the value schema it decodes) and the operations they need. The app assembles the nouns of
// src/nouns/index.ts into dispatch tables; nothing else lists commands or buttons by hand.

export type { CommandKey, CommandOf };

/** What a handler answers; listeners deliver it. */
export type Reply =
  /** A new message: ephemeral to the person unless inChannel. */
  | { kind: 'message'; message: SlackMessage; inChannel?: boolean }
  /** Redraw the message whose button was clicked, in place. */
  | { kind: 'update'; message: SlackMessage }
  | { kind: 'modal'; view: ModalView }
  /** A file: into the channel when inChannel, else into the person's DM; then `message`. */
  | {
      kind: 'upload';
      file: { filename: string; title: string; content: string };
      message: SlackMessage;
      inChannel: boolean;
    }
  /** Remove the message whose button was clicked (a confirmation that was declined). */
  | { kind: 'delete' }
  | { kind: 'none' };

export const ephemeral = (message: SlackMessage): Reply => ({ kind: 'message', message });

/** What every noun may use, whatever its own operations are. */
export interface Platform {
  readonly serverUrl: string;
  readonly slashCommand: string;
  /** The project a command names, else the channel's default, else ProjectRequiredError; numeric ids get their path. */
  resolveProject(ctx: RequestContext, ref: ProjectRef | null): Promise<Project>;
  /** The person's IANA time zone from their Slack profile (UTC when unknown). */
  timeZoneOf(userId: string): Promise<string>;
  /** Private metadata for the connect modal opened from a channel (where to say "connected"). */
  connectMetadata(channelId: string | null): string;
  /** Whether a command of the language is carried out by this bot (so help and examples advertise only those). */
  ships(key: CommandKey): boolean;
  /** People named in commands (ids, usernames, mentions of connected people) as server user ids. */
  readonly people: PeopleResolver;
  /**
   * Parses a list's command text again and draws page `place.page` of it (Next page, after a row action).
   * `expect` is the list the caller drew its row for: another list in the button value is refused.
   */
  redrawList(
    place: ListPlace,
    ctx: RequestContext,
    o?: { expect?: CommandKey; notice?: Notice },
  ): Promise<SlackMessage>;
}

/** The stores and clients operations are built from. */
export interface OperationDeps {
  serverUrl: string;
  access: GitlabAccess;
  tokens: TokenStore;
  channels: ChannelStore;
}

/** A command's context also carries its text, so that lists can redraw themselves. */
export interface CommandContext extends RequestContext {
  text: string;
}

export interface ButtonContext extends RequestContext {
  /** The message that carried the button (null inside modals and on the Home tab). */
  message: { ts: string; ephemeral: boolean } | null;
  /** The click's response_url, for a modal opened by the click to redraw the message later. */
  responseUrl?: string | null;
}

type ListCommandShape = { flags: { page?: number; perPage?: number }; share: boolean };

export type CommandHandler<K extends CommandKey, Ops> = (
  cmd: CommandOf<K>,
  ctx: CommandContext,
  s: Platform,
  ops: Ops,
) => Promise<Reply>;

/** Draws one page of a list; `place` is null when the command text is too long to travel in buttons. */
export type ListRenderer<K extends CommandKey, Ops> = (
  cmd: CommandOf<K>,
  ctx: RequestContext,
  s: Platform,
  ops: Ops,
  place: ListPlace | null,
  notice?: Notice,
) => Promise<SlackMessage>;

export type ButtonHandler<D extends ButtonDef, Ops> = (
  value: ButtonValue<D>,
  ctx: ButtonContext,
  s: Platform,
  ops: Ops,
) => Promise<Reply>;

export interface ButtonBinding<Ops> {
  def: ButtonDef;
  handle: ButtonHandler<ButtonDef, Ops>;
}

/**
 * A modal submission's context: the channel (and the message, when the modal remembers one) is where the
 * modal was opened from (its private_metadata); an `update` reply redraws that message.
 */
export interface ModalContext extends RequestContext {
  values: ViewStateValues;
  message: { ts: string; ephemeral: boolean } | null;
}

/** What a modal submission answers: field errors keep it open; otherwise it closes and `reply` answers where it was opened. */
export type ModalAnswer =
  | { kind: 'errors'; errors: Record<string, string> }
  | { kind: 'accept'; reply: () => Promise<Reply> };

export type ModalHandler<D extends ModalDef, Ops> = (
  value: ModalValue<D>,
  ctx: ModalContext,
  s: Platform,
  ops: Ops,
) => Promise<ModalAnswer>;

export interface ModalBinding<Ops> {
  def: ModalDef;
  handle: ModalHandler<ModalDef, Ops>;
}

export interface NounParts<Ops> {
  commands?: { [K in CommandKey]?: CommandHandler<K, Ops> };
  /** List commands: each gets a command handler that draws page one, and redraws for Next page. */
  lists?: { [K in CommandKey]?: CommandOf<K> extends ListCommandShape ? ListRenderer<K, Ops> : never };
  buttons?: readonly ButtonBinding<Ops>[];
  /** Modals the noun opens, each answered by its handler when submitted (dispatched by callback_id). */
  modals?: readonly ModalBinding<Ops>[];
}

/** A noun with its operations' type erased: what the app assembles. */
export interface Noun {
  readonly name: string;
  readonly commandKeys: readonly CommandKey[];
  readonly listKeys: readonly CommandKey[];
  readonly buttonDefs: readonly ButtonDef[];
  readonly modalDefs: readonly ModalDef[];
  bind(deps: OperationDeps, platform: Platform): BoundNoun;
}

export interface BoundNoun {
  commands: ReadonlyMap<CommandKey, (cmd: Command, ctx: CommandContext) => Promise<Reply>>;
  lists: ReadonlyMap<
    CommandKey,
    (cmd: Command, ctx: RequestContext, place: ListPlace | null, notice?: Notice) => Promise<SlackMessage>
  >;
  buttons: ReadonlyMap<string, { def: ButtonDef; handle: (value: unknown, ctx: ButtonContext) => Promise<Reply> }>;
  modals: ReadonlyMap<string, { def: ModalDef; handle: (value: unknown, ctx: ModalContext) => Promise<ModalAnswer> }>;
}

/**
 * Starts a noun whose handlers share operations of type `Ops`:
 * `const n = noun('job', createJobOperations); export const jobs = n.define({ commands, lists, buttons: [n.on(…)] })`.
 */
export function noun<Ops>(name: string, operations: (deps: OperationDeps) => Ops) {
  return {
    on<D extends ButtonDef>(def: D, handle: ButtonHandler<D, Ops>): ButtonBinding<Ops> {
      return { def, handle: handle as ButtonHandler<ButtonDef, Ops> };
    },
    modal<D extends ModalDef>(def: D, handle: ModalHandler<D, Ops>): ModalBinding<Ops> {
      return { def, handle: handle as ModalHandler<ModalDef, Ops> };
    },
    define(parts: NounParts<Ops>): Noun {
      const commands = Object.entries(parts.commands ?? {}) as [CommandKey, CommandHandler<CommandKey, Ops>][];
      const lists = Object.entries(parts.lists ?? {}) as [CommandKey, ListRenderer<CommandKey, Ops>][];
      const buttons = parts.buttons ?? [];
      const modals = parts.modals ?? [];
      return {
        name,
        commandKeys: [...commands.map(([k]) => k), ...lists.map(([k]) => k)],
        listKeys: lists.map(([k]) => k),
        buttonDefs: buttons.map((b) => b.def),
        modalDefs: modals.map((m) => m.def),
        bind(deps, platform) {
          const ops = operations(deps);
          return {
            commands: new Map(
              commands.map(([k, h]) => [k, (cmd: Command, ctx: CommandContext) => h(cmd as never, ctx, platform, ops)]),
            ),
            lists: new Map(
              lists.map(([k, render]) => [
                k,
                (cmd: Command, ctx: RequestContext, place: ListPlace | null, notice?: Notice) =>
                  render(cmd as never, ctx, platform, ops, place, notice),
              ]),
            ),
            buttons: new Map(
              buttons.map((b) => [
                b.def.name,
                { def: b.def, handle: (value: unknown, ctx: ButtonContext) => b.handle(value, ctx, platform, ops) },
              ]),
            ),
            modals: new Map(
              modals.map((m) => [
                m.def.name,
                { def: m.def, handle: (value: unknown, ctx: ModalContext) => m.handle(value, ctx, platform, ops) },
              ]),
            ),
          };
        },
      };
    },
  };
}
