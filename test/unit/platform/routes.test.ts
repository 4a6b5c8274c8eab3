import { type AnyMiddlewareArgs, App, type Receiver } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/slack/routing/routes.js';

// The routing table takes the place of the Bolt listeners the bot registered (one per command, button prefix,
// view, shortcut, event type and workflow step): every kind of request Slack sends must still reach the handler
// that listener reached, and nothing else. Requests go through a real Bolt App, which makes the arguments the
// table reads.

const quietLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => 'error' as never,
  setName: () => {},
};

const receiver: Receiver = { init: () => {}, start: async () => {}, stop: async () => {} };
/** A Bolt app that asks Slack nothing: its one workspace is authorized as it is. */
const newApp = () => new App({ authorize: async () => ({ botToken: 'xoxb-test' }), receiver, logger: quietLogger });

function setUp() {
  const seen: string[] = [];
  const routes = createRoutes();
  const handled = (name: string) => async () => {
    seen.push(name);
  };
  routes.command('/gl', handled('command'));
  routes.action({ prefix: 'gl:' }, handled('button'));
  routes.action({ prefix: 'gl-step:' }, handled('consent'));
  routes.view('gl:connect', handled('connect'));
  routes.view({ prefix: 'gl:modal:' }, handled('modal'));
  routes.shortcut('gl_issue_from_message', handled('shortcut'));
  routes.event('app_home_opened', handled('home'));
  routes.event('link_shared', handled('links'));
  routes.function('run_pipeline', async ({ ack }) => {
    seen.push(`run_pipeline after ${ack === undefined ? 'no ack' : 'its ack'}`);
  });
  routes.function('create_issue', handled('create_issue'));

  const app = newApp();
  const errors: unknown[] = [];
  app.use(async ({ next }) => {
    try {
      await next();
    } catch (err) {
      errors.push(err);
    }
  });
  app.use(routes.middleware);
  // Whatever the table does not take goes on past it.
  app.use(async ({ body }) => {
    seen.push(`passed on: ${String((body as { type?: string }).type ?? 'command')}`);
  });
  const send = async (body: Record<string, unknown>) => {
    const acks: unknown[] = [];
    await app.processEvent({
      body,
      ack: async (response?: unknown) => {
        acks.push(response ?? 'ack');
        seen.push('ack');
      },
    });
    return acks;
  };
  return { app, routes, seen, errors, send };
}

const team = { id: 'T0TEAM' };
const user = { id: 'U0ALICE', team_id: 'T0TEAM' };
const command = (name: string) => ({ command: name, text: 'help', team_id: 'T0TEAM', user_id: 'U0ALICE' });
const clicks = (...actionIds: string[]) => ({
  type: 'block_actions',
  team,
  user,
  actions: actionIds.map((action_id) => ({ type: 'button', action_id, block_id: 'b', value: '{}' })),
});
const view = (type: string, callback_id: string) => ({ type, team, user, view: { id: 'V1', callback_id } });
const shortcut = (type: string, callback_id: string) => ({ type, team, user, callback_id });
const event = (e: Record<string, unknown>) => ({
  type: 'event_callback',
  team_id: 'T0TEAM',
  event_id: 'Ev1',
  event: e,
});
const functionExecuted = (callback_id: string) =>
  event({ type: 'function_executed', function: { callback_id }, function_execution_id: 'Fx1', inputs: {} });

