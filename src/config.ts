import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from './log.js';

// The operator interface (ARCHITECTURE §6). Every variable is checked at once so that
// a person fixing a deployment sees every problem in one go; values are never echoed,
// because half of them are secrets.

export interface Config {
  slack: {
    botToken: string;
    signingSecret: string | null;
    appToken: string | null;
    apiUrl: string | null;
    mode: 'http' | 'socket';
  };
  port: number;
  gitlabUrl: string;
  /** GITLAB_PUBLIC_URL: the address people open in a browser, when it differs from `gitlabUrl`; links use it. */
  gitlabPublicUrl: string | null;
  encryption: { key: Buffer; previousKey: Buffer | null };
  databasePath: string;
  /** `postgres://…`: PostgreSQL instead of the SQLite file (several replicas share it); null for SQLite. */
  databaseUrl: string | null;
  slashCommand: string;
  logLevel: LogLevel;
  /** How long a shutdown waits for requests already taken before telling their people and stopping. */
  shutdownGraceMs: number;
  /** How often a card that follows a pipeline or a job reads it again (FOLLOW_POLL_SECONDS). */
  followPollMs: number;
  metrics: {
    /** METRICS=off records nothing (the benchmark's run without metrics); on by default. */
    enabled: boolean;
    /** METRICS_TOKEN: GET /metrics on the bot's port answers to `Authorization: Bearer <token>` only; null: 404. */
    token: string | null;
    /** METRICS_PORT: /metrics on a port of its own, no token (`9464`, or `127.0.0.1:9464` to bind one address). */
    listen: { host: string | null; port: number } | null;
    /** METRICS_PROJECT_LABEL=on labels GitLab calls with their project path (unbounded, so off by default). */
    projectLabel: boolean;
  };
}

export class ConfigError extends Error {
  readonly code = 'config_invalid';
  constructor(readonly problems: string[]) {
    super(
      `Configuration error: the bot cannot start.\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee README.md, "Environment".`,
    );
    this.name = 'ConfigError';
  }
}

/** Said without the value: it would show the password it is about. */
const CREDENTIALS_IN_URL = (name: string) =>
  `${name} must not contain a user name or password (https://user:password@host): remove them from the URL.`;

const KEY_HINT = `create one with: node -e "console.log(require('node:crypto').randomBytes(32).toString('base64'))"`;

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

function decodeKey(value: string): Buffer | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const key = Buffer.from(value, 'base64');
  return key.length === 32 ? key : null;
}

function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function postgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'postgres:' || url.protocol === 'postgresql:';
  } catch {
    return false;
  }
}

const EnvSchema = z.object({
  SLACK_BOT_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_API_URL: optionalText,
  PORT: optionalText,
  GITLAB_URL: optionalText,
  GITLAB_PUBLIC_URL: optionalText,
  TOKEN_ENCRYPTION_KEY: optionalText,
  TOKEN_ENCRYPTION_KEY_PREVIOUS: optionalText,
  DATABASE_PATH: optionalText,
  DATABASE_URL: optionalText,
  SLASH_COMMAND: optionalText,
  LOG_LEVEL: optionalText,
  SHUTDOWN_GRACE_MS: optionalText,
  FOLLOW_POLL_SECONDS: optionalText,
  METRICS: optionalText,
  METRICS_TOKEN: optionalText,
  METRICS_PORT: optionalText,
  METRICS_PROJECT_LABEL: optionalText,
});

/** Every variable the bot reads (deployment files are checked against it). */
export const ENV_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

/** `9464`, `127.0.0.1:9464` or `[::1]:9464`: where the metrics server listens, or null when it cannot be read. */
function parseListen(value: string): { host: string | null; port: number } | null {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value);
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1] ? m[1].replace(/^\[|\]$/g, '') : null, port };
}

/** on/off switches: the usual spellings of each, anything else is a problem. */
function onOff(value: string | undefined, fallback: boolean): boolean | null {
  if (value === undefined) return fallback;
  const v = value.toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(v)) return true;
  if (['off', 'false', '0', 'no'].includes(v)) return false;
  return null;
}

