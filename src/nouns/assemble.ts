import {
  InvalidInputError,
  NotConnectedError,
  StaleActionError,
  TokenRevokedError,
  TokenUnreadableError,
} from '../errors.js';
import { type Command, type CommandKey, parseCommand, SPEC } from '../grammar/index.js';
import type { ButtonDef, ModalDef } from '../ids.js';
import type { Actor, RequestContext } from '../operations/context.js';
import type { SlackEventType } from '../slack-events.js';
import { hiddenDefaultNotShared, sharesHiddenDefault } from '../views/audience.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildErrorMessage } from '../views/errors.js';
import { isEmptyList, type ListPlace, listPlaceOf, withEmptyShareNote } from '../views/lists.js';
import type { Notice } from '../views/notice.js';
import type {
  BoundNoun,
  ButtonContext,
  CommandContext,
  ModalAnswer,
  ModalContext,
  Noun,
  OperationDeps,
  Platform,
  Reply,
  Surface,
} from './types.js';

// Turns the list of nouns into the tables listeners dispatch on. A list command needs no handler of
// its own: page one of its renderer answers the command, and Next page redraws it from the command
// text its buttons carry. A click on the Home tab answers on the Home: whatever its handler says is shown
// on top of the Home, drawn again; and whatever a person does, the Home forgets its reads of them.

export interface Dispatch {
  command(key: CommandKey): ((command: Command, ctx: CommandContext) => Promise<Reply>) | undefined;
  button(name: string): ((value: unknown, ctx: ButtonContext) => Promise<Reply>) | undefined;
  /** Every registered button, for decoding clicks. */
  readonly buttonDefs: ReadonlyMap<string, ButtonDef>;
  modal(name: string): ((value: unknown, ctx: ModalContext) => Promise<ModalAnswer>) | undefined;
  /** Every registered modal, for decoding submissions. */
  readonly modalDefs: ReadonlyMap<string, ModalDef>;
  event(type: SlackEventType): ((event: unknown, ctx: RequestContext) => Promise<Reply>) | undefined;
  /** The Slack events some noun answers. */
  readonly eventTypes: readonly SlackEventType[];
  /** The person's Home tab, drawn again (after they connected from it). */
  redrawHome: Platform['redrawHome'];
  /** Whether a command of the language is carried out by this bot (help advertises only those). */
  ships(key: CommandKey): boolean;
}

/** Problems with a set of nouns: a key or button registered twice, a noun shipped in part. */
export function findRegistrationGaps(nouns: readonly Noun[], spec: readonly { key: string; noun: string }[]): string[] {
  const problems: string[] = [];
  const commandOwner = new Map<string, string>();
  const buttonOwner = new Map<string, string>();
  const modalOwner = new Map<string, string>();
  const eventOwner = new Map<string, string>();
  const homeOwners = nouns.filter((noun) => noun.drawsHome).map((noun) => noun.name);
  if (homeOwners.length > 1) problems.push(`the Home tab is drawn by ${homeOwners.join(' and ')}`);
  for (const noun of nouns) {
    for (const type of noun.eventTypes) {
      const owner = eventOwner.get(type);
      if (owner) problems.push(`event ${type} is answered by both ${owner} and ${noun.name}`);
      eventOwner.set(type, noun.name);
    }
    for (const key of noun.commandKeys) {
      const owner = commandOwner.get(key);
      if (owner) problems.push(`command ${key} is registered by both ${owner} and ${noun.name}`);
      commandOwner.set(key, noun.name);
    }
    for (const def of noun.buttonDefs) {
      const owner = buttonOwner.get(def.name);
      if (owner) problems.push(`button ${def.name} is registered by both ${owner} and ${noun.name}`);
      buttonOwner.set(def.name, noun.name);
    }
    for (const def of noun.modalDefs) {
      const owner = modalOwner.get(def.name);
      if (owner) problems.push(`modal ${def.name} is registered by both ${owner} and ${noun.name}`);
      modalOwner.set(def.name, noun.name);
    }
  }
  // Every command of the language is carried out: none may answer "not available".
  for (const entry of spec) if (!commandOwner.has(entry.key)) problems.push(`command ${entry.key} has no handler`);
  for (const key of commandOwner.keys()) {
    if (!spec.some((entry) => entry.key === key))
      problems.push(`command ${key} is registered but not in the command table`);
  }
  return problems;
}

