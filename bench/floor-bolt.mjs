// The floor of the side-by-side bench: the least any bot built on this stack can do for `/gl jobs demo/web`. It is
// the bare Bolt app (same receiver, same options) plus exactly the work a whole command cannot skip: after the ack,
// one GET of the 20-job list through a got instance built once (keep-alive agent, no retries, no hooks) with the
// person's token, its JSON parse, and one POST of a one-line answer to the response_url on a kept-alive socket. No
// token store, no parser, no validation, no blocks: whatever the bot spends above this is the bot's own.
// BENCH_FLOOR_POST=got POSTs the answer through got instead, as the bot must (got is the project's one HTTP client,
// and the bot writes no raw node:http requests): the floor of the stack as the bot is allowed to use it.
//
//   SLACK_BOT_TOKEN=xoxb-… SLACK_SIGNING_SECRET=… SLACK_API_URL=http://…/api/ GITLAB_URL=http://… node bench/floor-bolt.mjs

import http from 'node:http';
import got from 'got';
import { createBoltApp, startBoltApp } from './bolt-app.mjs';

const env = process.env;
const app = createBoltApp(env);

const api = got.extend({
  prefixUrl: `${env.GITLAB_URL}/api/v4/`,
  agent: { http: new http.Agent({ keepAlive: true }) },
  responseType: 'json',
  retry: { limit: 0 },
});
const slack = new http.Agent({ keepAlive: true });

function post(url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: slack,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// The answer's POST through got: a kept-alive agent, no retries; what the bot's own POST adds to it (a timeout, one
// retry of a reset connection) is the bot's.
const slackGot = got.extend({
  agent: { http: slack },
  headers: { 'content-type': 'application/json' },
  retry: { limit: 0 },
});
const postAnswer = env.BENCH_FLOOR_POST === 'got' ? (url, body) => slackGot.post(url, { body }) : post;

app.command(env.SLASH_COMMAND ?? '/gl', async ({ ack, command }) => {
  await ack();
  // The bench's people are the simulator's demo users, connected with their demo tokens.
  const { body } = await api('projects/demo%2Fweb/jobs', {
    searchParams: { per_page: 20 },
    headers: { 'private-token': `sim-${command.user_name}-token` },
  });
  await postAnswer(command.response_url, JSON.stringify({ text: `Jobs in demo/web: ${body.length}` }));
});

await startBoltApp(app, env);
