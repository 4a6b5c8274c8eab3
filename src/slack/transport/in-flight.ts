import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { unescapeSlack } from '../../grammar/text.js';
import { type Respond, respondTo } from '../web-api/respond.js';
import { AFTER_ACK } from './acknowledge.js';
import type { WorkTurns } from './turns.js';
import type { WorkPlaces } from './work-places.js';

// Every request from its arrival until its listener is done (answer delivered, or error told), so that a
// shutdown can finish what was acknowledged and name to each person what may not have completed.

/** What a person asked for, as the interruption notice names it. */
export type Asked =
  | { kind: 'command'; text: string }
  | { kind: 'button'; label: string }
  | { kind: 'form' }
  /** Events (the Home tab): nobody waits on an answer. */
  | { kind: 'event' };

/** A request still running: enough to reach the person who made it. */
export interface Running {
  asked: Asked;
  userId: string;
  channelId: string | null;
  respond: Respond | undefined;
  client: WebClient;
}

export interface InFlight {
  /** Global middleware: counts a request from its arrival until everything after it is done. */
  readonly middleware: Middleware<AnyMiddlewareArgs>;
  readonly size: number;
  /** Resolves once nothing is running, or after `graceMs`, with what was still running then. */
  settle(graceMs: number): Promise<Running[]>;
}

type Body = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const obj = (v: unknown): Body => (v && typeof v === 'object' ? (v as Body) : {});

function askedOf(body: Body): Asked {
  if (typeof body.command === 'string') {
    return { kind: 'command', text: `${body.command} ${unescapeSlack(String(body.text ?? ''))}`.trim() };
  }
  if (body.type === 'block_actions') {
    const first = obj((body.actions as unknown[] | undefined)?.[0]);
    return { kind: 'button', label: str(obj(first.text).text) ?? 'a button' };
  }
  if (body.type === 'view_submission') return { kind: 'form' };
  if (body.type === 'message_action') return { kind: 'button', label: 'a message shortcut' };
  return { kind: 'event' };
}

function runningOf(args: AnyMiddlewareArgs & { client: WebClient }): Running {
  const body = obj(args.body);
  const user = str(body.user_id) ?? str(obj(body.user).id) ?? str(obj(body.event).user) ?? '';
  const channel = str(body.channel_id) ?? str(obj(body.channel).id) ?? str(obj(body.container).channel_id);
  const respond = respondTo((body as { response_url?: unknown }).response_url);
  return { asked: askedOf(body), userId: user, channelId: channel, respond, client: args.client };
}

/** What a request's work waits for after its ack (both made once per app, in app.ts). */
export interface AfterAck {
  turns: WorkTurns;
  places: WorkPlaces;
}

export function createInFlight(after: AfterAck): InFlight {
  const { turns, places } = after;
  // What each request is (who, where, its response_url) is worked out only for a shutdown that names them: the
  // entry is made before every ack and is almost always dropped unread.
  const running = new Set<AnyMiddlewareArgs & { client: WebClient }>();
  let idle: (() => void)[] = [];

  const finished = (entry: AnyMiddlewareArgs & { client: WebClient }) => {
    running.delete(entry);
    if (running.size > 0) return;
    for (const wake of idle) wake();
    idle = [];
  };

  return {
    async middleware(args) {
      running.add(args);
      const done = turns.requestUnderWay();
      const { context } = args;
      // After its ack a request first takes a place among the requests at work (work-places.ts), then its turn
      // (turns.ts), so that a request let in when another leaves still starts in a turn of its own.
      context[AFTER_ACK] = async () => {
        await places.enter(context);
        await turns.nextUnlessAlone();
      };
      try {
        await args.next();
      } finally {
        done();
        places.leave(context);
        finished(args);
      }
    },
    get size() {
      return running.size;
    },
    async settle(graceMs) {
      if (running.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => idle.push(resolve)),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, graceMs);
          }),
        ]);
        clearTimeout(timer);
      }
      return [...running].map(runningOf);
    },
  };
}
