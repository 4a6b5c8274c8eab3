import { defineConfig } from 'vitest/config';

// Files that change or read what the whole process holds (environment variables read when a module loads, a test
// file imported again by another, node-cron's registry of every task) run each in a fresh process; every other
// file shares its worker's loaded modules. (A suite run on both engines is a function each file calls.)
const OWN_PROCESS = ['test/integration/digests/restart.test.ts'];

const common = {
  environment: 'node',
  testTimeout: 20_000,
  hookTimeout: 30_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one, which is a single worker on a two-core machine. Most of an
    // integration file's time is spent waiting on sockets, child processes and the slots of the process tests, so
    // four files at once keep two cores busy (the whole suite on two quiet cores: 3 workers 100 s, 4 workers 80 s);
    // every server in the tests binds port 0 and every file has its own data directory.
    maxWorkers: 4,
    // One real PostgreSQL server per run, for the suites that run on both engines (test/support/postgres.ts), and
    // one build of the bot for the tests that start it as a process (test/support/built-bot.ts); the projects
    // below inherit what they provide.
    globalSetup: ['test/support/postgres-global.ts', 'test/support/build-global.ts'],
    projects: [
      {
        test: {
          ...common,
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: OWN_PROCESS,
          // Loading the bot and its dependencies is most of a file's time: files that run in the same worker
          // load them once. Each file still builds its own app, simulator and data directory (the harness), and
          // nothing a test does is kept in a module.
          isolate: false,
        },
      },
      { test: { ...common, name: 'own-process', include: OWN_PROCESS } },
    ],
  },
});
