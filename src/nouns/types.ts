import type { HomeView, ModalView } from '@slack/types';
import type { FollowService } from '../follow/service.js';
import type { Project } from '../gitlab/project.js';
import type { Command, CommandKey, CommandOf, ProjectRef } from '../grammar/index.js';
import type { ButtonDef, ButtonValue, ModalDef, ModalValue, ViewStateValues } from '../ids.js';
import type { GitlabAccess } from '../operations/access.js';
import type { AlertService } from '../operations/alert-service.js';
import type { Actor, RequestContext } from '../operations/context.js';
import type { DigestService } from '../operations/digest-service.js';
import type { FailureReader } from '../operations/failures.js';
import type { PeopleResolver } from '../operations/people.js';
import type { WatchService } from '../operations/watch-service.js';
import type { SlackEventOf, SlackEventType } from '../slack-events.js';
import type { ChannelStore } from '../store/channel-store.js';
import type { StepStore } from '../store/step-store.js';
import type { TokenStore } from '../store/token-store.js';
import type { UnfurlStore } from '../store/unfurl-store.js';
import type { Block, SlackMessage } from '../views/blocks.js';
import type { ListPlace } from '../views/lists.js';
import type { Notice } from '../views/notice.js';

// A noun is one registration: its command handlers, its list renderers, its buttons (each with
// the value schema it decodes), its modals, the Slack events it answers, and the operations they need. The app
// assembles the nouns of src/nouns/index.ts into dispatch tables; nothing else lists commands or buttons by hand.

export type { CommandKey, CommandOf };

/**
 * Where a button was clicked, or a modal opened from: a message, the person's Home tab, or a modal. On the Home
 * there is no message and no response_url: whatever a handler answers there is shown on the Home, drawn again.
 */
export type Surface = 'message' | 'home' | 'modal';

/** Link previews by URL, as chat.unfurl takes them. */
export type Unfurls = Record<string, { blocks: Block[] }>;

/** The message whose links are unfurled, or (for a message still being typed) the unfurl Slack named. */
export type UnfurlTarget =
  | { channel: string; ts: string }
  | { unfurlId: string; source: 'composer' | 'conversations_history' };

/** What a handler answers; listeners deliver it. */
export type Reply =
  /** A new message: ephemeral to the person unless inChannel; then `after`, when given. */
  | { kind: 'message'; message: SlackMessage; inChannel?: boolean; after?: Reply }
  /**
   * A reply in a thread of the request's channel, seen by everyone there; when Slack refuses the bot's post, the
   * person alone is told why, with the reply.
   */
  | { kind: 'thread'; threadTs: string; message: SlackMessage }
  /** Redraw the message whose button was clicked, in place. */
  | { kind: 'update'; message: SlackMessage }
  | { kind: 'modal'; view: ModalView }
  /** A file (text, or bytes such as a PNG with its alt text): into the channel when inChannel, else into the person's DM; then `message`. */
  | {
      kind: 'upload';
      file: { filename: string; title: string; content: string | Buffer; altText?: string };
      message: SlackMessage;
      inChannel: boolean;
    }
  /**
   * An answer that is taking a while: `note` is shown to the person at once, and removed when `answer` is
   * delivered (or fails, and its error is told instead), so the person sees the answer replace the note.
   */
  /** Remove the message whose button was clicked (a confirmation that was declined). */
  | { kind: 'delete' }
  /** Publish the acting person's Home tab. */
  | { kind: 'home'; view: HomeView }
  /** Previews of links of a message, shown under it to everyone who sees it; then `after`, when given. */
  | { kind: 'unfurl'; target: UnfurlTarget; unfurls: Unfurls; after?: Reply }
  | { kind: 'none' };

export const ephemeral = (message: SlackMessage): Reply => ({ kind: 'message', message });

/** What every noun may use, whatever its own operations are. */
export interface Platform {
  /** Where links point: GITLAB_PUBLIC_URL when set, else GITLAB_URL. */
  readonly serverUrl: string;
  /** GITLAB_URL, the address the bot reaches the server by: connections are made to it. */
  readonly gitlabUrl: string;
  readonly slashCommand: string;
  /** The project a command names, else the channel's default, else ProjectRequiredError; numeric ids get their path. */
  resolveProject(ctx: RequestContext, ref: ProjectRef | null): Promise<Project>;
  /** The person's IANA time zone from their Slack profile (UTC when unknown). */
  timeZoneOf(userId: string): Promise<string>;
  /** Private metadata for the connect modal opened from a channel (where to say "connected") or the Home tab. */
  connectMetadata(channelId: string | null, options?: { home?: boolean }): string;
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
    options?: { expect?: CommandKey; notice?: Notice },
  ): Promise<SlackMessage>;
  /**
   * The acting person's Home tab, drawn again after something they did: read afresh unless `cached`, with what
   * happened on top (`notice`, or `shown`: the answer a message would have carried).
   */
  redrawHome(ctx: RequestContext, redraw?: HomeRedraw): Promise<HomeView>;
}

