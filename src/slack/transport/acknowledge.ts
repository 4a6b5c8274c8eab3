import type { Context } from '@slack/bolt';
import { markAcked } from './observe-requests.js';

// Bolt hands every listener a fresh copy of its arguments but one shared context: the
// mark lives there, so the error middleware knows whether the request still needs its ack.

const ACKED = 'glAcknowledged';

type AnyAck = (body?: never) => Promise<void>;

export async function acknowledge(context: Context, ack: unknown, body?: unknown): Promise<void> {
  if (typeof ack !== 'function' || context[ACKED]) return;
  context[ACKED] = true;
  await (ack as AnyAck)(body as never);
  markAcked(context);
  // The request's own work (an API call, a view, a post) waits for what the in-flight middleware put in its context
  // (a work place, then its event-loop turn: in-flight.ts).
  const afterAck = context[AFTER_ACK];
  if (typeof afterAck === 'function') await (afterAck as () => Promise<void>)();
}

/** Where the in-flight middleware leaves what a request waits for between its ack and its own work. */
export const AFTER_ACK = 'glAfterAck';

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
