import { StaleActionError } from '../errors.js';
import { type Command, type CommandKey, parseCommand, SPEC } from '../grammar/index.js';
import type { ButtonDef, ModalDef } from '../ids.js';
import type { RequestContext } from '../operations/context.js';
import type { SlackMessage } from '../views/blocks.js';
import { type ListPlace, listPlaceOf } from '../views/lists.js';
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
} from './types.js';

// Turns the list of nouns into the tables listeners dispatch on. A list command needs no handler of
// its own: page one of its renderer answers the command, and Next page redraws it from the command
// text its buttons carry.

export interface Dispatch {
  command(key: CommandKey): ((cmd: Command, ctx: CommandContext) => Promise<Reply>) | undefined;
  button(name: string): ((value: unknown, ctx: ButtonContext) => Promise<Reply>) | undefined;
  /** Every registered button, for decoding clicks. */
  readonly buttonDefs: ReadonlyMap<string, ButtonDef>;
  modal(name: string): ((value: unknown, ctx: ModalContext) => Promise<ModalAnswer>) | undefined;
  /** Every registered modal, for decoding submissions. */
  readonly modalDefs: ReadonlyMap<string, ModalDef>;
  /** Whether a command of the language is carried out by this bot (help advertises only those). */
  ships(key: CommandKey): boolean;
}

/** Problems with a set of nouns: a key or button registered twice, a noun shipped in part. */
export function findRegistrationGaps(nouns: readonly Noun[], spec: readonly { key: string; noun: string }[]): string[] {
  const problems: string[] = [];
  const commandOwner = new Map<string, string>();
  const buttonOwner = new Map<string, string>();
  const modalOwner = new Map<string, string>();
  for (const n of nouns) {
    for (const key of n.commandKeys) {
      const owner = commandOwner.get(key);
      if (owner) problems.push(`command ${key} is registered by both ${owner} and ${n.name}`);
      commandOwner.set(key, n.name);
    }
    for (const def of n.buttonDefs) {
      const owner = buttonOwner.get(def.name);
      if (owner) problems.push(`button ${def.name} is registered by both ${owner} and ${n.name}`);
      buttonOwner.set(def.name, n.name);
    }
    for (const def of n.modalDefs) {
      const owner = modalOwner.get(def.name);
      if (owner) problems.push(`modal ${def.name} is registered by both ${owner} and ${n.name}`);
      modalOwner.set(def.name, n.name);
    }
  }
  const shippedNouns = new Set(spec.filter((e) => commandOwner.has(e.key)).map((e) => e.noun));
  for (const e of spec) {
    if (shippedNouns.has(e.noun) && !commandOwner.has(e.key)) {
      problems.push(`command ${e.key} has no handler, though other commands of \`${e.noun}\` do`);
    }
  }
  for (const key of commandOwner.keys()) {
    if (!spec.some((e) => e.key === key)) problems.push(`command ${key} is registered but not in the command table`);
  }
  return problems;
}

export function assemble(
  nouns: readonly Noun[],
  deps: OperationDeps,
  base: Omit<Platform, 'redrawList' | 'ships'>,
): { dispatch: Dispatch; platform: Platform } {
  const gaps = findRegistrationGaps(nouns, SPEC);
  if (gaps.length > 0) throw new Error(`the nouns do not fit together:\n${gaps.join('\n')}`);

  const commands = new Map<CommandKey, (cmd: Command, ctx: CommandContext) => Promise<Reply>>();
  const lists = new Map<CommandKey, BoundNoun['lists'] extends ReadonlyMap<CommandKey, infer R> ? R : never>();
  const buttons = new Map<string, (value: unknown, ctx: ButtonContext) => Promise<Reply>>();
  const buttonDefs = new Map<string, ButtonDef>();
  const modals = new Map<string, (value: unknown, ctx: ModalContext) => Promise<ModalAnswer>>();
  const modalDefs = new Map<string, ModalDef>();

  const redrawList: Platform['redrawList'] = async (place, ctx, o = {}) => {
    const parsed = parseCommand(place.query, { serverUrl: base.serverUrl, slashCommand: base.slashCommand });
    const render = parsed.ok ? lists.get(parsed.command.key) : undefined;
    if (!parsed.ok || !render || (o.expect && parsed.command.key !== o.expect)) {
      throw new StaleActionError('the list this button belongs to cannot be read again');
    }
    const cmd = parsed.command as Command & { flags: { page?: number } };
    const paged = { ...cmd, flags: { ...cmd.flags, page: place.page } } as Command;
    return render(paged, ctx, place, o.notice);
  };
  const platform: Platform = { ...base, redrawList, ships: (key) => commands.has(key) };

  for (const n of nouns) {
    const bound = n.bind(deps, platform);
    for (const [key, handle] of bound.commands) commands.set(key, handle);
    for (const [key, render] of bound.lists) {
      lists.set(key, render);
      if (!commands.has(key)) commands.set(key, listCommand(render));
    }
    for (const [name, b] of bound.buttons) {
      buttons.set(name, b.handle);
      buttonDefs.set(name, b.def);
    }
    for (const [name, m] of bound.modals) {
      modals.set(name, m.handle);
      modalDefs.set(name, m.def);
    }
  }

  return {
    platform,
    dispatch: {
      command: (key) => commands.get(key),
      button: (name) => buttons.get(name),
      buttonDefs,
      modal: (name) => modals.get(name),
      modalDefs,
      ships: (key) => commands.has(key),
    },
  };
}

/** A list command answers with page one (or the page it asks for), drawn so that it can redraw itself. */
function listCommand(
  render: (cmd: Command, ctx: RequestContext, place: ListPlace | null, notice?: Notice) => Promise<SlackMessage>,
) {
  return async (cmd: Command, ctx: CommandContext): Promise<Reply> => {
    const flags = cmd.flags as { page?: number };
    const message = await render(cmd, ctx, listPlaceOf(ctx.text, flags.page));
    return { kind: 'message', message, inChannel: cmd.share };
  };
}
