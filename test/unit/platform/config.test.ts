import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';

const key = () => crypto.randomBytes(32).toString('base64');

const valid = () => ({
  SLACK_BOT_TOKEN: 'xoxb-1-abc',
  SLACK_SIGNING_SECRET: 'shh-signing-secret',
  GITLAB_URL: 'https://gitlab.example.com/',
  TOKEN_ENCRYPTION_KEY: key(),
});

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('reads a complete environment with defaults for the optional variables', () => {
    const c = loadConfig(valid());
    expect(c.slack.mode).toBe('http');
    expect(c.port).toBe(3000);
    expect(c.gitlabUrl).toBe('https://gitlab.example.com');
    expect(c.databasePath).toBe('./data/bot.db');
    expect(c.slashCommand).toBe('/gl');
    expect(c.logLevel).toBe('info');
    expect(c.encryption.key).toHaveLength(32);
    expect(c.encryption.previousKey).toBeNull();
  });

  it('names every missing variable in one error when the environment is empty', () => {
    const problems = problemsOf({});
    expect(problems.map((p) => p.split(' ')[0])).toEqual([
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'GITLAB_URL',
      'TOKEN_ENCRYPTION_KEY',
    ]);
    expect(new ConfigError(problems).message).toMatch(/SLACK_BOT_TOKEN[\s\S]*TOKEN_ENCRYPTION_KEY/);
  });

  it('switches to Socket Mode when an app token is set, and then needs no signing secret', () => {
    const env = { ...valid(), SLACK_SIGNING_SECRET: undefined, SLACK_APP_TOKEN: 'xapp-1-abc' };
    expect(loadConfig(env).slack.mode).toBe('socket');
  });

  it('reports every malformed value at once and never echoes a secret value', () => {
    const env = {
      SLACK_BOT_TOKEN: 'not-a-bot-token-SECRET1',
      SLACK_SIGNING_SECRET: 'x',
      SLACK_APP_TOKEN: 'wrong-app-token-SECRET2',
      GITLAB_URL: 'ftp://nope',
      TOKEN_ENCRYPTION_KEY: 'c2hvcnQ=',
      TOKEN_ENCRYPTION_KEY_PREVIOUS: 'also-bad-SECRET3',
      PORT: '70000',
      LOG_LEVEL: 'chatty',
      SLASH_COMMAND: 'gl',
      SLACK_API_URL: 'nope',
    };
    const problems = problemsOf(env);
    expect(problems.map((p) => p.split(' ')[0])).toEqual([
      'SLACK_BOT_TOKEN',
      'SLACK_APP_TOKEN',
      'SLACK_API_URL',
      'PORT',
      'GITLAB_URL',
      'TOKEN_ENCRYPTION_KEY',
      'TOKEN_ENCRYPTION_KEY_PREVIOUS',
      'SLASH_COMMAND',
      'LOG_LEVEL',
    ]);
    const text = new ConfigError(problems).message;
    for (const secret of ['SECRET1', 'SECRET2', 'SECRET3', 'c2hvcnQ=']) expect(text).not.toContain(secret);
  });

  it('keeps a Slack API URL with its trailing slash and strips /api/v4 from GITLAB_URL', () => {
    const c = loadConfig({
      ...valid(),
      SLACK_API_URL: 'http://127.0.0.1:9999/api',
      GITLAB_URL: 'http://h:4000/api/v4',
    });
    expect(c.slack.apiUrl).toBe('http://127.0.0.1:9999/api/');
    expect(c.gitlabUrl).toBe('http://h:4000');
  });

  it('refuses credentials in GITLAB_URL and SLACK_API_URL without repeating them', () => {
    const problems = problemsOf({
      ...valid(),
      GITLAB_URL: 'https://deploy:hunter2-secret@gitlab.example.com',
      SLACK_API_URL: 'https://u:p4ss@slack.example/api/',
    });
    expect(problems).toEqual([
      'SLACK_API_URL must not contain a user name or password (https://user:password@host): remove them from the URL.',
      'GITLAB_URL must not contain a user name or password (https://user:password@host): remove them from the URL.',
    ]);
    expect(problems.join('\n')).not.toMatch(/hunter2|deploy|p4ss/);
  });

  it('reads GITLAB_PUBLIC_URL (optional) with the same checks as GITLAB_URL', () => {
    expect(loadConfig(valid()).gitlabPublicUrl).toBeNull();
    expect(loadConfig({ ...valid(), GITLAB_PUBLIC_URL: 'https://git.example.org/' }).gitlabPublicUrl).toBe(
      'https://git.example.org',
    );
    expect(problemsOf({ ...valid(), GITLAB_PUBLIC_URL: 'ftp://nope' })).toEqual([
      'GITLAB_PUBLIC_URL must be an http(s) URL, e.g. https://gitlab.example.com.',
    ]);
    const problems = problemsOf({ ...valid(), GITLAB_PUBLIC_URL: 'https://deploy:hunter2@git.example.org' });
    expect(problems).toEqual([
      'GITLAB_PUBLIC_URL must not contain a user name or password (https://user:password@host): remove them from the URL.',
    ]);
    expect(problems.join('\n')).not.toMatch(/hunter2|deploy/);
  });

  it('reads the metrics variables: on by default, no token, no port of their own, no project label', () => {
    expect(loadConfig(valid()).metrics).toEqual({ enabled: true, token: null, listen: null, projectLabel: false });
    const c = loadConfig({
      ...valid(),
      METRICS: 'off',
      METRICS_TOKEN: 'a-metrics-token-of-length',
      METRICS_PORT: '127.0.0.1:9464',
      METRICS_PROJECT_LABEL: 'on',
    });
    expect(c.metrics).toEqual({
      enabled: false,
      token: 'a-metrics-token-of-length',
      listen: { host: '127.0.0.1', port: 9464 },
      projectLabel: true,
    });
    expect(loadConfig({ ...valid(), METRICS_PORT: '9464' }).metrics.listen).toEqual({ host: null, port: 9464 });
    expect(loadConfig({ ...valid(), METRICS_PORT: '[::1]:9464' }).metrics.listen).toEqual({ host: '::1', port: 9464 });
  });

  it('refuses a short METRICS_TOKEN without echoing it, a METRICS_PORT it cannot read or equal to PORT', () => {
    const problems = problemsOf({
      ...valid(),
      METRICS_TOKEN: 'short-secret',
      METRICS_PORT: 'ninety',
      METRICS: 'maybe',
    });
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['METRICS', 'METRICS_TOKEN', 'METRICS_PORT']);
    expect(problems.join('\n')).not.toContain('short-secret');
    expect(problemsOf({ ...valid(), PORT: '3000', METRICS_PORT: '3000' })).toEqual([
      'METRICS_PORT must differ from PORT: the port Slack reaches never serves metrics without a token.',
    ]);
  });

  it('reads SHUTDOWN_GRACE_MS (default 10 s) and refuses what is not a whole number of ms', () => {
    expect(loadConfig(valid()).shutdownGraceMs).toBe(10_000);
    expect(loadConfig({ ...valid(), SHUTDOWN_GRACE_MS: '2500' }).shutdownGraceMs).toBe(2500);
    expect(problemsOf({ ...valid(), SHUTDOWN_GRACE_MS: '1.5s' })).toEqual([
      'SHUTDOWN_GRACE_MS must be a whole number of milliseconds between 0 and 600000 (default 10000).',
    ]);
  });

  it('reads FOLLOW_POLL_SECONDS (default 10 s) and refuses what is not 1 to 60 whole seconds', () => {
    expect(loadConfig(valid()).followPollMs).toBe(10_000);
    expect(loadConfig({ ...valid(), FOLLOW_POLL_SECONDS: '2' }).followPollMs).toBe(2000);
    for (const bad of ['0', '61', '1.5', 'soon']) {
      expect(problemsOf({ ...valid(), FOLLOW_POLL_SECONDS: bad })).toEqual([
        'FOLLOW_POLL_SECONDS must be a whole number of seconds between 1 and 60 (default 10).',
      ]);
    }
  });

  it('selects PostgreSQL with DATABASE_URL, and refuses it beside DATABASE_PATH, listed with every other problem', () => {
    const url = 'postgres://glbot:pw@db.internal:5432/glbot';
    expect(loadConfig({ ...valid(), DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(loadConfig(valid()).databaseUrl).toBeNull();
    expect(problemsOf({ ...valid(), DATABASE_URL: url, DATABASE_PATH: './bot.db', LOG_LEVEL: 'loud' })).toEqual([
      'DATABASE_URL and DATABASE_PATH are both set: set DATABASE_URL for PostgreSQL or DATABASE_PATH for a SQLite file, not both.',
      'LOG_LEVEL must be one of debug, info, warn, error.',
    ]);
    expect(problemsOf({ ...valid(), DATABASE_URL: 'mysql://u:secret@h/db' })).toEqual([
      'DATABASE_URL must be a PostgreSQL URL: postgres://user:password@host:5432/database.',
    ]);
  });
});
