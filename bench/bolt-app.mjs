// What the bench's yardsticks (bench/bare-bolt.mjs, bench/floor-bolt.mjs) share with each other and with the bot's
// HTTP mode: a Bolt app on Bolt's own HTTP receiver, built from the same options (bot token, signing secret, Web API
// URL, port), started on PORT (0: any free port), saying `listening on PORT` once Slack could reach it.

import bolt from '@slack/bolt';

const { App, LogLevel } = bolt;

export function createBoltApp(env = process.env) {
  return new App({
    token: env.SLACK_BOT_TOKEN,
    signingSecret: env.SLACK_SIGNING_SECRET ?? '',
    port: Number(env.PORT ?? 0),
    logLevel: LogLevel.WARN,
    clientOptions: env.SLACK_API_URL ? { slackApiUrl: env.SLACK_API_URL } : {},
  });
}

export async function startBoltApp(app, env = process.env) {
  const server = await app.start(Number(env.PORT ?? 0));
  process.stdout.write(`listening on ${server.address().port}\n`);
  // A normal exit on SIGTERM, so that a `--cpu-prof` given through the bench's knobs is written.
  process.on('SIGTERM', () => process.exit(0));
}
