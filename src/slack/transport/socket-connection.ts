import type { SocketModeReceiver } from '@slack/bolt';
import type { Logger } from '../../log.js';
import { refusesToken, slackErrorCode } from '../../slack-errors.js';

// Keeps the Socket Mode connection up. Bolt's own reconnection retries only some failures and lets the rest
// escape as an unhandled rejection: a refused app token (or Slack unreachable) while reconnecting after a
// dropped socket ended the process. Here every failure is caught, said on /healthz, and tried again with a
// growing wait, until the connection is back or the bot stops.

type SocketClient = SocketModeReceiver['client'];

export type SocketState =
  | { kind: 'connected' }
  | { kind: 'connecting' }
  /** Slack refused SLACK_APP_TOKEN (its error code, e.g. `invalid_auth`). */
  | { kind: 'refused'; error: string };

/** Whether a failed apps.connections.open says the app-level token itself is no good. */
export function isRefusedAppToken(err: unknown): boolean {
  return refusesToken(slackErrorCode(err));
}

export interface SocketConnection {
  readonly state: SocketState;
  /**
   * The first connection, made by `connect` (Bolt's `app.start()`, which also opens the HTTP port): a refused
   * token rejects; any other failure is tried again in the background.
   */
  start(connect: () => Promise<unknown>): Promise<void>;
  /** No more attempts; closes the socket. */
  stop(): Promise<void>;
}

/**
 * Owns the reconnection of a Socket Mode client built with `autoReconnectEnabled: false` (with it, a closed
 * socket emits `disconnected` and nothing else happens).
 */
export function keepSocketConnected(
  client: SocketClient,
  o: { logger: Logger; firstRetryMs?: number; maxRetryMs?: number },
): SocketConnection {
  const { firstRetryMs = 200, maxRetryMs = 30_000 } = o;
  let state: SocketState = { kind: 'connecting' };
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let attempting = false;

  // Only a stop (ours or Bolt's app.stop()) disconnects the client itself: no attempt follows it.
  client.on('disconnecting', () => {
    stopped = true;
    clearTimeout(timer);
    timer = undefined;
  });
  client.on('connected', () => {
    if (failures > 0 || state.kind !== 'connecting') o.logger.info('connected to Slack again (Socket Mode)');
    failures = 0;
    state = { kind: 'connected' };
  });
  client.on('disconnected', () => {
    if (stopped) return;
    if (state.kind === 'connected') o.logger.warn('the socket to Slack closed; connecting again');
    if (state.kind !== 'refused') state = { kind: 'connecting' };
    schedule();
  });

  function schedule(): void {
    if (stopped || timer || attempting) return;
    const wait = Math.min(maxRetryMs, firstRetryMs * 2 ** failures);
    failures += 1;
    timer = setTimeout(() => {
      timer = undefined;
      void attempt();
    }, wait);
  }

  async function attempt(): Promise<void> {
    if (stopped || attempting) return;
    attempting = true;
    try {
      await client.start();
    } catch (err) {
      if (isRefusedAppToken(err)) {
        const error = slackErrorCode(err) ?? 'refused';
        if (state.kind !== 'refused') o.logger.error('Slack refused SLACK_APP_TOKEN; trying again', { error });
        state = { kind: 'refused', error };
      } else {
        if (state.kind === 'refused') state = { kind: 'connecting' };
        o.logger.warn('could not connect to Slack (Socket Mode); trying again', {
          error: slackErrorCode(err) ?? (err instanceof Error ? err.message : String(err)),
        });
      }
      attempting = false;
      schedule();
      return;
    }
    attempting = false;
  }

  return {
    get state() {
      return state;
    },
    async start(connect) {
      attempting = true;
      try {
        await connect();
        attempting = false;
      } catch (err) {
        attempting = false;
        // A token refused at start is the operator's to fix: the caller stops the bot and says so.
        if (isRefusedAppToken(err)) throw err;
        o.logger.warn('could not connect to Slack (Socket Mode); trying again', {
          error: slackErrorCode(err) ?? (err instanceof Error ? err.message : String(err)),
        });
        schedule();
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await client.disconnect();
    },
  };
}
