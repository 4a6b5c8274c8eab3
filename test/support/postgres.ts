import { inject } from 'vitest';
import { createDatabase } from './postgres-server.js';

// A test file's own PostgreSQL database on the run's one server (started by test/support/postgres-global.ts):
// empty, owned by a role that is not a superuser. Pass the URL as DATABASE_URL to a bot process, or to
// createPostgresEngine.

let waited: Promise<void> | null = null;

/** A new empty database on the test run's server, as a `postgres://` URL with its own role and password. */
export async function freshPostgresUrl(): Promise<string> {
  const adminUrl = inject('postgresAdminUrl');
  if (!adminUrl) throw new Error('no PostgreSQL server for this run: vitest.config.ts must list postgres-global.ts');
  waited ??= untilAnswering(adminUrl);
  await waited;
  return createDatabase(adminUrl);
}

async function untilAnswering(adminUrl: string): Promise<void> {
  const { default: pg } = await import('pg');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const client = new pg.Client({ connectionString: adminUrl });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
