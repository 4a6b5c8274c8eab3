// The yardstick of the side-by-side bench: a Bolt app with the bot's receiver (Bolt's own HTTP receiver, built from
// the same App options: bot token, signing secret, Web API URL, port) that only acks the slash command. Plain
// JavaScript run by plain node, as the built bot is. Prints `listening on PORT` once Slack could reach it.
//
//   SLACK_BOT_TOKEN=xoxb-… SLACK_SIGNING_SECRET=… SLACK_API_URL=http://…/api/ node bench/bare-bolt.mjs

import { createBoltApp, startBoltApp } from './bolt-app.mjs';

const app = createBoltApp();

app.command(process.env.SLASH_COMMAND ?? '/gl', async ({ ack }) => {
  await ack();
});

await startBoltApp(app);
