// Load generator for bench/sim.ts, run as its own process so the simulator
// keeps a core to itself: `concurrency` keep-alive connections each send the
// next GET as soon as the last answer is read, for `seconds` after a warm-up.
// Prints one JSON object.

import { Agent, request } from 'node:http';

const [url, token, secondsText, concurrencyText] = process.argv.slice(2);
if (!url || !token) {
  process.stderr.write('usage: sim-load.ts URL TOKEN [SECONDS] [CONCURRENCY]\n');
  process.exit(2);
}
const seconds = Number(secondsText ?? 5);
const concurrency = Number(concurrencyText ?? 16);
const target = new URL(url);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        headers: { 'PRIVATE-TOKEN': token },
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function run(ms: number): Promise<{ ok: number; failed: number; elapsed: number }> {
  const start = performance.now();
  const deadline = start + ms;
  let ok = 0;
  let failed = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      if ((await once()) === 200) ok++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { ok, failed, elapsed: (performance.now() - start) / 1000 };
}

await run(1000);
const { ok, failed, elapsed } = await run(seconds * 1000);
agent.destroy();
process.stdout.write(
  `${JSON.stringify({ requests: ok, failed, seconds: Number(elapsed.toFixed(2)), rps: Math.round(ok / elapsed), concurrency })}\n`,
);
