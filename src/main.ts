import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './log.js';
import { redact, registerSecret } from './redact.js';
import { checkBotToken } from './slack/transport/slack-app.js';
import { createChannelStore } from './store/channel-store.js';
import { DatabaseOpenError, SchemaTooNewError } from './store/database.js';
import type { SqlEngine } from './store/engine.js';
import { findKeyProblems } from './store/key-check.js';
import { openEngine } from './store/open.js';
import { DatabaseUrlError, passwordOf } from './store/postgres-url.js';
import { createSealer } from './store/sealer.js';
import { createTokenStore } from './store/token-store.js';

// The only reader of process.env: config → database → app; graceful shutdown.

/** How often a bot token Slack could not be asked about at start is checked again (for /readyz). */
const SLACK_RECHECK_MS = 15_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  for (const secret of [config.slack.botToken, config.slack.signingSecret, config.slack.appToken, config.metrics.token])
    registerSecret(secret);
  for (const key of [config.encryption.key, config.encryption.previousKey])
    if (key) registerSecret(key.toString('base64'));
  const databasePassword = config.databaseUrl ? passwordOf(config.databaseUrl) : null;
  if (databasePassword) registerSecret(databasePassword);

  const logger = createLogger({ level: config.logLevel });
  // Waits for a database another program locks happen on timers; each is a debug line.
  const busy = {
    onBusy: (what: string, attempt: number) => logger.debug('database busy; trying again', { what, attempt }),
  };
  let engine: SqlEngine;
  try {
    engine = await openEngine(config, {
      busy,
      postgres: {
        onIdleError: (err) => logger.warn('a database connection broke; it is replaced', { reason: err.message }),
      },
    });
  } catch (err) {
    if (err instanceof DatabaseOpenError || err instanceof DatabaseUrlError || err instanceof SchemaTooNewError) {
      process.stderr.write(`The bot could not start: ${redact(err.message)}\n`);
      process.exit(1);
    }
    throw err;
  }
  const sealer = createSealer(config.encryption);
  const tokens = createTokenStore(engine, sealer);
  // Tokens the keys cannot open do not stop the bot (see store/key-check.ts): the operator is told what to do.
  const resealed = await tokens.resealStale();
  if (resealed > 0) logger.info('re-sealed stored tokens under the current key', { count: resealed });
  const census = { byKey: await tokens.countByKey(), currentKeyId: sealer.keyId, previousKeyId: sealer.previousKeyId };
  for (const finding of findKeyProblems({ ...census, resealed }))
    logger[finding.level](finding.message, finding.fields);

  // A bot token Slack refuses cannot work at all: say so once and stop, instead of failing every request.
  const slack = await checkBotToken(config);
  if (!slack.ok && slack.refused) {
    process.stderr.write(
      `The bot could not start: Slack refused SLACK_BOT_TOKEN (${slack.error}). Copy the Bot User OAuth Token (xoxb-…) of the installed app again.\n`,
    );
    process.exit(1);
  }
  if (!slack.ok) logger.warn('could not check the bot token with Slack; starting anyway', { error: slack.error });
  // /readyz waits for Slack to have accepted the token: checked again until it has, refused later stops nothing.
  let slackChecked = slack.ok;
  const recheck = slackChecked
    ? undefined
    : setInterval(async () => {
        if (slackChecked || !(await checkBotToken(config)).ok) return;
        slackChecked = true;
        clearInterval(recheck);
        logger.info('Slack accepted the bot token');
      }, SLACK_RECHECK_MS);
  recheck?.unref();

  const bot = createApp({
    config,
    logger,
    engine,
    tokens,
    channels: createChannelStore(engine),
    digests: digestTestSeam(),
    follows: followTestSeam(),
    watches: watchTestSeam(),
    alerts: alertTestSeam(),
    slackChecked: () => slackChecked,
  });

  // Signals are handled from before the first request can arrive, so a stop is always graceful: no new
  // requests, what was taken finishes (up to SHUTDOWN_GRACE_MS), people whose requests did not are told.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const graceMs = config.shutdownGraceMs;
    logger.info('shutting down', { signal, graceMs });
    // A last resort for a stop that hangs (a socket that will not close): the grace period, the notices, a margin.
    const force = setTimeout(() => {
      logger.warn('shutdown did not finish in time; exiting anyway');
      process.exit(1);
    }, graceMs + 10_000);
    force.unref();
    try {
      const { interrupted } = await bot.shutdown(graceMs);
      logger.info('stopped', { interrupted });
    } catch (err) {
      logger.warn('error while stopping the app', { error: err instanceof Error ? err : new Error(String(err)) });
    }
    clearInterval(recheck);
    await engine.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const { port } = await bot.start();
  logger.info('bot started', {
    mode: config.slack.mode,
    port,
    ...(bot.metricsPort() !== null ? { metricsPort: bot.metricsPort() } : {}),
    gitlabUrl: config.gitlabUrl,
    command: config.slashCommand,
  });
}

