import { defineConfig } from 'vitest/config';

// Files that change or read what the whole process holds (environment variables read when a module loads, a test
// file imported again by another, node-cron's registry of every task) run each in a fresh process; every other
// file shares its worker's loaded modules.
const OWN_PROCESS = [
  'test/integration/digests/restart.test.ts',
  'test/integration/digests/replicas.test.ts',
  'test/integration/digests/replicas-postgres.test.ts',
  'test/integration/replicas/requests-once.test.ts',
  'test/integration/replicas/requests-once-postgres.test.ts',
];

const common = {
  environment: 'node',
  testTimeout: 20_000,
  hookTimeout: 30_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one, which is a single worker on a two-core machine. Most of an
    // integration file's time is spent waiting on sockets and child processes, so three files at once keep two
    // cores busy; every server in the tests binds port 0 and every file has its own data directory.
    maxWorkers: 3,
    // One real PostgreSQL server per run, for the suites that run on both engines (test/support/postgres.ts); the
    // projects below inherit what it provides.
    globalSetup: ['test/support/postgres-global.ts'],
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
