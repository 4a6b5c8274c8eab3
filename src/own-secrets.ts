import type { Config } from './config.js';
import { registerSecret } from './redact.js';
import { passwordOf } from './store/postgres-url.js';

/**
 * Puts the bot's own secrets on the redaction list: its Slack tokens and signing secret, the metrics token, the keys that seal stored
 * tokens and the database password. Every redaction (logs, and what the bot sends of a trace) removes them
 * from then on, whatever their shape.
 */
export function registerOwnSecrets(config: Config): void {
  for (const secret of [config.slack.botToken, config.slack.signingSecret, config.slack.appToken, config.metrics.token])
    registerSecret(secret);
  for (const key of [config.encryption.key, config.encryption.previousKey]) {
    if (!key) continue;
    registerSecret(key.toString('base64'));
    registerSecret(key.toString('base64url'));
    registerSecret(key.toString('hex'));
  }
  if (!config.databaseUrl) return;
  const password = passwordOf(config.databaseUrl);
  if (!password) return;
  registerSecret(password);
  registerSecret(encodeURIComponent(password));
  try {
    registerSecret(new URL(config.databaseUrl).password);
  } catch {
    // passwordOf read it; a URL that does not parse has no password to add.
  }
}
