import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  type App,
  type Logger as BoltLogger,
  HTTPModuleFunctions,
  HTTPResponseAck,
  type Receiver,
  type ReceiverEvent,
} from '@slack/bolt';
import type { Logger } from '../../log.js';
import { checkSignedRequest, type ReplayMemory } from './request-guard.js';

// The bot's HTTP receiver: Bolt's documented door for a transport of one's own (a `Receiver` whose requests end in
// `app.processEvent`, acknowledged through Bolt's HTTPResponseAck). It does what Bolt's HTTPReceiver does for
// POST /slack/events, plus the checks HTTPReceiver has no option for (request-guard.ts): a timestamp from the
// future, a signature seen before (remembered in the database, across replicas and restarts), a body Slack never
// sends; and, during a shutdown, 503 to every new request while the ones taken finish.

/** Answers a GET on the receiver's port (e.g. /healthz, /readyz, /metrics). */
export type GetRoute = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Extra GET routes by exact path: `{ '/readyz': (req, res) => … }`. Anything else is answered 404. */
export type GetRoutes = Readonly<Record<string, GetRoute>>;

export interface SignedReceiverOptions {
  signingSecret: string;
  /** The port `start()` listens on when Bolt's `app.start()` names none (0: any free port). */
  port: number;
  /** The path Slack posts to. */
  path?: string;
  memory: ReplayMemory;
  routes?: GetRoutes;
  /** Bolt's logger, for what Bolt's ack and error handler log. */
  boltLogger: BoltLogger;
  logger: Logger;
}

export class SignedReceiver implements Receiver {
  private app: App | undefined;
  private server: Server | undefined;
  private accepting = true;
  private readonly path: string;

  constructor(private readonly o: SignedReceiverOptions) {
    this.path = o.path ?? '/slack/events';
  }

  init(app: App): void {
    this.app = app;
  }

  /** Listens on `port` (or the one in the options); resolves with the server once it is bound. */
  start(port?: number): Promise<Server> {
    if (this.server) return Promise.reject(new Error('the receiver is started already'));
    const server = createServer((req, res) => this.handle(req, res));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port ?? this.o.port, () => {
        server.off('error', reject);
        resolve(server);
      });
    });
  }

  /** Stops listening; resolves once the open connections have ended. */
  stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return Promise.resolve();
    return new Promise((resolve, reject) => {
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeIdleConnections();
    });
  }

  /** The first step of a shutdown: every new POST is answered 503 from now on; requests taken go on. */
  stopAccepting(): void {
    this.accepting = false;
  }

  get isAccepting(): boolean {
    return this.accepting;
  }

  /** The request's path as WHATWG parses it (as Bolt's receiver routes): another spelling means the same path. */
  private pathOf(req: IncomingMessage): string | null {
    if (req.url === this.path) return this.path;
    try {
      return new URL(req.url ?? '/', 'http://localhost').pathname;
    } catch {
      return null; // e.g. `//[`: no path at all
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = this.pathOf(req);
    if (path === null) {
      req.resume();
      HTTPModuleFunctions.buildNoBodyResponse(res, 400);
      return;
    }
    if (path === this.path && req.method === 'POST') {
      this.takeEvent(req, res);
      return;
    }
    const route = req.method === 'GET' ? this.o.routes?.[path] : undefined;
    if (!route) {
      req.resume();
      HTTPModuleFunctions.buildNoBodyResponse(res, 404);
      return;
    }
    Promise.resolve()
      .then(() => route(req, res))
      .catch((err: unknown) => {
        this.o.logger.error('a route of the receiver failed', {
          path,
          error: err instanceof Error ? err : new Error(String(err)),
        });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  }

  private takeEvent(req: IncomingMessage, res: ServerResponse): void {
    if (!this.accepting) {
      req.resume();
      res.writeHead(503, { 'retry-after': '10' });
      res.end();
      return;
    }
    const log = this.o.logger;
    checkSignedRequest(req, { signingSecret: this.o.signingSecret, memory: this.o.memory }).then(
      (verdict) => {
        if (verdict.ok) {
          // Slack's SSL check is answered and nothing else in it is read.
          if ('sslCheck' in verdict) return HTTPModuleFunctions.buildSSLCheckResponse(res);
          return this.dispatch(req, res, verdict.body);
        }
        log.warn('refused a request to /slack/events', {
          reason: verdict.reason,
          ...(verdict.detail ? { detail: verdict.detail } : {}),
        });
        HTTPModuleFunctions.buildNoBodyResponse(res, verdict.status);
      },
      (err: unknown) => {
        log.error('could not check a request to /slack/events', {
          error: err instanceof Error ? err : new Error(String(err)),
        });
        if (!res.headersSent) res.writeHead(400);
        res.end();
      },
    );
  }

  /** What Bolt's HTTPReceiver does with a verified, parsed body (its handleIncomingEvent), through Bolt's exports. */
  private dispatch(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>): void {
    const app = this.app;
    if (!app) throw new Error('the receiver was started before Bolt initialised it');
    if (body.type === 'url_verification') {
      HTTPModuleFunctions.buildUrlVerificationResponse(res, body as { challenge?: string });
      return;
    }
    const boltLogger = this.o.boltLogger;
    const ack = new HTTPResponseAck({
      logger: boltLogger,
      processBeforeResponse: false,
      httpRequest: req,
      httpRequestBody: body,
      httpResponse: res,
    });
    const event: ReceiverEvent = {
      body,
      ack: ack.bind(),
      retryNum: HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req),
      retryReason: HTTPModuleFunctions.extractRetryReasonFromHTTPRequest(req),
      customProperties: {},
    };
    app.processEvent(event).catch(async (error: unknown) => {
      const acknowledged = await HTTPModuleFunctions.defaultProcessEventErrorHandler({
        error: error as Error,
        logger: boltLogger,
        request: req,
        response: res,
        storedResponse: undefined,
      });
      if (acknowledged) ack.ack();
    });
  }
}
