import type { App } from '@slack/bolt';
import { type AlertServiceOptions, createAlertService } from './alerts/service.js';
import type { Config } from './config.js';
import type { DeliveryHooks } from './delivery/hooks.js';
import { createDigestService, type DigestServiceOptions } from './digest/service.js';
import { UnexpectedError } from './errors.js';
import { createFollowService, type FollowService, type FollowServiceOptions } from './follow/service.js';
import { createTransport, type Transport, type TransportOptions } from './gitlab/http.js';
import { healthzHandler, readyzHandler } from './health/readiness.js';
import { encodeConnectMetadata } from './ids.js';
import type { Logger } from './log.js';
import { deliveryHooksOf } from './metrics/delivery-hooks.js';
import { type MetricsServer, metricsOnBotPort, startMetricsServer } from './metrics/endpoint.js';
import { recordGitlabAttempts } from './metrics/gitlab-calls.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { observeEngine } from './metrics/observed-engine.js';
import { createMeteredFetch } from './metrics/slack-fetch.js';
import { assemble, type Dispatch } from './nouns/assemble.js';
import { NOUNS } from './nouns/index.js';
import type { Platform } from './nouns/types.js';
import { createGitlabAccess } from './operations/access.js';
import { createAccountOperations } from './operations/account.js';
import type { AlertService } from './operations/alert-service.js';
import type { Actor } from './operations/context.js';
import type { DigestService } from './operations/digest-service.js';
import { createFailureReader } from './operations/failures.js';
import { createIssueOperations } from './operations/issues.js';
import { createPeopleResolver } from './operations/people.js';
import { createPipelineOperations } from './operations/pipelines.js';
import { createProjectResolver } from './operations/projects.js';
import { createSession, createUnreadableTokens } from './operations/session.js';
import type { WatchService } from './operations/watch-service.js';
import { registerOwnSecrets } from './own-secrets.js';
import { redact } from './redact.js';
import { registerActionListener } from './slack/routing/actions.js';
import { registerCommandListener } from './slack/routing/commands.js';
import { createErrorMiddleware } from './slack/routing/error-middleware.js';
import { registerEventListeners } from './slack/routing/events.js';
import { registerMessageShortcut } from './slack/routing/message-shortcut.js';
import { createRoutes } from './slack/routing/routes.js';
import { registerViewListeners } from './slack/routing/views.js';
import { registerWorkflowSteps } from './slack/routing/workflow-steps.js';
import { createDeliveredOnce } from './slack/transport/delivered-once.js';
import { createInFlight, type Running } from './slack/transport/in-flight.js';
import { createRequestObserver } from './slack/transport/observe-requests.js';
import type { GetRoutes } from './slack/transport/signed-receiver.js';
import { createSlackApp, type SlackTiming } from './slack/transport/slack-app.js';
import { createWorkTurns } from './slack/transport/turns.js';
import { createWorkPlaces, REQUEST_WORK_PLACES, type WorkPlaces } from './slack/transport/work-places.js';
import { say } from './slack/web-api/deliver.js';
import { createDeliverySlack } from './slack/web-api/delivery-slack.js';
import { createDigestSlack } from './slack/web-api/digest-slack.js';
import { createFollowSlack } from './slack/web-api/follow-slack.js';
import { createStepSlack } from './slack/web-api/step-slack.js';
import { createTimeZoneLookup } from './slack/web-api/time-zones.js';
import { createStepService, type StepService } from './steps/service.js';
import type { ChannelStore } from './store/channel-store.js';
import { createClaimStore } from './store/claim-store.js';
import { createDigestStore } from './store/digest-store.js';
import type { SqlEngine } from './store/engine.js';
import { createSealer } from './store/sealer.js';
import { createStepStore } from './store/step-store.js';
import type { StoredToken, TokenStore } from './store/token-store.js';
import { createTroubleStore } from './store/trouble-store.js';
import { createUnfurlStore } from './store/unfurl-store.js';
import { createWatchStore } from './store/watch-store.js';
import { buildInterrupted } from './views/errors.js';
import { createWatchService, type WatchServiceOptions } from './watch/service.js';

