import type { Context } from '@slack/bolt';
import { nextWorkTurnUnlessAlone } from './turns.js';
import { workPlaces } from './work-places.js';

// Bolt hands every listener a fresh copy of its arguments but one shared context: the
// mark lives there, so the error middleware knows whether the request still needs its ack.

const ACKED = 'glAcknowledged';

type AnyAck = (body?: never) => Promise<void>;

export async function acknowledge(context: Context, ack: unknown, body?: unknown): Promise<void> {
  if (typeof ack !== 'function' || context[ACKED]) return;
  context[ACKED] = true;
  await (ack as AnyAck)(body as never);
  // The request's own work (an API call, a view, a post) waits for its event-loop turn (turns.ts): the ack and
  // Bolt's bookkeeping for it finish first, and under a burst new connections are still accepted promptly
  // (`npm run bench` measures both; the README's Benchmarks section has the figures). A request alone in the process
  // goes on at once. First it takes a place among the requests at work (work-places.ts), then its turn, so that a
  // request let in when another leaves still starts in a turn of its own.
  await workPlaces.enter(context);
  await nextWorkTurnUnlessAlone();
}

export function isAcknowledged(context: Context): boolean {
  return context[ACKED] === true;
}

// A modal's submission carries no channel: the listener marks where its answers (and errors) go.
const ANSWER_CHANNEL = 'glAnswerChannel';

export function setAnswerChannel(context: Context, channelId: string | null): void {
  context[ANSWER_CHANNEL] = channelId;
}

export function answerChannelOf(context: Context): string | null {
  const channel = context[ANSWER_CHANNEL];
  return typeof channel === 'string' ? channel : null;
}
