// The whole bot as Slack sees it: a signed request in, the answer out (through the
// response_url), with the simulator behind it. Prints one JSON object with the median
// and p99 milliseconds of three everyday interactions.
//
//   npx tsx bench/bot.ts            (BENCH_ROUNDS, default 200)

import { DEMO_PEOPLE, startDemo } from '../src/console/demo.js';
import type { FakeRecord } from '../src/console/fake-slack.js';
import type { Interaction } from '../src/console/slack-driver.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const alice = DEMO_PEOPLE.alice;

const demo = await startDemo({ write: () => {}, ask: async () => null });
const answered = (it: Interaction) =>
  it
    .waitFor((r: FakeRecord) => r.kind === 'response_url' && r.ok, 10_000)
    .then((r) => {
      if (!r) throw new Error('no answer within 10 s');
      return r;
    });

async function measure(name: string, once: () => Promise<void>) {
  for (let i = 0; i < 10; i++) await once();
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = process.hrtime.bigint();
    await once();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => Math.round((ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0) * 100) / 100;
  return { name, rounds: ROUNDS, median_ms: q(0.5), p99_ms: q(0.99) };
}

try {
  const card = await measure('command: job card', async () => {
    await answered(await demo.slack.command(alice, 'job demo/web 8'));
  });
  const list = await measure('command: 20 jobs', async () => {
    await answered(await demo.slack.command(alice, 'jobs demo/web --per-page 20'));
  });
  const first = await demo.slack.command(alice, 'job demo/web 8');
  await answered(first);
  const trace = first.button(/^Trace$/);
  if (!trace) throw new Error('no Trace button on the job card');
  const click = await measure('button: Trace', async () => {
    await answered(await demo.slack.click(alice, trace));
  });
  console.log(
    JSON.stringify({
      benchmark: 'bot round trip (signed request → response_url)',
      results: [card, list, click],
      node: process.version,
    }),
  );
} finally {
  await demo.close();
}
