// Preloaded by bench/ab-builds.ts into each app with BENCH_AB_TIMELINE=dir (next to bench/probe.mjs, through
// NODE_OPTIONS, so that nothing in src/ carries a seam for it): on the machine's monotonic clock, in µs, when each
// request to the app started (its headers parsed), when its ack was written (the first res.end), and when each
// answer POSTed to a response_url was sent and its 200 came back. Written to <dir>/<script>.<pid>.timeline.json on
// exit; ab-builds lines these up with the load generator's own send and ack times (see timelineSplit there).

import { subscribe } from 'node:diagnostics_channel';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const main = process.env.BENCH_PROBE_MAIN;
const dir = process.env.BENCH_AB_TIMELINE;
if (main && dir && process.argv[1]?.endsWith(main)) {
  const us = () => Number(process.hrtime.bigint() / 1000n);
  const started = new WeakMap();
  const requests = [];
  const answers = [];
  subscribe('http.server.request.start', ({ request }) => {
    if (!request.url?.startsWith('/__')) started.set(request, us());
  });
  const end = http.ServerResponse.prototype.end;
  http.ServerResponse.prototype.end = function (...args) {
    const start = started.get(this.req);
    if (start !== undefined) {
      started.delete(this.req);
      requests.push([start, us()]);
    }
    return end.apply(this, args);
  };
  const sent = new WeakMap();
  subscribe('http.client.request.start', ({ request }) => {
    if (request.path?.startsWith('/response/')) sent.set(request, us());
  });
  subscribe('http.client.response.finish', ({ request }) => {
    const at = sent.get(request);
    if (at !== undefined) answers.push([at, us()]);
  });
  process.on('exit', () => {
    const name = `${path.basename(process.argv[1])}.${process.pid}.timeline.json`;
    fs.writeFileSync(path.join(dir, name), JSON.stringify({ requests, answers }));
  });
}