describe('the routing table', () => {
  it.each([
    ['the slash command', command('/gl'), ['command']],
    ['another slash command', command('/other'), ['passed on: command']],
    ['a button of the bot', clicks('gl:job.retry'), ['button']],
    [
      'a button of the bot it no longer knows (the handler says it is out of date)',
      clicks('gl:job.explode'),
      ['button'],
    ],
    ['the answer to a workflow step’s question', clicks('gl-step:run_pipeline:once'), ['consent']],
    ['a button that is not the bot’s', clicks('other:x'), ['passed on: block_actions']],
    [
      'a button of the bot second in its payload (Bolt reads the first)',
      clicks('x', 'gl:job.retry'),
      ['passed on: block_actions'],
    ],
    ['the Connect form', view('view_submission', 'gl:connect'), ['connect']],
    ['a form of a noun', view('view_submission', 'gl:modal:issue.create'), ['modal']],
    ['a form of the bot closed', view('view_closed', 'gl:modal:issue.create'), ['passed on: view_closed']],
    ['a form that is not the bot’s', view('view_submission', 'gl:other'), ['passed on: view_submission']],
    ['the message shortcut', shortcut('message_action', 'gl_issue_from_message'), ['shortcut']],
    [
      'a global shortcut of the same id (as Bolt matched it)',
      shortcut('shortcut', 'gl_issue_from_message'),
      ['shortcut'],
    ],
    ['another shortcut', shortcut('message_action', 'other'), ['passed on: message_action']],
    ['the Home tab opened', event({ type: 'app_home_opened', user: 'U0ALICE' }), ['ack', 'home']],
    ['a link shared', event({ type: 'link_shared', user: 'U0ALICE', channel: 'C1' }), ['ack', 'links']],
    [
      'an event the bot does not handle',
      event({ type: 'reaction_added', user: 'U0ALICE' }),
      ['ack', 'passed on: event_callback'],
    ],
    [
      'a workflow step run, acknowledged first',
      functionExecuted('run_pipeline'),
      ['ack', 'run_pipeline after its ack'],
    ],
    ['another workflow step', functionExecuted('create_issue'), ['ack', 'create_issue']],
    ['a function that is not the bot’s, not acknowledged', functionExecuted('other'), ['passed on: event_callback']],
  ])('takes %s where the Bolt listener took it', async (_what, body, expected) => {
    const { seen, errors, send } = setUp();
    await send(body);
    expect(seen).toEqual(expected);
    expect(errors).toEqual([]);
  });

  it('hands a handler’s error to the middleware before it, as a listener’s', async () => {
    const routes = createRoutes();
    const failure = new Error('boom');
    routes.command('/gl', async () => {
      throw failure;
    });
    const app = newApp();
    const errors: unknown[] = [];
    app.use(async ({ next }) => {
      await next().catch((err: unknown) => errors.push(err));
    });
    app.use(routes.middleware);
    await app.processEvent({ body: command('/gl'), ack: async () => {} });
    expect(errors).toEqual([failure]);
  });

  it('gives each handler the arguments Bolt gives a listener', async () => {
    const routes = createRoutes();
    let got: Record<string, unknown> = {};
    routes.action({ prefix: 'gl:' }, async (args) => {
      got = { action: args.action.action_id, user: args.body.user.id, context: args.context.teamId };
      await args.ack();
    });
    const app = newApp();
    app.use(routes.middleware as (args: AnyMiddlewareArgs) => Promise<void>);
    let acked = false;
    await app.processEvent({
      body: clicks('gl:job.retry'),
      ack: async () => {
        acked = true;
      },
    });
    expect(got).toEqual({ action: 'gl:job.retry', user: 'U0ALICE', context: 'T0TEAM' });
    expect(acked).toBe(true);
  });

  it('refuses two handlers that could take the same request (Bolt would have run both)', () => {
    const routes = createRoutes();
    const h = async () => {};
    routes.command('/gl', h);
    routes.action({ prefix: 'gl:' }, h);
    routes.view('gl:connect', h);
    routes.event('app_home_opened', h);
    expect(() => routes.command('/gl', h)).toThrow(/two handlers for the command \/gl/);
    expect(() => routes.action({ prefix: 'gl:job.' }, h)).toThrow(/two handlers/);
    expect(() => routes.action({ prefix: 'g' }, h)).toThrow(/two handlers/);
    expect(() => routes.action('gl:job.retry', h)).toThrow(/two handlers/);
    expect(() => routes.view({ prefix: 'gl:' }, h)).toThrow(/two handlers for the view gl:connect/);
    expect(() => routes.event('app_home_opened', h)).toThrow(/two handlers/);
    expect(() => routes.event('function_executed', h)).toThrow(/routed by function/);
    expect(() => routes.action({ prefix: 'gl-step:' }, h)).not.toThrow();
  });
});
