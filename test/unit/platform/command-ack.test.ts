import { describe, expect, it } from 'vitest';
import type { Dispatch } from '../../../src/nouns/assemble.js';
import { registerCommandListener } from '../../../src/slack/routing/commands.js';
import type { CommandHandler, Routes } from '../../../src/slack/routing/routes.js';

// What comes before a command's ack is all the person waits on: for a command that needs their token, nothing but
// the parse. Its context (the session that will read the token row, the clock, the response_url) is made once the
// ack is on its way; a usage error and an answer from the bot's own state still ride on the ack.

function setUp() {
  const order: string[] = [];
  let listener: CommandHandler | undefined;
  const routes = {
    command: (_name: string, handler: CommandHandler) => {
      listener = handler;
    },
  } as unknown as Routes;
  const dispatch = {
    command: () => async () => {
      order.push('handler');
      return { kind: 'none' };
    },
  } as unknown as Dispatch;
  registerCommandListener(routes, {
    dispatch,
    serverUrl: 'https://gitlab.example',
    gitlabUrl: 'https://gitlab.example',
    slashCommand: '/gl',
    sessionOf: () => {
      order.push('session');
      return {
        connection: async () => {
          order.push('connection');
          return { token: 'glpat-x', serverUrl: 'https://gitlab.example', status: 'ok' } as never;
        },
        token: async () => 'glpat-x',
      };
    },
    now: () => {
      order.push('clock');
      return new Date(0);
    },
  });
  const run = async (text: string) => {
    const acks: unknown[] = [];
    await listener?.({
      command: {
        command: '/gl',
        text,
        team_id: 'T1',
        user_id: 'U1',
        user_name: 'alice',
        channel_id: 'C1',
        response_url: 'https://hooks.slack.test/r/1',
        trigger_id: 't',
      },
      ack: async (body?: unknown) => {
        order.push('ack');
        acks.push(body);
      },
      client: {},
      context: {},
      logger: { getLevel: () => 'info' },
    } as never);
    return acks;
  };
  return { order, run };
}

describe("a command's ack", () => {
  it('comes before the context of a command that needs a token is made', async () => {
    const { order, run } = setUp();
    const acks = await run('jobs demo/web');
    expect(acks).toEqual([undefined]);
    expect(order[0]).toBe('ack');
    expect(order).toEqual(expect.arrayContaining(['clock', 'session', 'connection', 'handler']));
  });

  it('still carries a usage error, with nothing else done', async () => {
    const { order, run } = setUp();
    const acks = await run('jobs --no-such-flag');
    expect(order).toEqual(['ack']);
    expect(acks).toHaveLength(1);
    expect(acks[0]).toMatchObject({ response_type: 'ephemeral' });
  });

  it('still carries the answer of a command that needs no token', async () => {
    const { order, run } = setUp();
    await run('help');
    expect(order.indexOf('handler')).toBeLessThan(order.indexOf('ack'));
  });
});
