import type { Server } from 'node:http';
import { App, type Logger as BoltLogger, LogLevel, SocketModeReceiver, webApi } from '@slack/bolt';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { neverAnswered, refusesToken, slackErrorCode } from '../../slack-errors.js';
import type { ClaimStore } from '../../store/claim-store.js';
import { createReplayMemory, createStoredReplayMemory } from './request-guard.js';
import { type GetRoutes, SignedReceiver } from './signed-receiver.js';
import { isRefusedAppToken, keepSocketConnected } from './socket-connection.js';

// The Bolt app in HTTP or Socket Mode, with the operator's GET routes (/healthz, /readyz, /metrics) on the same port
// either way. `problem()` says why Slack's requests cannot be taken (draining; in Socket Mode, the socket down).

const BOLT_LEVELS: Record<string, LogLevel> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

/** Bolt and its Web API client log through our (pino) logger, so their lines are JSON and redacted too. */
function boltLoggerFrom(logger: Logger): BoltLogger {
  const line = (msg: unknown[]) =>
    msg.map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m))).join(' ');
  const child = logger.child({ component: 'bolt' });
  return {
    // Bolt logs at debug on every ack: the line is only put together when it will be written.
    debug: (...msg) => {
      if (logger.level === 'debug') child.debug(line(msg));
    },
    info: (...msg) => child.info(line(msg)),
    warn: (...msg) => child.warn(line(msg)),
    error: (...msg) => child.error(line(msg)),
    setLevel: () => {},
    // pino's `silent` (nothing at all) is nearest Bolt's ERROR.
    getLevel: () => BOLT_LEVELS[logger.level] ?? LogLevel.ERROR,
    setName: () => {},
  };
}

/** How the Slack side waits between tries; the defaults are Slack's own, tests shorten them. */
export interface SlackTiming {
  /** How Bolt's Web API client retries a failed call (default: ten retries in about thirty minutes). */
  retry?: webApi.RetryOptions;
  /** Socket Mode: how long a ping may go unanswered, and the step between reconnects (default 5000 ms). */
  socketPingTimeoutMs?: number;
}

export interface SlackApp {
  app: App;
  /** Starts serving; resolves with the HTTP port once Slack can reach the bot. */
  start(): Promise<{ port: number }>;
  /** Resolves with the HTTP port once it is bound: in Socket Mode before Slack has said hello. */
  listening(): Promise<{ port: number }>;
  /**
   * The first step of a shutdown: no new request is taken from now on (HTTP answers 503, Socket Mode closes
   * the socket) and /readyz says 503, while requests already taken go on.
   */
  stopAccepting(): Promise<void>;
  /** Why no request from Slack can be taken now (shutting down, socket down), or null. */
  problem(): string | null;
}

/** The port a server bound (port 0 asks for any free one), once it listens. */
function boundPort(server: () => Server | undefined, fallback: number): Promise<{ port: number }> {
  const portOf = () => {
    const address = server()?.address();
    return { port: address && typeof address === 'object' ? address.port : fallback };
  };
  const s = server();
  if (!s || s.listening) return Promise.resolve(portOf());
  return new Promise((resolve, reject) => {
    s.once('listening', () => resolve(portOf()));
    s.once('error', reject);
  });
}

