// The yardstick of the side-by-side bench: a Bolt app with the bot's receiver (Bolt's own HTTP receiver, built from
// the same App options: bot token, signing secret, Web API URL, port) that only acks the slash command. Plain
// JavaScript run by plain node, as the built bot is. Prints `listening on PORT` once Slack could reach it.
//
//   SLACK_BOT_TOKEN=xoxb-… SLACK_SIGNING_SECRET=… SLACK_API_URL=http://…/api/ node bench/bare-bolt.mjs

import bolt from '@slack/bolt';

const { App, LogLevel } = bolt;
const env = process.env;
const app = new App({
  token: env.SLACK_BOT_TOKEN,
  signingSecret: env.SLACK_SIGNING_SECRET ?? '',
  port: Number(env.PORT ?? 0),
  logLevel: LogLevel.WARN,
  clientOptions: env.SLACK_API_URL ? { slackApiUrl: env.SLACK_API_URL } : {},
});

app.command(env.SLASH_COMMAND ?? '/gl', async ({ ack }) => {
  await ack();
});

const server = await app.start(Number(env.PORT ?? 0));
process.stdout.write(`listening on ${server.address().port}\n`);
// A normal exit on SIGTERM, so that a `--cpu-prof` given through the bench's knobs is written.
process.on('SIGTERM', () => process.exit(0));
