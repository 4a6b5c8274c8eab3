import { afterAll, beforeAll, describe, it } from 'vitest';
import type { AlertPoint } from '../../../src/operations/alert-service.js';
import { buildBot } from '../../support/built-bot.js';
import { openProcessWorld } from '../../support/process-world.js';
import { ALERT_TIMING, replicasAfterKill, restartedAfterKill } from './kill-cases.js';

// The built bot as a process, killed with SIGKILL at each point of an alert delivery (before the DM, between the
// DM and saving, while saving); restarted on the same SQLite database it sends every todo exactly once, and so do
// two replicas on it after a kill. Each case has its own simulator, fake Slack and database, so they run at once.

let build: { dir: string; remove(): void } | undefined;

beforeAll(async () => {
  build = await buildBot();
}, 240_000);

afterAll(() => build?.remove());

const world = () => openProcessWorld({ buildDir: build?.dir as string, engine: 'sqlite', env: ALERT_TIMING });

describe.concurrent('a bot killed with SIGKILL during an alert delivery', () => {
  for (const point of ['before-post', 'after-post', 'while-saving'] as AlertPoint[]) {
    it(`${point.replace('-', ' ')}: restarted on the same database, sends every todo exactly once`, async ({
      onTestFinished,
    }) => {
      const w = await world();
      onTestFinished(() => w.close());
      await restartedAfterKill(w, point);
    }, 180_000);
  }

  it('while saving, then two replicas on the database: every todo exactly once between them', async ({
    onTestFinished,
  }) => {
    const w = await world();
    onTestFinished(() => w.close());
    await replicasAfterKill(w, 'while-saving');
  }, 180_000);
});