export interface HomeRedraw {
  notice?: Notice | undefined;
  shown?: SlackMessage | undefined;
  /** A read of the last few seconds may serve (opening the tab); otherwise the server is read again. */
  cached?: boolean;
}

/** The stores and clients operations are built from. */
export interface OperationDeps {
  serverUrl: string;
  access: GitlabAccess;
  tokens: TokenStore;
  channels: ChannelStore;
  /** Digests: their store, runner and scheduler (one per app). */
  digests: DigestService;
  /** Who lets previews of their non-public links show in which channels without asking. */
  unfurls: UnfurlStore;
  /** Workflow Builder steps: the "Always" consents people gave them (listed with Revoke). */
  steps: StepStore;
  /** Cards that keep themselves up to date until their pipeline or job finishes (absent: answers do not follow). */
  follows?: FollowService;
  /** Pipeline watches: their store and poller (one per app). */
  watches: WatchService;
  /** Todo alerts: each person's setting, and the poll that DMs them (one per app). */
  alerts: AlertService;
  /** Why jobs failed: their traces' explaining lines and flaky-or-broken verdicts, read once and kept (one per app). */
  failures: FailureReader;
}

/** A command's context also carries its text, so that lists can redraw themselves. */
export interface CommandContext extends RequestContext {
  text: string;
  /** The command's response_url, which its answer is delivered through (a following card redraws through it). */
  responseUrl?: string | null;
  /**
   * How many of the response_url's uses the answer spends, itself included (a "working on it…" note shown before
   * it is one more); no note comes after this is asked.
   */
  responseUsesSpent?: () => number;
  /** What the "working on it…" note says if the answer is slow, when the command knows better words. */
  workingOn?: (message: SlackMessage) => void;
}

export interface ButtonContext extends RequestContext {
  /** The message that carried the button (null inside modals and on the Home tab). */
  message: { ts: string; ephemeral: boolean } | null;
  surface: Surface;
  /** The click's response_url, for a modal opened by the click to redraw the message later. */
  responseUrl?: string | null;
}

type ListCommandShape = { flags: { page?: number; perPage?: number }; share: boolean };

export type CommandHandler<K extends CommandKey, Ops> = (
  command: CommandOf<K>,
  ctx: CommandContext,
  platform: Platform,
  ops: Ops,
) => Promise<Reply>;

/** Draws one page of a list; `place` is null when the command text is too long to travel in buttons. */
export type ListRenderer<K extends CommandKey, Ops> = (
  command: CommandOf<K>,
  ctx: RequestContext,
  platform: Platform,
  ops: Ops,
  place: ListPlace | null,
  notice?: Notice,
) => Promise<SlackMessage>;

export type ButtonHandler<D extends ButtonDef, Ops> = (
  value: ButtonValue<D>,
  ctx: ButtonContext,
  platform: Platform,
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
  /** 'home' when the modal was opened from the Home tab (its answer redraws the Home), else 'message'. */
  surface: Surface;
}

/** What a modal submission answers: field errors keep it open; otherwise it closes and `reply` answers where it was opened. */
export type ModalAnswer =
  | { kind: 'errors'; errors: Record<string, string> }
  | { kind: 'accept'; reply: () => Promise<Reply> };

export type ModalHandler<D extends ModalDef, Ops> = (
  value: ModalValue<D>,
  ctx: ModalContext,
  platform: Platform,
  ops: Ops,
) => Promise<ModalAnswer>;

export interface ModalBinding<Ops> {
  def: ModalDef;
  handle: ModalHandler<ModalDef, Ops>;
}

/** An Events API event, decoded (src/slack-events.ts); `ctx.channelId` is the event's channel, when it has one. */
export type EventHandler<T extends SlackEventType, Ops> = (
  event: SlackEventOf<T>,
  ctx: RequestContext,
  platform: Platform,
  ops: Ops,
) => Promise<Reply>;

export interface EventBinding<Ops> {
  type: SlackEventType;
  handle: EventHandler<SlackEventType, Ops>;
}

/** Draws a person's Home tab (one noun does). */
export type HomeRenderer<Ops> = (
  ctx: RequestContext,
  platform: Platform,
  ops: Ops,
  redraw: HomeRedraw,
) => Promise<HomeView>;

export interface HomeParts<Ops> {
  render: HomeRenderer<Ops>;
  /** Forgets what the Home keeps of a person's reads: they just did something, anywhere. */
  forget(actor: Actor, ops: Ops): void;
}