export interface AppDeps {
  config: Config;
  logger: Logger;
  /** The database (SQLite or PostgreSQL) every store of the app works on. */
  engine: SqlEngine;
  tokens: TokenStore;
  channels: ChannelStore;
  now?: () => Date;
  /** The transport for calls made as people; defaults to one built from the config. */
  transport?: Transport;
  /** The transport for the connect check, which must answer inside Slack's 3 s. */
  checkTransport?: Transport;
  /**
   * The transport alerts, watches and follows poll through; defaults to `transport` when that is given, else one
   * built from the config that does not retry (the delivery kernel backs a busy item off between its polls).
   */
  pollTransport?: Transport;
  /** How digests are scheduled and paced (tests drive them with their clock: `timer: 'manual'`). */
  digests?: Pick<
    DigestServiceOptions,
    | 'timer'
    | 'at'
    | 'concurrency'
    | 'spreadMs'
    | 'channelIntervalMs'
    | 'leaseMs'
    | 'sweepMs'
    | 'testSeconds'
    | 'recheckMs'
  >;
  /** How cards that follow a pipeline or a job poll (tests: `timer: 'manual'` and `pollDue()`). */
  follows?: Pick<
    FollowServiceOptions,
    'timer' | 'pollMs' | 'shareEveryMs' | 'leaseMs' | 'deadlineMs' | 'channelIntervalMs' | 'at'
  >;
  /** How pipeline watches are polled and paced (tests drive them with their clock: `timer: 'manual'`). */
  watches?: Pick<
    WatchServiceOptions,
    | 'timer'
    | 'at'
    | 'intervalMs'
    | 'tickMs'
    | 'leaseMs'
    | 'concurrency'
    | 'channelIntervalMs'
    | 'pageSize'
    | 'batch'
    | 'recheckMs'
  >;
  /** How todo alerts poll (tests drive them with their clock: `timer: 'manual'`). */
  alerts?: Pick<
    AlertServiceOptions,
    | 'timer'
    | 'at'
    | 'concurrency'
    | 'batch'
    | 'leaseMs'
    | 'channelIntervalMs'
    | 'tickMs'
    | 'pollIntervalMs'
    | 'recheckMs'
  >;
  /** The wait before the second read that confirms a refused token (default 2000 ms). */
  revokeCheckDelayMs?: number;
  /** How long a command's answer may take before "working on it…" is shown (default 2000 ms; tests shorten it). */
  workingNoteMs?: number;
  /** What the second read of a refused token waits for instead of that delay (tests decide when it goes). */
  revokeCheckWait?: () => Promise<void>;
  /** How the Slack side waits between tries (Web API retries, Socket Mode reconnects); tests shorten it. */
  slackTiming?: SlackTiming;
  /** The places of requests' work after their acks (default REQUEST_WORK_PLACES); tests pass theirs to watch them. */
  workPlaces?: WorkPlaces;
  /**
   * More GET routes on the port Slack posts to, beside /healthz (e.g. `/readyz`, `/metrics`), in HTTP and Socket Mode
   * alike: exact path → handler (slack/transport/signed-receiver.ts, GetRoutes). A handler answers the request itself.
   */
  routes?: GetRoutes;
  /** Where the app's metrics are recorded (default: a registry of its own, as the config says). */
  metrics?: Metrics;
  /** Whether Slack accepted the bot token (auth.test) since the start: /readyz says 503 until then (default yes). */
  slackChecked?: () => boolean;
  /**
   * What every kind of scheduled delivery tells its observers (digests, alerts, watches, follows): deliveries by kind
   * and outcome, lag from due to posted, leases held, queue depth (src/delivery/hooks.ts). Metrics bind here.
   */
  deliveryHooks?: DeliveryHooks;
}

