import { afterAll, beforeAll, it } from 'vitest';
import { buildBot } from '../../support/built-bot.js';
import { openProcessWorld } from '../../support/process-world.js';
import { ALERT_TIMING, replicasAfterKill } from './kill-cases.js';

// The alert process test of kill.test.ts with every process on one PostgreSQL database: a bot killed with SIGKILL
// right after an alert DM was posted, then two replicas on the database: every todo exactly once between them.

let build: { dir: string; remove(): void } | undefined;

beforeAll(async () => {
  build = await buildBot();
}, 240_000);

afterAll(() => build?.remove());

it('a bot killed after posting, then two replicas on one PostgreSQL database: every todo exactly once', async ({
  onTestFinished,
}) => {
  const w = await openProcessWorld({ buildDir: build?.dir as string, engine: 'postgres', env: ALERT_TIMING });
  onTestFinished(() => w.close());
  await replicasAfterKill(w, 'after-post');
}, 180_000);
