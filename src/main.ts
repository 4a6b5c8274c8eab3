import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { limitHeapGrowth } from './heap.js';
import { checkBotToken } from './listeners/slack-app.js';
import { createLogger } from './logger.js';
import { redact, registerSecret } from './redact.js';
import { createChannelStore } from './store/channel-store.js';
import { DatabaseOpenError, SchemaTooNewError } from './store/database.js';
import type { SqlEngine } from './store/engine.js';
import { findKeyProblems } from './store/key-check.js';
import { openEngine } from './store/open.js';
import { DatabaseUrlError, passwordOf } from './store/postgres-engine.js';
import { createSealer } from './store/sealer.js';
import { createTokenStore } from './store/token-store.js';

// The only reader of process.env: config → database → app; graceful shutdown.

async function main(): Promise<void> {
  limitHeapGrowth();
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
  for (const secret of [config.slack.botToken, config.slack.signingSecret, config.slack.appToken])
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
    await engine.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const { port } = await bot.start();
  logger.info('bot started', {
    mode: config.slack.mode,
    port,
    gitlabUrl: config.gitlabUrl,
    command: config.slashCommand,
  });
}

/**
 * Tests only: `DIGEST_TEST_KILL_AT=before-post|after-post|while-saving` makes the process kill itself (SIGKILL, as
 * `kill -9` would) when a digest run reaches that point, to prove a run is posted exactly once across a restart.
 * `DIGEST_TEST_TIMING` (JSON: `seconds`, a seconds field put before every schedule so that a slot comes every few
 * seconds; `leaseMs`, `sweepMs`, `spreadMs`) lets process tests see slots, take-overs and sweeps in seconds.
 */
function digestTestSeam(): Pick<
  NonNullable<Parameters<typeof createApp>[0]['digests']>,
  'at' | 'testSeconds' | 'leaseMs' | 'sweepMs' | 'spreadMs'
> {
  const timing = testTiming(process.env.DIGEST_TEST_TIMING);
  const point = process.env.DIGEST_TEST_KILL_AT;
  if (!point) return timing;
  return {
    ...timing,
    at(reached) {
      if (reached !== point) return;
      process.kill(process.pid, 'SIGKILL');
      // The signal is on its way: nothing more of this run may happen before it lands.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    },
  };
}

function testTiming(text: string | undefined) {
  if (!text) return {};
  const t = JSON.parse(text) as { seconds?: string; leaseMs?: number; sweepMs?: number; spreadMs?: number };
  return {
    ...(typeof t.seconds === 'string' ? { testSeconds: t.seconds } : {}),
    ...(typeof t.leaseMs === 'number' ? { leaseMs: t.leaseMs } : {}),
    ...(typeof t.sweepMs === 'number' ? { sweepMs: t.sweepMs } : {}),
    ...(typeof t.spreadMs === 'number' ? { spreadMs: t.spreadMs } : {}),
  };
}

/**
 * Tests only: `FOLLOW_TEST_KILL_AT=before-dm|after-dm` makes the process kill itself (SIGKILL) when a follow's final
 * DM reaches that point, to prove the DM comes exactly once across a restart. `FOLLOW_TEST_TIMING` (JSON: `pollMs`,
 * `leaseMs`, `shareEveryMs`) lets process tests see polls and take-overs in a second.
 */
function followTestSeam(): NonNullable<Parameters<typeof createApp>[0]['follows']> {
  const text = process.env.FOLLOW_TEST_TIMING;
  const t = text ? (JSON.parse(text) as { pollMs?: number; leaseMs?: number; shareEveryMs?: number }) : {};
  const point = process.env.FOLLOW_TEST_KILL_AT;
  return {
    ...(typeof t.pollMs === 'number' ? { pollMs: t.pollMs } : {}),
    ...(typeof t.leaseMs === 'number' ? { leaseMs: t.leaseMs } : {}),
    ...(typeof t.shareEveryMs === 'number' ? { shareEveryMs: t.shareEveryMs } : {}),
    ...(point
      ? {
          at(reached: string) {
            if (reached !== point) return;
            process.kill(process.pid, 'SIGKILL');
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
          },
        }
      : {}),
  };
}

/**
 * Tests only: `WATCH_TEST_KILL_AT=before-post|after-post|after-update|after-reply` makes the process kill itself
 * (SIGKILL) when a watch's delivery reaches that point; `WATCH_TEST_TIMING` (JSON: `intervalMs`, `tickMs`,
 * `leaseMs`) lets process tests see polls and take-overs in seconds.
 */
function watchTestSeam(): NonNullable<Parameters<typeof createApp>[0]['watches']> {
  const text = process.env.WATCH_TEST_TIMING;
  const t = text ? (JSON.parse(text) as { intervalMs?: number; tickMs?: number; leaseMs?: number }) : {};
  const point = process.env.WATCH_TEST_KILL_AT;
  return {
    ...(typeof t.intervalMs === 'number' ? { intervalMs: t.intervalMs } : {}),
    ...(typeof t.tickMs === 'number' ? { tickMs: t.tickMs } : {}),
    ...(typeof t.leaseMs === 'number' ? { leaseMs: t.leaseMs } : {}),
    ...(point
      ? {
          at(reached: string) {
            if (reached !== point) return;
            process.kill(process.pid, 'SIGKILL');
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
          },
        }
      : {}),
  };
}

/**
 * Tests only, as for digests: `ALERT_TEST_KILL_AT=before-post|after-post|while-saving` kills the process (SIGKILL)
 * when an alert delivery reaches that point; `ALERT_TEST_TIMING` (JSON: `seconds`, a seconds field before the
 * minute schedule so that polls come every few seconds, `intervalMs` between two polls of a person; `leaseMs`) lets process tests see polls and take-overs.
 */
function alertTestSeam(): Pick<
  NonNullable<Parameters<typeof createApp>[0]['alerts']>,
  'at' | 'testSeconds' | 'leaseMs' | 'pollIntervalMs'
> {
  const text = process.env.ALERT_TEST_TIMING;
  const t = text ? (JSON.parse(text) as { seconds?: string; leaseMs?: number; intervalMs?: number }) : {};
  const timing = {
    ...(typeof t.seconds === 'string' ? { testSeconds: t.seconds } : {}),
    ...(typeof t.intervalMs === 'number' ? { pollIntervalMs: t.intervalMs } : {}),
    ...(typeof t.leaseMs === 'number' ? { leaseMs: t.leaseMs } : {}),
  };
  const point = process.env.ALERT_TEST_KILL_AT;
  if (!point) return timing;
  return {
    ...timing,
    at(reached) {
      if (reached !== point) return;
      process.kill(process.pid, 'SIGKILL');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    },
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`The bot could not start: ${redact(err instanceof Error ? err.message : String(err))}\n`);
  process.exit(1);
});