/** Reads the environment table; throws one ConfigError naming every bad or missing variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const e = EnvSchema.parse(env);
  const problems: string[] = [];
  const missing = (name: string, what: string) => problems.push(`${name} is missing: ${what}`);

  if (!e.SLACK_BOT_TOKEN)
    missing('SLACK_BOT_TOKEN', 'the bot token (xoxb-…) from your Slack app\'s "OAuth & Permissions" page.');
  else if (!e.SLACK_BOT_TOKEN.startsWith('xoxb-'))
    problems.push('SLACK_BOT_TOKEN must be a bot token starting with "xoxb-".');

  const mode = e.SLACK_APP_TOKEN ? 'socket' : 'http';
  if (e.SLACK_APP_TOKEN && !e.SLACK_APP_TOKEN.startsWith('xapp-')) {
    problems.push('SLACK_APP_TOKEN must be an app-level token starting with "xapp-" (it switches on Socket Mode).');
  }
  if (mode === 'http' && !e.SLACK_SIGNING_SECRET) {
    missing(
      'SLACK_SIGNING_SECRET',
      'the signing secret from your Slack app\'s "Basic Information" page (not needed in Socket Mode, i.e. when SLACK_APP_TOKEN is set).',
    );
  }

  let apiUrl: string | null = null;
  if (e.SLACK_API_URL) {
    const url = httpUrl(e.SLACK_API_URL);
    if (!url) problems.push('SLACK_API_URL must be an http(s) URL ending in /api/, e.g. https://slack.com/api/.');
    else if (url.username || url.password) problems.push(CREDENTIALS_IN_URL('SLACK_API_URL'));
    else apiUrl = e.SLACK_API_URL.endsWith('/') ? e.SLACK_API_URL : `${e.SLACK_API_URL}/`;
  }

  let port = 3000;
  if (e.PORT) {
    const n = Number(e.PORT);
    if (!Number.isInteger(n) || n < 0 || n > 65535) problems.push('PORT must be a whole number between 0 and 65535.');
    else port = n;
  }

  let gitlabUrl = '';
  if (!e.GITLAB_URL)
    missing('GITLAB_URL', 'the base URL of the Delivery Service, e.g. https://gitlab.example.com (no /api/v4).');
  else {
    const url = httpUrl(e.GITLAB_URL);
    if (!url) problems.push('GITLAB_URL must be an http(s) URL, e.g. https://gitlab.example.com.');
    // It is shown in messages and logs, and every call is made with the person's own token.
    else if (url.username || url.password) problems.push(CREDENTIALS_IN_URL('GITLAB_URL'));
    else gitlabUrl = url.href.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
  }

  let gitlabPublicUrl: string | null = null;
  if (e.GITLAB_PUBLIC_URL) {
    const url = httpUrl(e.GITLAB_PUBLIC_URL);
    if (!url) problems.push('GITLAB_PUBLIC_URL must be an http(s) URL, e.g. https://gitlab.example.com.');
    // Every link the bot draws carries it.
    else if (url.username || url.password) problems.push(CREDENTIALS_IN_URL('GITLAB_PUBLIC_URL'));
    else gitlabPublicUrl = url.href.replace(/\/+$/, '');
  }

  let key: Buffer | null = null;
  if (!e.TOKEN_ENCRYPTION_KEY)
    missing('TOKEN_ENCRYPTION_KEY', `32 random bytes in base64 that seal stored tokens; ${KEY_HINT}`);
  else {
    key = decodeKey(e.TOKEN_ENCRYPTION_KEY);
    if (!key) problems.push(`TOKEN_ENCRYPTION_KEY must be exactly 32 bytes encoded in base64; ${KEY_HINT}`);
  }
  let previousKey: Buffer | null = null;
  if (e.TOKEN_ENCRYPTION_KEY_PREVIOUS) {
    previousKey = decodeKey(e.TOKEN_ENCRYPTION_KEY_PREVIOUS);
    if (!previousKey)
      problems.push('TOKEN_ENCRYPTION_KEY_PREVIOUS must be exactly 32 bytes encoded in base64 (the key used before).');
  }

  const slashCommand = e.SLASH_COMMAND ?? '/gl';
  if (!/^\/[a-z0-9_-]{1,31}$/.test(slashCommand)) {
    problems.push('SLASH_COMMAND must look like "/gl": a slash and up to 31 lower-case letters, digits, - or _.');
  }

  let databaseUrl: string | null = null;
  if (e.DATABASE_URL && e.DATABASE_PATH) {
    problems.push(
      'DATABASE_URL and DATABASE_PATH are both set: set DATABASE_URL for PostgreSQL or DATABASE_PATH for a SQLite file, not both.',
    );
  } else if (e.DATABASE_URL) {
    if (postgresUrl(e.DATABASE_URL)) databaseUrl = e.DATABASE_URL;
    else problems.push('DATABASE_URL must be a PostgreSQL URL: postgres://user:password@host:5432/database.');
  }

  let logLevel: LogLevel = 'info';
  if (e.LOG_LEVEL) {
    const lvl = e.LOG_LEVEL.toLowerCase();
    if ((LOG_LEVELS as readonly string[]).includes(lvl)) logLevel = lvl as LogLevel;
    else problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}.`);
  }

  let shutdownGraceMs = 10_000;
  if (e.SHUTDOWN_GRACE_MS) {
    const n = Number(e.SHUTDOWN_GRACE_MS);
    if (!Number.isInteger(n) || n < 0 || n > 600_000)
      problems.push('SHUTDOWN_GRACE_MS must be a whole number of milliseconds between 0 and 600000 (default 10000).');
    else shutdownGraceMs = n;
  }

  let followPollMs = 10_000;
  if (e.FOLLOW_POLL_SECONDS) {
    const n = Number(e.FOLLOW_POLL_SECONDS);
    if (!Number.isInteger(n) || n < 1 || n > 60)
      problems.push('FOLLOW_POLL_SECONDS must be a whole number of seconds between 1 and 60 (default 10).');
    else followPollMs = n * 1000;
  }

  const metricsEnabled = onOff(e.METRICS, true);
  if (metricsEnabled === null) problems.push('METRICS must be on or off (default on).');
  const projectLabel = onOff(e.METRICS_PROJECT_LABEL, false);
  if (projectLabel === null) problems.push('METRICS_PROJECT_LABEL must be on or off (default off).');
  if (e.METRICS_TOKEN && e.METRICS_TOKEN.length < 16)
    problems.push('METRICS_TOKEN must be at least 16 characters: anyone who guesses it reads the metrics.');
  let metricsListen: { host: string | null; port: number } | null = null;
  if (e.METRICS_PORT) {
    metricsListen = parseListen(e.METRICS_PORT);
    if (!metricsListen)
      problems.push('METRICS_PORT must be a port (9464) or an address and a port (127.0.0.1:9464), port 1 to 65535.');
    else if (metricsListen.port === port && port !== 0)
      problems.push('METRICS_PORT must differ from PORT: the port Slack reaches never serves metrics without a token.');
  }

  if (problems.length > 0 || !key) throw new ConfigError(problems);
  return {
    slack: {
      botToken: e.SLACK_BOT_TOKEN ?? '',
      signingSecret: e.SLACK_SIGNING_SECRET ?? null,
      appToken: e.SLACK_APP_TOKEN ?? null,
      apiUrl,
      mode,
    },
    port,
    gitlabUrl,
    gitlabPublicUrl,
    encryption: { key, previousKey },
    databasePath: e.DATABASE_PATH ?? './data/bot.db',
    databaseUrl,
    slashCommand,
    logLevel,
    shutdownGraceMs,
    followPollMs,
    metrics: {
      enabled: metricsEnabled !== false,
      token: e.METRICS_TOKEN ?? null,
      listen: metricsListen,
      projectLabel: projectLabel === true,
    },
  };
}
