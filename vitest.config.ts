import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each file in its own process (the bot under test registers secrets, timers and signal handlers process-wide).
    pool: 'forks',
    // Vitest's default is one worker per core but one, which is a single worker on a two-core machine. Most of an
    // integration file's time is spent waiting on sockets and child processes, so three files at once keep two
    // cores busy; every server in the tests binds port 0 and every file has its own data directory.
    maxWorkers: 3,
    // One real PostgreSQL server per run, for the suites that run on both engines (test/support/postgres.ts).
    globalSetup: ['test/support/postgres-global.ts'],
  },
});