export function createSlackApp(o: {
  config: Config;
  logger: Logger;
  /** The Web API client's `fetch` (the metrics of Slack calls); default the global one. */
  fetch?: webApi.WebClientOptions['fetch'];
  timing?: SlackTiming;
  /** Where seen signatures are claimed, so that every replica (and a restart) refuses a replay. */
  claims?: ClaimStore;
  /** GET routes on the same port as Slack's requests (/healthz, /readyz, /metrics), in either mode (GetRoutes). */
  routes: GetRoutes;
}): SlackApp {
  const { config } = o;
  const boltLogger = boltLoggerFrom(o.logger);
  const clientOptions = {
    ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
    ...(o.timing?.retry ? { retryConfig: o.timing.retry } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
    logger: boltLogger,
  };
  let socketProblem: () => string | null = () => null;
  let accepting = true;

  const problem = () => (accepting ? socketProblem() : 'shutting down');

  if (config.slack.mode === 'socket') {
    const receiver = new SocketModeReceiver({
      appToken: config.slack.appToken ?? '',
      logger: boltLogger,
      // The same table as in HTTP mode, as Bolt's custom routes.
      customRoutes: Object.entries(o.routes).map(([path, handler]) => ({ path, method: ['GET'], handler })),
      installerOptions: { port: config.port, clientOptions },
      // Reconnecting is ours (socket-connection.ts): Bolt's lets some failures end the process.
      autoReconnectEnabled: false,
      ...(o.timing?.socketPingTimeoutMs ? { clientPingTimeout: o.timing.socketPingTimeoutMs } : {}),
    });
    const connection = keepSocketConnected(receiver.client, { logger: o.logger.child({ component: 'socket' }) });
    socketProblem = () => {
      const { state } = connection;
      if (state.kind === 'refused') return `Slack refused SLACK_APP_TOKEN (${state.error})`;
      return state.kind === 'connected' ? null : 'not connected to Slack';
    };
    const app = new App({
      token: config.slack.botToken,
      receiver,
      logger: boltLogger,
      clientOptions,
      convoStore: false,
    });
    const httpServer = () => (receiver as unknown as { httpServer?: Server }).httpServer;
    return {
      app,
      async start() {
        try {
          await connection.start(() => app.start());
        } catch (err) {
          if (!isRefusedAppToken(err)) throw err;
          throw new Error(
            `Slack refused SLACK_APP_TOKEN (${slackErrorCode(err)}). Create an app-level token with the connections:write scope (Basic Information → App-Level Tokens) and set it again.`,
          );
        }
        return boundPort(httpServer, config.port);
      },
      listening: () => boundPort(httpServer, config.port),
      async stopAccepting() {
        accepting = false;
        await connection.stop();
      },
      problem,
    };
  }

  // Requests to /slack/events pass the bot's checks (signature, both ends of the window, replays, shutdown, the
  // body's shape) in its own receiver (signed-receiver.ts), which hands them to Bolt through processEvent.
  const log = o.logger.child({ component: 'receiver' });
  const memory = o.claims
    ? createStoredReplayMemory(o.claims, (err) =>
        log.warn('could not record a signature in the database; this process remembers it alone', {
          error: err instanceof Error ? err.message : String(err),
        }),
      )
    : createReplayMemory();
  const receiver = new SignedReceiver({
    signingSecret: config.slack.signingSecret ?? '',
    port: config.port,
    memory,
    routes: o.routes,
    boltLogger,
    logger: log,
  });
  const app = new App({ token: config.slack.botToken, receiver, logger: boltLogger, clientOptions, convoStore: false });
  let server: Server | undefined;
  let started: Promise<{ port: number }> | undefined;
  return {
    app,
    start() {
      started = (async () => {
        server = (await app.start(config.port)) as Server;
        return boundPort(() => server, config.port);
      })();
      return started;
    },
    listening: () => started ?? Promise.reject(new Error('the app has not been started')),
    async stopAccepting() {
      accepting = false;
      receiver.stopAccepting();
    },
    problem,
  };
}

export type BotTokenCheck = { ok: true; team: string | null } | { ok: false; refused: boolean; error: string };

/** One `auth.test` with the bot token, without the Web API client's long retries. */
export async function checkBotToken(config: Config): Promise<BotTokenCheck> {
  const client = new webApi.WebClient(config.slack.botToken, {
    ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
    retryConfig: { retries: 0 },
    timeout: 5000,
    logLevel: LogLevel.ERROR,
  });
  try {
    const res = await client.auth.test();
    return { ok: true, team: typeof res.team === 'string' ? res.team : null };
  } catch (err) {
    const code = slackErrorCode(err);
    const error = code ?? (neverAnswered(err) ? 'unreachable' : 'unexpected answer');
    // A refused bot token: the bot cannot work until an operator fixes it.
    return { ok: false, refused: refusesToken(code), error };
  }
}
