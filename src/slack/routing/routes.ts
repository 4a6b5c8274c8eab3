import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  BlockAction,
  ButtonAction,
  MessageShortcut,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';

// Which handler of the bot a request goes to, in one lookup. Bolt runs every listener registered with
// app.command/action/view/shortcut/event/function on every request, each through its own chain of matching
// middleware (a copy of the request's arguments per step, and their promises), although at most one of them
// matches: this table takes their place as the last global middleware. It matches as those listeners did:
// - a command by its name;
// - a block action by the action_id of the payload's first action (Bolt's `action`), by prefix;
// - a view_submission by its view's callback_id (a view_closed by nothing);
// - a shortcut (global or on a message) by its callback_id;
// - an Events API event by its type (Bolt acknowledged it already), a function_executed by its function's
//   callback_id, acknowledged here before its handler runs (as app.function's autoAcknowledge did).
// A request nothing matches goes on to Bolt, which has no listener for it either. Registering two handlers that
// could match one request is refused: Bolt would have run both.

type With<A> = A & AllMiddlewareArgs;
export type CommandHandler = (args: With<SlackCommandMiddlewareArgs>) => Promise<void>;
export type ButtonHandler = (args: With<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>>) => Promise<void>;
export type ViewHandler = (args: With<SlackViewMiddlewareArgs<ViewSubmitAction>>) => Promise<void>;
export type ShortcutHandler = (args: With<SlackShortcutMiddlewareArgs<MessageShortcut>>) => Promise<void>;
export type EventHandler = (args: With<SlackEventMiddlewareArgs>) => Promise<void>;
export type FunctionHandler = (args: With<SlackEventMiddlewareArgs<'function_executed'>>) => Promise<void>;

/** A name or a prefix of names. */
export type Name = string | { prefix: string };

export interface Routes {
  command(name: string, handler: CommandHandler): void;
  /** Block actions (buttons) by action_id. */
  action(actionId: Name, handler: ButtonHandler): void;
  /** View submissions by callback_id. */
  view(callbackId: Name, handler: ViewHandler): void;
  shortcut(callbackId: string, handler: ShortcutHandler): void;
  /** Events API events by type (function_executed goes to `function`). */
  event(type: string, handler: EventHandler): void;
  /** function_executed events (Workflow Builder steps) by the function's callback_id. */
  function(callbackId: string, handler: FunctionHandler): void;
  /** The global middleware that hands each request to its handler; it goes after every other one. */
  readonly middleware: Middleware<AnyMiddlewareArgs>;
}

// biome-ignore lint/suspicious/noExplicitAny: each table holds handlers of one kind; the middleware calls them with Bolt's arguments
type AnyHandler = (args: any) => Promise<void>;

/** Handlers by exact name and by prefix, refusing any two that could match the same name. */
class Table {
  private readonly exact = new Map<string, AnyHandler>();
  private readonly prefixes: [string, AnyHandler][] = [];

  constructor(private readonly kind: string) {}

  add(name: Name, handler: AnyHandler): void {
    const clash = (what: string) => {
      throw new Error(`two handlers for the ${this.kind} ${what}`);
    };
    if (typeof name === 'string') {
      if (this.exact.has(name) || this.prefixes.some(([p]) => name.startsWith(p))) clash(name);
      this.exact.set(name, handler);
      return;
    }
    const { prefix } = name;
    if (!prefix) clash('with an empty prefix');
    for (const id of this.exact.keys()) if (id.startsWith(prefix)) clash(id);
    for (const [p] of this.prefixes) if (p.startsWith(prefix) || prefix.startsWith(p)) clash(`${prefix}…`);
    this.prefixes.push([prefix, handler]);
  }

  find(name: unknown): AnyHandler | undefined {
    if (typeof name !== 'string') return undefined;
    const handler = this.exact.get(name);
    if (handler) return handler;
    for (const [p, h] of this.prefixes) if (name.startsWith(p)) return h;
    return undefined;
  }
}

type Body = Record<string, unknown>;
const obj = (v: unknown): Body | undefined => (v && typeof v === 'object' ? (v as Body) : undefined);

export function createRoutes(): Routes {
  const commands = new Table('command');
  const actions = new Table('action');
  const views = new Table('view');
  const shortcuts = new Table('shortcut');
  const events = new Table('event');
  const functions = new Table('function');

  /** The handler of a request, from the arguments Bolt made of it (which say what kind of request it is). */
  const handlerOf = (args: Body): AnyHandler | undefined => {
    const event = obj(args.event);
    if (event) {
      if (event.type !== 'function_executed') return events.find(event.type);
      const run = functions.find(obj(event.function)?.callback_id);
      if (!run) return undefined;
      return async (a: { ack?: () => Promise<void> }) => {
        if (a.ack !== undefined) await a.ack();
        await run(a);
      };
    }
    const command = obj(args.command);
    if (command) return commands.find(command.command);
    const action = obj(args.action);
    if (action) return actions.find(action.action_id);
    const body = obj(args.body);
    if ('view' in args) {
      return body?.type === 'view_submission' ? views.find(obj(body.view)?.callback_id) : undefined;
    }
    if (args.shortcut) return shortcuts.find(body?.callback_id);
    return undefined;
  };

  return {
    command: (name, handler) => commands.add(name, handler),
    action: (actionId, handler) => actions.add(actionId, handler),
    view: (callbackId, handler) => views.add(callbackId, handler),
    shortcut: (callbackId, handler) => shortcuts.add(callbackId, handler),
    event(type, handler) {
      if (type === 'function_executed') throw new Error('function_executed events are routed by function');
      events.add(type, handler);
    },
    function: (callbackId, handler) => functions.add(callbackId, handler),
    // The handler gets the middleware's own arguments: no handler calls `next`.
    async middleware(args) {
      const handler = handlerOf(args as unknown as Body);
      if (handler) await handler(args);
      else await args.next();
    },
  };
}