export interface NounParts<Ops> {
  commands?: { [K in CommandKey]?: CommandHandler<K, Ops> };
  /** List commands: each gets a command handler that draws page one, and redraws for Next page. */
  lists?: { [K in CommandKey]?: CommandOf<K> extends ListCommandShape ? ListRenderer<K, Ops> : never };
  buttons?: readonly ButtonBinding<Ops>[];
  /** Modals the noun opens, each answered by its handler when submitted (dispatched by callback_id). */
  modals?: readonly ModalBinding<Ops>[];
  /** Slack events the noun answers (one noun per event type). */
  events?: readonly EventBinding<Ops>[];
  /** The person's Home tab, when this noun draws it. */
  home?: HomeParts<Ops>;
}

/** A noun with its operations' type erased: what the app assembles. */
export interface Noun {
  readonly name: string;
  readonly commandKeys: readonly CommandKey[];
  readonly listKeys: readonly CommandKey[];
  readonly buttonDefs: readonly ButtonDef[];
  readonly modalDefs: readonly ModalDef[];
  readonly eventTypes: readonly SlackEventType[];
  readonly drawsHome: boolean;
  bind(deps: OperationDeps, platform: Platform): BoundNoun;
}

export interface BoundNoun {
  commands: ReadonlyMap<CommandKey, (command: Command, ctx: CommandContext) => Promise<Reply>>;
  lists: ReadonlyMap<
    CommandKey,
    (command: Command, ctx: RequestContext, place: ListPlace | null, notice?: Notice) => Promise<SlackMessage>
  >;
  buttons: ReadonlyMap<string, { def: ButtonDef; handle: (value: unknown, ctx: ButtonContext) => Promise<Reply> }>;
  modals: ReadonlyMap<string, { def: ModalDef; handle: (value: unknown, ctx: ModalContext) => Promise<ModalAnswer> }>;
  events: ReadonlyMap<SlackEventType, (event: unknown, ctx: RequestContext) => Promise<Reply>>;
  home: { render(ctx: RequestContext, redraw: HomeRedraw): Promise<HomeView>; forget(actor: Actor): void } | null;
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
    event<T extends SlackEventType>(type: T, handle: EventHandler<T, Ops>): EventBinding<Ops> {
      return { type, handle: handle as unknown as EventHandler<SlackEventType, Ops> };
    },
    define(parts: NounParts<Ops>): Noun {
      const commands = Object.entries(parts.commands ?? {}) as [CommandKey, CommandHandler<CommandKey, Ops>][];
      const lists = Object.entries(parts.lists ?? {}) as [CommandKey, ListRenderer<CommandKey, Ops>][];
      const buttons = parts.buttons ?? [];
      const modals = parts.modals ?? [];
      const events = parts.events ?? [];
      const home = parts.home ?? null;
      return {
        name,
        commandKeys: [...commands.map(([key]) => key), ...lists.map(([key]) => key)],
        listKeys: lists.map(([key]) => key),
        buttonDefs: buttons.map((button) => button.def),
        modalDefs: modals.map((modal) => modal.def),
        eventTypes: events.map((binding) => binding.type),
        drawsHome: home !== null,
        bind(deps, platform) {
          const ops = operations(deps);
          return {
            commands: new Map(
              commands.map(([key, handler]) => [
                key,
                (command: Command, ctx: CommandContext) => handler(command as never, ctx, platform, ops),
              ]),
            ),
            lists: new Map(
              lists.map(([key, render]) => [
                key,
                (command: Command, ctx: RequestContext, place: ListPlace | null, notice?: Notice) =>
                  render(command as never, ctx, platform, ops, place, notice),
              ]),
            ),
            buttons: new Map(
              buttons.map((button) => [
                button.def.name,
                {
                  def: button.def,
                  handle: (value: unknown, ctx: ButtonContext) => button.handle(value, ctx, platform, ops),
                },
              ]),
            ),
            modals: new Map(
              modals.map((modal) => [
                modal.def.name,
                {
                  def: modal.def,
                  handle: (value: unknown, ctx: ModalContext) => modal.handle(value, ctx, platform, ops),
                },
              ]),
            ),
            events: new Map(
              events.map((binding) => [
                binding.type,
                (event: unknown, ctx: RequestContext) => binding.handle(event as never, ctx, platform, ops),
              ]),
            ),
            home: home
              ? {
                  render: (ctx: RequestContext, redraw: HomeRedraw) => home.render(ctx, platform, ops, redraw),
                  forget: (actor: Actor) => home.forget(actor, ops),
                }
              : null,
          };
        },
      };
    },
  };
}
