import crypto from 'node:crypto';
import type { AnyMiddlewareArgs, Context, Middleware } from '@slack/bolt';
import type { Logger } from '../../log.js';
import type { CommandOutcome, Metrics, RequestKind } from '../../metrics/metrics.js';

// Every request from Slack gets an id when it reaches the app: its log lines carry it (`req`), and so does the
// reference a person reads when something unexpected went wrong, so the operator finds the one in the other. The
// same middleware times the ack and the answer and counts commands by noun, verb and outcome.

const OBSERVED = 'glObserved';

interface Observed {
  id: string;
  started: number;
  kind: RequestKind;
  acked: boolean;
  command: { noun: string; verb: string } | null;
  refused: boolean;
  log: Logger | null;
  metrics: Metrics;
  /** The app's logger, whose child with the request's id is made when the request first logs. */
  base: Logger;
}

const observedOf = (context: Context): Observed | undefined => context[OBSERVED] as Observed | undefined;

function kindOf(body: Record<string, unknown>): RequestKind {
  if (typeof body.command === 'string') return 'command';
  switch (body.type) {
    case 'block_actions':
      return 'button';
    case 'view_submission':
    case 'view_closed':
      return 'form';
    case 'event_callback':
      return 'event';
    case 'message_action':
    case 'shortcut':
      return 'shortcut';
    default:
      return 'other';
  }
}

/**
 * Eight random hex digits. A version-4 UUID's first eight are random, and Node draws UUIDs from a buffer of entropy
 * it refills in batches, where `randomBytes(4)` asks OpenSSL on every request, before the ack (about 2.4 µs against
 * 0.3 µs, warm).
 */
const requestId = (): string => crypto.randomUUID().slice(0, 8);

export function createRequestObserver(o: { metrics: Metrics; logger: Logger }): Middleware<AnyMiddlewareArgs> {
  const { metrics } = o;
  return async ({ context, body, next }) => {
    const started = performance.now();
    const seen: Observed = {
      id: requestId(),
      started,
      kind: kindOf(body as Record<string, unknown>),
      acked: false,
      command: null,
      refused: false,
      log: null,
      metrics,
      base: o.logger,
    };
    context[OBSERVED] = seen;
    let outcome: CommandOutcome = 'ok';
    try {
      await next();
      if (seen.refused) outcome = 'refused';
    } catch (err) {
      outcome = 'error';
      throw err;
    } finally {
      metrics.answered(seen.kind, (performance.now() - started) / 1000);
      if (seen.kind === 'command') {
        const c = seen.command ?? { noun: 'unknown', verb: 'unknown' };
        metrics.command(c.noun, c.verb, outcome);
      }
    }
  };
}

/** Called once the ack has gone to Slack (acknowledge.ts). */
export function markAcked(context: Context): void {
  const seen = observedOf(context);
  if (!seen || seen.acked) return;
  seen.acked = true;
  seen.metrics.acked(seen.kind, (performance.now() - seen.started) / 1000);
}

/** What command the request was, by the grammar's key (`pipeline.list` → noun `pipeline`, verb `list`). */
export function markCommand(context: Context, key: string): void {
  const seen = observedOf(context);
  if (!seen) return;
  const dot = key.indexOf('.');
  seen.command = dot < 0 ? { noun: key, verb: 'default' } : { noun: key.slice(0, dot), verb: key.slice(dot + 1) };
}

/** The request was answered with a refusal (a usage message, a known error, "connect first"), not an error. */
export function markRefused(context: Context): void {
  const seen = observedOf(context);
  if (seen) seen.refused = true;
}

/** The request's id, as its log lines and its error reference carry it (null outside a request). */
export function requestIdOf(context: Context): string | null {
  return observedOf(context)?.id ?? null;
}

/**
 * Whether the request's debug lines would be written: asked of the app's logger, so that a request that logs nothing
 * at debug makes no child logger (pino builds and redacts a child's bindings when it is made).
 */
export function logsDebug(context: Context): boolean {
  return observedOf(context)?.base.level === 'debug';
}

/** A logger whose lines carry the request's id (`req`), or null outside a request the app observed. */
export function requestLogger(context: Context): Logger | null {
  const seen = observedOf(context);
  if (!seen) return null;
  seen.log ??= seen.base.child({ req: seen.id });
  return seen.log;
}