// Tests only, for every kind of scheduled work: `<KIND>_TEST_KILL_AT=<point>` makes the process kill itself (SIGKILL,
// as `kill -9` would) when a delivery reaches that point, to prove it happens exactly once across a restart;
// `<KIND>_TEST_TIMING` (JSON) shortens its timings so process tests see polls, slots and take-overs in seconds.
// Digests: points before-post|after-fence|after-post|while-saving; timing `seconds` (a seconds field put before every
// schedule), `leaseMs`, `sweepMs`, `spreadMs`, `recheckMs` (the first wait before a paused owner's token is re-checked). Follows: before-dm|after-dm; `pollMs`, `leaseMs`, `shareEveryMs`. Watches:
// before-post|after-post|after-update|after-reply; `intervalMs`, `tickMs`, `leaseMs`. Alerts: as digests;
// `tickMs` (between two looks for people due), `intervalMs` (between two polls of a person), `leaseMs`. Follows, watches and alerts also take
// `channelIntervalMs` (Slack's pace per channel, a real second otherwise). `<KIND>_TEST_STOP_AT=<point>` makes the
// process stop itself (SIGSTOP) the first time a delivery reaches that point, as a stalled process (a paused VM),
// until the test sends SIGCONT: its lease runs out meanwhile, and its post must not be made (delivery/kernel.ts).

type TestTiming = Record<string, unknown>;

function testTiming(kind: string): TestTiming {
  const text = process.env[`${kind}_TEST_TIMING`];
  return text ? (JSON.parse(text) as TestTiming) : {};
}

const numberIn = (t: TestTiming, key: string) => (typeof t[key] === 'number' ? t[key] : undefined);
const textIn = (t: TestTiming, key: string) => (typeof t[key] === 'string' ? t[key] : undefined);

function killAt(kind: string): ((reached: string) => void) | undefined {
  const point = process.env[`${kind}_TEST_KILL_AT`];
  let stopAt = process.env[`${kind}_TEST_STOP_AT`];
  if (!point && !stopAt) return undefined;
  return (reached) => {
    if (reached === stopAt) {
      stopAt = undefined;
      process.kill(process.pid, 'SIGSTOP');
      return;
    }
    if (reached !== point) return;
    process.kill(process.pid, 'SIGKILL');
    // The signal is on its way: nothing more of this delivery may happen before it lands.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  };
}

/** The options given, without those left undefined (options are optional, not undefined). */
function given<T extends object>(options: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

function digestTestSeam() {
  const t = testTiming('DIGEST');
  return given({
    at: killAt('DIGEST'),
    testSeconds: textIn(t, 'seconds'),
    leaseMs: numberIn(t, 'leaseMs'),
    sweepMs: numberIn(t, 'sweepMs'),
    spreadMs: numberIn(t, 'spreadMs'),
    recheckMs: numberIn(t, 'recheckMs'),
  });
}

function followTestSeam() {
  const t = testTiming('FOLLOW');
  return given({
    at: killAt('FOLLOW'),
    pollMs: numberIn(t, 'pollMs'),
    leaseMs: numberIn(t, 'leaseMs'),
    shareEveryMs: numberIn(t, 'shareEveryMs'),
    channelIntervalMs: numberIn(t, 'channelIntervalMs'),
  });
}

function watchTestSeam() {
  const t = testTiming('WATCH');
  return given({
    at: killAt('WATCH'),
    intervalMs: numberIn(t, 'intervalMs'),
    tickMs: numberIn(t, 'tickMs'),
    leaseMs: numberIn(t, 'leaseMs'),
    channelIntervalMs: numberIn(t, 'channelIntervalMs'),
  });
}

function alertTestSeam() {
  const t = testTiming('ALERT');
  return given({
    at: killAt('ALERT'),
    tickMs: numberIn(t, 'tickMs'),
    pollIntervalMs: numberIn(t, 'intervalMs'),
    leaseMs: numberIn(t, 'leaseMs'),
    channelIntervalMs: numberIn(t, 'channelIntervalMs'),
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`The bot could not start: ${redact(err instanceof Error ? err.message : String(err))}\n`);
  process.exit(1);
});
