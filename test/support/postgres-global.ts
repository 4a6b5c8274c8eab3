import type { TestProject } from 'vitest/node';
import { launchPostgresServer } from './postgres-server.js';

// vitest globalSetup: ONE PostgreSQL server per test run, launched while the files are collected; each test file
// asks for its own database (test/support/postgres.ts). Stopped and deleted when the run ends.

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await launchPostgresServer();
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}
