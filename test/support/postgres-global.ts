import type { TestProject } from 'vitest/node';
import { launchPostgresServer } from '../../scripts/postgres-server.js';

// vitest globalSetup: ONE PostgreSQL server per test run, launched while the files are collected; each test file
// asks for its own database (test/support/postgres.ts). Stopped and deleted when the run ends.

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/**
 * A throwaway cluster's settings (on top of the server's own fsync=off and friends): nothing here is kept past the
 * run, and the hundreds of small databases a run makes are never big enough to need vacuuming, so no background
 * worker visits them in turn; WAL is written for crash recovery only.
 */
const THROWAWAY = {
  autovacuum: 'off',
  wal_level: 'minimal',
  max_wal_senders: '0',
  max_wal_size: '1GB',
  checkpoint_timeout: '1h',
  shared_buffers: '32MB',
  jit: 'off',
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await launchPostgresServer({ settings: THROWAWAY });
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}