export function assemble(
  nouns: readonly Noun[],
  deps: OperationDeps,
  base: Omit<Platform, 'redrawList' | 'redrawHome' | 'ships'>,
): { dispatch: Dispatch; platform: Platform } {
  const gaps = findRegistrationGaps(nouns, SPEC);
  if (gaps.length > 0) throw new Error(`the nouns do not fit together:\n${gaps.join('\n')}`);

  const commands = new Map<CommandKey, (command: Command, ctx: CommandContext) => Promise<Reply>>();
  const lists = new Map<CommandKey, BoundNoun['lists'] extends ReadonlyMap<CommandKey, infer R> ? R : never>();
  const buttons = new Map<string, (value: unknown, ctx: ButtonContext) => Promise<Reply>>();
  const buttonDefs = new Map<string, ButtonDef>();
  const modals = new Map<string, (value: unknown, ctx: ModalContext) => Promise<ModalAnswer>>();
  const modalDefs = new Map<string, ModalDef>();
  const events = new Map<SlackEventType, (event: unknown, ctx: RequestContext) => Promise<Reply>>();
  let home: BoundNoun['home'] = null;

  const redrawList: Platform['redrawList'] = async (place, ctx, options = {}) => {
    const parsed = parseCommand(place.query, {
      serverUrl: [base.serverUrl, base.gitlabUrl],
      slashCommand: base.slashCommand,
    });
    const render = parsed.ok ? lists.get(parsed.command.key) : undefined;
    if (!parsed.ok || !render || (options.expect && parsed.command.key !== options.expect)) {
      throw new StaleActionError('the list this button belongs to cannot be read again');
    }
    const command = parsed.command as Command & { flags: { page?: number } };
    const paged = { ...command, flags: { ...command.flags, page: place.page } } as Command;
    return render(paged, ctx, place, options.notice);
  };
  const redrawHome: Platform['redrawHome'] = (ctx, redraw = {}) => {
    if (!home) throw new Error('no noun draws the Home tab');
    return home.render(ctx, redraw);
  };
  const platform: Platform = { ...base, redrawList, redrawHome, ships: (key) => commands.has(key) };
  const words = { serverUrl: base.serverUrl, slashCommand: base.slashCommand };

  /** What the channel was told of its default decides whether a command may post from it there (audience.ts). */
  const refuseSharingHiddenDefault = async (command: Command, ctx: CommandContext): Promise<void> => {
    if (!ctx.channelId) return;
    if (!sharesHiddenDefault(command, { hidden: true })) return;
    const chosen = await deps.channels.get(ctx.actor.teamId, ctx.channelId);
    if (sharesHiddenDefault(command, chosen)) throw new InvalidInputError(hiddenDefaultNotShared(base.slashCommand));
  };

  /** Runs what a person did; afterwards the Home keeps nothing it read of them before. */
  const acted = async <T>(actor: Actor, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } finally {
      home?.forget(actor);
    }
  };
  /** On the Home tab, the answer is the Home drawn again, with what the handler said (or what went wrong) on top. */
  const answer = async (surface: Surface, ctx: RequestContext, run: () => Promise<Reply>): Promise<Reply> => {
    if (surface !== 'home') return acted(ctx.actor, run);
    let reply: Reply;
    try {
      reply = await acted(ctx.actor, run);
    } catch (err) {
      // Without a usable token the Home is the Connect Home, which says so itself.
      const connection =
        err instanceof NotConnectedError || err instanceof TokenRevokedError || err instanceof TokenUnreadableError;
      const said = connection ? null : buildErrorMessage(err, words);
      if (!connection && !said) throw err;
      return { kind: 'home', view: await redrawHome(ctx, { shown: said ?? undefined }) };
    }
    switch (reply.kind) {
      case 'message':
      case 'update':
        return { kind: 'home', view: await redrawHome(ctx, { shown: reply.message }) };
      case 'delete':
        return { kind: 'home', view: await redrawHome(ctx) };
      default:
        return reply;
    }
  };

  for (const noun of nouns) {
    const bound = noun.bind(deps, platform);
    for (const [key, handle] of bound.commands) commands.set(key, handle);
    for (const [key, render] of bound.lists) {
      lists.set(key, render);
      if (!commands.has(key)) commands.set(key, listCommand(render));
    }
    for (const [name, button] of bound.buttons) {
      buttons.set(name, (value, ctx) => answer(ctx.surface, ctx, () => button.handle(value, ctx)));
      buttonDefs.set(name, button.def);
    }
    for (const [name, modal] of bound.modals) {
      modals.set(name, async (value, ctx) => {
        const given = await acted(ctx.actor, () => modal.handle(value, ctx));
        return given.kind === 'accept' ? { kind: 'accept', reply: () => answer(ctx.surface, ctx, given.reply) } : given;
      });
      modalDefs.set(name, modal.def);
    }
    for (const [type, handle] of bound.events) events.set(type, handle);
    if (bound.home) home = bound.home;
  }

  return {
    platform,
    dispatch: {
      command: (key) => {
        const handle = commands.get(key);
        return (
          handle &&
          ((command, ctx) =>
            acted(ctx.actor, async () => {
              await refuseSharingHiddenDefault(command, ctx);
              return handle(command, ctx);
            }))
        );
      },
      button: (name) => buttons.get(name),
      buttonDefs,
      modal: (name) => modals.get(name),
      modalDefs,
      event: (type) => events.get(type),
      eventTypes: [...events.keys()],
      redrawHome,
      ships: (key) => commands.has(key),
    },
  };
}

/** A list command answers with page one (or the page it asks for), drawn so that it can redraw itself. */
function listCommand(
  render: (command: Command, ctx: RequestContext, place: ListPlace | null, notice?: Notice) => Promise<SlackMessage>,
) {
  return async (command: Command, ctx: CommandContext): Promise<Reply> => {
    const flags = command.flags as { page?: number };
    const message = await render(command, ctx, listPlaceOf(ctx.text, flags.page));
    // Nothing to show the channel: the person alone hears that the list is empty.
    if (command.share && isEmptyList(message)) return { kind: 'message', message: withEmptyShareNote(message) };
    return { kind: 'message', message, inChannel: command.share };
  };
}