export interface BotApp {
  app: App;
  platform: Platform;
  dispatch: Dispatch;
  digests: DigestService;
  /** Workflow Builder steps; `sweep()` fails the ones nobody answered within their hour (a timer calls it too). */
  steps: StepService;
  follows: FollowService;
  watches: WatchService;
  alerts: AlertService;
  metrics: Metrics;
  /** Starts listening; resolves with the HTTP port (also serving /healthz in Socket Mode). */
  start(): Promise<{ port: number }>;
  /** After `start()`: resolves with the HTTP port once it is bound, in Socket Mode before Slack's hello. */
  listening(): Promise<{ port: number }>;
  /** Stops at once: what is running is cut off. */
  stop(): Promise<void>;
  /** How many requests are being handled right now (from arrival until their answer was delivered). */
  inFlight(): number;
  /** The port of the metrics server of its own (METRICS_PORT), once started; null without one. */
  metricsPort(): number | null;
  /**
   * Stops gracefully: takes no new request (HTTP answers 503), lets what was taken finish for up to `graceMs`,
   * tells each person whose request is still running that it may not have completed, then stops.
   * Resolves with how many requests were cut off.
   */
  shutdown(graceMs: number): Promise<{ interrupted: number }>;
}

/** How often each replica fails the workflow steps nobody answered in time (one replica takes each). */
const STEP_SWEEP_MS = 30_000;

/** How long telling people about cut-off requests may take before the bot stops anyway. */
const NOTICE_MS = 5000;

