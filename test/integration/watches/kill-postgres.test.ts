import { afterAll, beforeAll, it } from 'vitest';
import { buildBot } from '../../support/built-bot.js';
import { openProcessWorld } from '../../support/process-world.js';
import { replicasAfterKill, WATCH_TIMING } from './kill-cases.js';

// The watch process test of kill.test.ts with every process on one PostgreSQL database: a bot killed with SIGKILL
// right after posting a failure's card, then two replicas on the database: the card once, the fix once.

let build: { dir: string; remove(): void } | undefined;

beforeAll(async () => {
  build = await buildBot();
}, 240_000);

afterAll(() => build?.remove());

it('a bot killed after posting, then two replicas on one PostgreSQL database: the card once, the fix once', async ({
  onTestFinished,
}) => {
  const w = await openProcessWorld({ buildDir: build?.dir as string, engine: 'postgres', env: WATCH_TIMING });
  onTestFinished(() => w.close());
  await replicasAfterKill(w);
}, 180_000);
