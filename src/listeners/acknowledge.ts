import type { AckFn, Context } from '@slack/bolt';

// Bolt hands every listener a fresh copy of its arguments but one shared context: the
// mark lives there, so the error middleware knows whether the request still needs its ack.

const ACKED = 'glAcknowledged';

export async function acknowledge<T>(context: Context, ack: AckFn<T> | undefined, body?: T): Promise<void> {
  if (!ack || context[ACKED]) return;
  context[ACKED] = true;
  await (body === undefined ? (ack as () => Promise<void>)() : ack(body));
}

export function isAcknowledged(context: Context): boolean {
  return context[ACKED] === true;
}