export function createApp(deps: AppDeps): BotApp {
  const { config, logger } = deps;
  registerOwnSecrets(config);
  const metrics =
    deps.metrics ?? createMetrics({ enabled: config.metrics.enabled, projectLabel: config.metrics.projectLabel });
  const engine = observeEngine(deps.engine, metrics);
  // Every kind of scheduled delivery reports to the metrics (runs, lag, leases, waiting runs), and to a test's observer.
  const deliveryHooks = deliveryHooksOf(metrics, deps.deliveryHooks);
  const onAttempt = recordGitlabAttempts(metrics, { projectLabel: config.metrics.projectLabel });
  // Links people open point at the public address; calls and connections use GITLAB_URL.
  const linkUrl = config.gitlabPublicUrl ?? config.gitlabUrl;
  const now = deps.now ?? (() => new Date());
  // The app's one scheduler of work after acks and after the server's answers (turns.ts, work-places.ts).
  const turns = createWorkTurns();
  const places = deps.workPlaces ?? createWorkPlaces(REQUEST_WORK_PLACES);
  const gitlabTransport = (more: Omit<TransportOptions, 'baseUrl' | 'logger' | 'onAttempt'>) =>
    createTransport({
      baseUrl: config.gitlabUrl,
      logger: logger.child({ component: 'gitlab' }),
      ...(onAttempt ? { onAttempt } : {}),
      ...more,
    });
  const transport = deps.transport ?? gitlabTransport({ nextTurn: (others) => turns.nextUnlessAlone(others) });
  const checkTransport = deps.checkTransport ?? gitlabTransport({ timeoutMs: 2500, retry: { limit: 0 } });
  // A poll the server is too busy for is tried again at the item's next poll, later and later (delivery/polled.ts):
  // the client's own retries inside a poll would make each busy poll four requests to a server already in trouble.
  const pollTransport =
    deps.pollTransport ??
    deps.transport ??
    gitlabTransport({ nextTurn: (others) => turns.nextUnlessAlone(others), retry: { limit: 0 } });
  const access = createGitlabAccess({
    sharedTrouble: createTroubleStore(engine),
    serverUrl: config.gitlabUrl,
    tokens: deps.tokens,
    transport,
    checkTransport,
    logger,
    now,
    ...(deps.revokeCheckDelayMs !== undefined ? { revokeCheckDelayMs: deps.revokeCheckDelayMs } : {}),
    ...(deps.revokeCheckWait ? { revokeCheckWait: deps.revokeCheckWait } : {}),
    // A token accepted again resumes the digests its refusal paused, as connecting again does.
    onRestored: async (teamId, userId) => {
      await digests.resumeOwner(teamId, userId, 'accepted');
      await watches.resumeCreator(teamId, userId, 'accepted');
      await alerts.resumeOwner(teamId, userId, 'accepted');
      await follows.resumeOwner(teamId, userId);
    },
  });

  // What must happen once across replicas and restarts: seen signatures, events delivered again, clicks.
  const claims = createClaimStore(engine);
  const readiness = {
    mode: config.slack.mode,
    databaseOk: () => engine.ping(),
    slackChecked: deps.slackChecked ?? (() => true),
    slackProblem: () => slack.problem(),
  };
  const slack = createSlackApp({
    claims,
    config,
    logger,
    routes: {
      '/healthz': healthzHandler(config.slack.mode),
      '/readyz': readyzHandler(readiness),
      '/metrics': metricsOnBotPort(metrics.registry, config.metrics.token),
      ...deps.routes,
    },
    ...(metrics.registry
      ? { fetch: createMeteredFetch(metrics, config.slack.apiUrl ?? 'https://slack.com/api/') }
      : {}),
    ...(deps.slackTiming ? { timing: deps.slackTiming } : {}),
  });
  const { app } = slack;

  const unreadable = createUnreadableTokens((c, reason) =>
    logger.warn("a stored token can't be read; the person is asked to connect again", {
      team: c.teamId,
      user: c.userId,
      reason,
    }),
  );
  // What a person asks for (a command, a click, a form) asks the server again about a token marked revoked;
  // what Slack sends on its own (the Home tab opened, a link posted) does not, so it never costs a read.
  const sessionOf = (actor: Actor, stored?: StoredToken | null) =>
    createSession(deps.tokens, config.gitlabUrl, actor, { unreadable, recheck: access.recheck, stored });
  const passiveSessionOf = (actor: Actor) => createSession(deps.tokens, config.gitlabUrl, actor, { unreadable });
  const projects = createProjectResolver({ access, channels: deps.channels });
  // Scheduled work goes through the same access, sessions and project lookups as commands.
  const digests = createDigestService({
    ...deps.digests,
    ...(deliveryHooks ? { hooks: deliveryHooks } : {}),
    store: createDigestStore(engine, now),
    engine,
    access,
    sessionOf,
    projectPath: (ctx, id) => projects.pathOf(ctx, id),
    slack: createDigestSlack(app.client),
    transport,
    serverUrl: linkUrl,
    slashCommand: config.slashCommand,
    logger,
    now,
  });
  // Why jobs failed: one reader whose kept excerpts and job histories every card, watch, follow and alert shares.
  const failures = createFailureReader({ registerTeamSecrets: (teamId) => access.registerStoredTokens(teamId) });
  const alerts = createAlertService({
    ...deps.alerts,
    ...(deliveryHooks ? { hooks: deliveryHooks } : {}),
    engine,
    access,
    failures,
    sessionOf,
    tokens: deps.tokens,
    slack: createDeliverySlack(app.client),
    transport: pollTransport,
    serverUrl: linkUrl,
    logger,
    now,
  });
  // Workflow Builder steps keep their workflow tokens sealed like people's tokens.
  const stepStore = createStepStore(engine, createSealer(config.encryption), now);
  const steps = createStepService({
    store: stepStore,
    slack: createStepSlack(app.client),
    run: {
      pipelines: createPipelineOperations({ access }),
      issues: createIssueOperations({ access }),
      serverUrl: linkUrl,
    },
    sessionOf,
    now,
    logger,
    serverUrl: linkUrl,
    gitlabUrl: config.gitlabUrl,
    slashCommand: config.slashCommand,
  });
  // Cards that follow their pipeline or job: read as their person through the same access, paced like digests.
  // People's Slack time zones, looked up once and kept: cards, and the redraws of cards that follow, use them.
  const timeZoneOf = createTimeZoneLookup(app.client, logger);
  const follows = createFollowService({
    timeZoneOf,
    pollMs: config.followPollMs,
    ...deps.follows,
    ...(deliveryHooks ? { hooks: deliveryHooks } : {}),
    engine,
    access,
    failures,
    sessionOf,
    transport: pollTransport,
    slack: createFollowSlack(app.client),
    sealer: createSealer(config.encryption),
    serverUrl: linkUrl,
    slashCommand: config.slashCommand,
    logger,
    now,
  });
  const watches = createWatchService({
    ...deps.watches,
    ...(deliveryHooks ? { hooks: deliveryHooks } : {}),
    store: createWatchStore(engine),
    engine,
    access,
    failures,
    sessionOf,
    tokens: deps.tokens,
    slack: createDeliverySlack(app.client),
    isAdmin: (userId) => digests.isAdmin(userId),
    transport: pollTransport,
    serverUrl: linkUrl,
    slashCommand: config.slashCommand,
    logger,
    now,
  });
  const opsDeps = {
    serverUrl: linkUrl,
    access,
    tokens: deps.tokens,
    channels: deps.channels,
    digests,
    unfurls: createUnfurlStore(engine, now),
    steps: stepStore,
    follows,
    watches,
    alerts,
    failures,
  };
  const account = createAccountOperations(opsDeps);
  const { dispatch, platform } = assemble(NOUNS, opsDeps, {
    serverUrl: linkUrl,
    gitlabUrl: config.gitlabUrl,
    slashCommand: config.slashCommand,
    resolveProject: (ctx, ref) => projects.resolve(ctx, ref),
    timeZoneOf,
    connectMetadata: (channelId, o) => encodeConnectMetadata({ channelId, ...(o?.home ? { home: true } : {}) }),
    people: createPeopleResolver({ access, tokens: deps.tokens, serverUrl: config.gitlabUrl }),
  });

  const shared = { serverUrl: linkUrl, slashCommand: config.slashCommand };
  const inFlight = createInFlight({ turns, places });
  metrics.watch({
    queues: () => ({ work_places: places.waiting }),
    pool: () => engine.poolStats?.() ?? null,
  });
  // Before everything: the request's id (its log lines, its error reference), its ack and answer times.
  app.use(createRequestObserver({ metrics, logger }));
  // In flight first: every request that is acknowledged (a repeated event included) passes its end, where its work
  // place is given back (work-places.ts).
  app.use(inFlight.middleware);
  app.use(createDeliveredOnce(claims, logger.child({ component: 'receiver' })));
  app.use(createErrorMiddleware(shared));
  // Every request goes to its one handler through this table, not through one Bolt listener per handler.
  const routes = createRoutes();
  app.use(routes.middleware);
  registerCommandListener(routes, {
    ...shared,
    gitlabUrl: config.gitlabUrl,
    dispatch,
    sessionOf,
    now,
    ...(deps.workingNoteMs !== undefined ? { workingNoteMs: deps.workingNoteMs } : {}),
  });
  registerActionListener(routes, { dispatch, sessionOf, now, claims });
  // Connecting again resumes the digests a refused token paused.
  const connect: typeof account.connect = async (actor, token, at) => {
    const check = await account.connect(actor, token, at);
    if (check.ok) await digests.resumeOwner(actor.teamId, actor.userId);
    if (check.ok) await watches.resumeCreator(actor.teamId, actor.userId);
    if (check.ok) await alerts.resumeOwner(actor.teamId, actor.userId);
    if (check.ok) await follows.resumeOwner(actor.teamId, actor.userId);
    return check;
  };
  registerViewListeners(routes, { ...shared, account: { ...account, connect }, dispatch, sessionOf, now, claims });
  registerEventListeners(routes, { dispatch, sessionOf: passiveSessionOf, now });
  registerWorkflowSteps(routes, { steps });
  registerMessageShortcut(routes, { platform, issues: createIssueOperations(opsDeps), sessionOf, now });
  app.error(async (error) => {
    const unexpected = error instanceof UnexpectedError ? error : null;
    const cause = unexpected ? unexpected.cause : error;
    logger.error('unexpected error while handling a Slack request', {
      ref: unexpected?.refId ?? null,
      error: cause instanceof Error ? cause : new Error(String(cause)),
    });
  });

  /** One notice per person whose request was cut off; each is bounded, and none can stop the shutdown. */
  const tellInterrupted = async (cut: Running[]) => {
    const told = cut.map(async (r) => {
      if (r.asked.kind === 'event' || !r.userId) return;
      const asked = r.asked.kind === 'command' ? { kind: 'command' as const, text: redact(r.asked.text) } : r.asked;
      const delivery = {
        client: r.client,
        respond: r.respond,
        userId: r.userId,
        channelId: r.channelId,
        triggerId: undefined,
      };
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          say(delivery, buildInterrupted(asked)),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), NOTICE_MS);
          }),
        ]);
      } catch (err) {
        logger.warn('could not tell a person that their request was cut off', {
          user: r.userId,
          error: err instanceof Error ? err.message : String(err),
        });
      } finally {
        clearTimeout(timer);
      }
    });
    await Promise.all(told);
  };

  let stepSweep: NodeJS.Timeout | undefined;
  let metricsServer: MetricsServer | null = null;
  const sweepSteps = () => {
    steps
      .sweep()
      .catch((err: unknown) =>
        logger.warn('could not sweep workflow steps', { error: err instanceof Error ? err.message : String(err) }),
      );
  };

  return {
    app,
    platform,
    dispatch,
    digests,
    steps,
    follows,
    watches,
    alerts,
    metrics,
    metricsPort: () => metricsServer?.port ?? null,
    async start() {
      const listen = config.metrics.listen;
      if (listen && metrics.registry) metricsServer = await startMetricsServer(metrics.registry, listen);
      const started = await slack.start();
      await digests.start();
      await alerts.start();
      stepSweep = setInterval(sweepSteps, STEP_SWEEP_MS);
      stepSweep.unref();
      follows.startTimers();
      await watches.start();
      return started;
    },
    listening: () => slack.listening(),
    inFlight: () => inFlight.size,
    async stop() {
      await alerts.stop();
      clearInterval(stepSweep);
      await digests.stop();
      await follows.stop();
      await watches.stop();
      await app.stop();
      await metricsServer?.close();
    },
    async shutdown(graceMs) {
      await slack.stopAccepting();
      clearInterval(stepSweep);
      const running = inFlight.size;
      if (running > 0) logger.info('waiting for requests in flight', { count: running, graceMs });
      // No digest starts from now on; one that is posting may finish in the same grace period (one cut
      // short is settled at the next start, so nothing is lost or posted twice).
      let graceTimer: NodeJS.Timeout | undefined;
      const digestsStopped = Promise.race([
        Promise.all([digests.stop(), watches.stop(), alerts.stop()]),
        new Promise<void>((resolve) => {
          graceTimer = setTimeout(resolve, graceMs);
        }),
      ]).finally(() => clearTimeout(graceTimer));
      // A follow being polled finishes its poll; one cut short is taken over after its lease (see follow/service.ts).
      const followsStopped = Promise.race([follows.stop(), new Promise<void>((r) => setTimeout(r, graceMs).unref())]);
      const [cut] = await Promise.all([inFlight.settle(graceMs), digestsStopped, followsStopped]);
      if (cut.length > 0) {
        logger.warn('shutdown grace period over; telling people their requests may not have completed', {
          count: cut.length,
        });
        await tellInterrupted(cut);
      }
      await app.stop();
      await metricsServer?.close();
      return { interrupted: cut.length };
    },
  };
}
