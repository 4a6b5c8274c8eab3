import { afterAll, beforeAll, describe, it } from 'vitest';
import { buildBot } from '../../support/built-bot.js';
import { openProcessWorld } from '../../support/process-world.js';
import { replicasAfterKill, restartedAfterCardKill, restartedAfterFixKill, WATCH_TIMING } from './kill-cases.js';

// The built bot as processes, killed with SIGKILL at each point of a watch's delivery; restarted on the same SQLite
// database (or as two replicas on it), the channel gets the card once and the fix once. Each case has its own
// simulator, fake Slack and database, so they run at once.

let build: { dir: string; remove(): void } | undefined;

beforeAll(async () => {
  build = await buildBot();
}, 240_000);

afterAll(() => build?.remove());

const world = async (onTestFinished: (fn: () => Promise<void>) => void) => {
  const w = await openProcessWorld({ buildDir: build?.dir as string, engine: 'sqlite', env: WATCH_TIMING });
  onTestFinished(() => w.close());
  return w;
};

describe.concurrent('a bot killed with SIGKILL while it delivers what a watch found', () => {
  for (const point of ['before-post', 'after-post'] as const) {
    it(`${point.replace('-', ' ')} of the failure's card: restarted, it posts the card once, then the fix once`, async ({
      onTestFinished,
    }) => {
      await restartedAfterCardKill(await world(onTestFinished), point);
    }, 180_000);
  }

  for (const point of ['after-update', 'after-reply'] as const) {
    it(`${point.replace('-', ' ')} of the fix: restarted, the card is fixed and the thread gets one reply`, async ({
      onTestFinished,
    }) => {
      await restartedAfterFixKill(await world(onTestFinished), point);
    }, 180_000);
  }

  it('after posting, then two replicas on the database: one poll an interval between them, the fix once', async ({
    onTestFinished,
  }) => {
    await replicasAfterKill(await world(onTestFinished));
  }, 180_000);
});
