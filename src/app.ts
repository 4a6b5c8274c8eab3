import type { App } from '@slack/bolt';
import type { Config } from './config.js';
import { createDigestService, type DigestService, type DigestServiceOptions } from './digest/service.js';
import { UnexpectedError } from './errors.js';
import { createTransport, type Transport } from './gitlab/http.js';
import type { CommandKey } from './grammar/index.js';
import { encodeConnectMetadata } from './ids.js';
import { registerActionListener } from './listeners/actions.js';
import { registerCommandListener } from './listeners/commands.js';
import { createDigestSlack } from './listeners/digest-slack.js';
import { createErrorMiddleware } from './listeners/error-middleware.js';
import { registerHomeListener } from './listeners/home.js';
import { createSlackApp } from './listeners/slack-app.js';
import { createTimeZoneLookup } from './listeners/time-zones.js';
import { registerViewListeners } from './listeners/views.js';
import type { Logger } from './logger.js';
import { assemble, type Dispatch } from './nouns/assemble.js';
import { NOUNS } from './nouns/index.js';
import type { Platform } from './nouns/types.js';
import { createGitlabAccess } from './operations/access.js';
import { createAccountOperations } from './operations/account.js';
import type { Actor } from './operations/context.js';
import { createPeopleResolver } from './operations/people.js';
import { createProjectResolver } from './operations/projects.js';
import { createSession } from './operations/session.js';
import type { ChannelStore } from './store/channel-store.js';
import { checkDatabase, type Db } from './store/database.js';
import { createDigestStore } from './store/digest-store.js';
import type { TokenStore } from './store/token-store.js';

export interface AppDeps {
  config: Config;
  logger: Logger;
  db: Db;
  tokens: TokenStore;
  channels: ChannelStore;
  now?: () => Date;
  /** The transport for calls made as people; defaults to one built from the config. */
  transport?: Transport;
  /** The transport for the connect check, which must answer inside Slack's 3 s. */
  checkTransport?: Transport;
  /** How digests are scheduled and paced (tests drive them with their clock: `timer: 'manual'`). */
  digests?: Pick<DigestServiceOptions, 'timer' | 'at' | 'concurrency' | 'spreadMs' | 'channelIntervalMs'>;
}

export interface BotApp {
  app: App;
  platform: Platform;
  dispatch: Dispatch;
  digests: DigestService;
  /** Starts listening; resolves with the HTTP port (also serving /healthz in Socket Mode). */
  start(): Promise<{ port: number }>;
  stop(): Promise<void>;
}

export function createApp(deps: AppDeps): BotApp {
  const { config, logger, db } = deps;
  const now = deps.now ?? (() => new Date());
  const transport =
    deps.transport ?? createTransport({ baseUrl: config.gitlabUrl, logger: logger.child({ component: 'gitlab' }) });
  const checkTransport =
    deps.checkTransport ??
    createTransport({
      baseUrl: config.gitlabUrl,
      timeoutMs: 2500,
      retry: { limit: 0 },
      logger: logger.child({ component: 'gitlab' }),
    });
  const access = createGitlabAccess({
    serverUrl: config.gitlabUrl,
    tokens: deps.tokens,
    transport,
    checkTransport,
    logger,
  });

  const slack = createSlackApp({ config, logger, databaseOk: () => checkDatabase(db) });
  const { app } = slack;

  const sessionOf = (actor: Actor) => createSession(deps.tokens, config.gitlabUrl, actor);
  const projects = createProjectResolver({ access, channels: deps.channels });
  const digests = createDigestService({
    ...deps.digests,
    store: createDigestStore(db, now),
    tokens: deps.tokens,
    slack: createDigestSlack(app.client),
    transport,
    serverUrl: config.gitlabUrl,
    slashCommand: config.slashCommand,
    logger,
    now,
  });
  const opsDeps = { serverUrl: config.gitlabUrl, access, tokens: deps.tokens, channels: deps.channels, digests };
  const account = createAccountOperations(opsDeps);
  const { dispatch, platform } = assemble(NOUNS, opsDeps, {
    serverUrl: config.gitlabUrl,
    slashCommand: config.slashCommand,
    resolveProject: (ctx, ref) => projects.resolve(ctx, ref),
    timeZoneOf: createTimeZoneLookup(app.client, logger),
    connectMetadata: (channelId) => encodeConnectMetadata({ channelId }),
    people: createPeopleResolver({ access, tokens: deps.tokens, serverUrl: config.gitlabUrl }),
  });

  const shared = { serverUrl: config.gitlabUrl, slashCommand: config.slashCommand };
  app.use(createErrorMiddleware(shared));
  registerCommandListener(app, { ...shared, dispatch, sessionOf, now });
  registerActionListener(app, { dispatch, sessionOf, now });
  // Connecting again resumes the digests a refused token paused.
  const connect: typeof account.connect = async (actor, token, at) => {
    const check = await account.connect(actor, token, at);
    if (check.ok) await digests.resumeOwner(actor.teamId, actor.userId);
    return check;
  };
  registerViewListeners(app, { ...shared, account: { ...account, connect }, dispatch, sessionOf, now });
  registerHomeListener(app, { ...shared, sessionOf, ships: (key) => dispatch.ships(key as CommandKey) });
  app.error(async (error) => {
    const unexpected = error instanceof UnexpectedError ? error : null;
    const cause = unexpected ? unexpected.cause : error;
    logger.error('unexpected error while handling a Slack request', {
      ref: unexpected?.refId ?? null,
      error: cause instanceof Error ? cause : new Error(String(cause)),
    });
  });

  return {
    app,
    platform,
    dispatch,
    digests,
    async start() {
      const started = await slack.start();
      await digests.start();
      return started;
    },
    async stop() {
      await digests.stop();
      await app.stop();
    },
  };
}
