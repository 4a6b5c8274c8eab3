import { inject } from 'vitest';
import { createDatabase } from '../../scripts/postgres-server.js';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { openPostgres } from '../../src/store/postgres-engine.js';

// A test file's own PostgreSQL database on the run's one server (started by test/support/postgres-global.ts):
// owned by a role that is not a superuser. Pass the URL as DATABASE_URL to a bot process, or to
// createPostgresEngine.

let waited: Promise<void> | null = null;

/** A new empty database on the test run's server, as a `postgres://` URL with its own role and password. */
export async function freshPostgresUrl(): Promise<string> {
  return createDatabase(await answeringAdminUrl());
}

/**
 * A new database already at SCHEMA_VERSION and holding no rows: a copy of one database the run migrated once, so
 * opening it (`openEngine`) finds nothing to do where a fresh one runs every migration. Tests of the migrations
 * themselves take `freshPostgresUrl()`.
 */
export async function migratedPostgresUrl(): Promise<string> {
  const adminUrl = await answeringAdminUrl();
  template ??= migratedTemplate(adminUrl);
  template.catch(() => {
    template = null;
  });
  return createDatabase(adminUrl, 'glbot', { template: await template });
}

async function answeringAdminUrl(): Promise<string> {
  const adminUrl = inject('postgresAdminUrl');
  if (!adminUrl) throw new Error('no PostgreSQL server for this run: vitest.config.ts must list postgres-global.ts');
  waited ??= untilAnswering(adminUrl);
  await waited;
  return adminUrl;
}

let template: Promise<string> | null = null;

/** Arbitrary, shared by the test workers of a run: the first to take it migrates the template, the others wait. */
const TEMPLATE_LOCK = 7_023_023;

/**
 * The run's migrated template (made by the first worker that asks; the server lives as long as the run): a database
 * migrated by the bot's own migrations, with everything in it owned by the role of the same name, and no connection
 * allowed, so that it can be copied at any time.
 */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const name = `glbot_migrated_v${SCHEMA_VERSION}`;
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const made = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (made.rowCount === 0) {
      const migrating = await createDatabase(adminUrl, 'glbot_template');
      const engine = await openPostgres(migrating);
      await engine.close();
      const madeBy = decodeURIComponent(new URL(migrating).username);
      // The copies' tables are handed over by their role's name (createDatabase): the template's role is renamed to
      // the template's, and the database goes to the superuser, so that handing over leaves the template alone.
      await admin.query(`ALTER DATABASE ${madeBy} OWNER TO postgres`);
      await admin.query(`ALTER ROLE ${madeBy} RENAME TO ${name}`);
      await admin.query(`ALTER DATABASE ${madeBy} RENAME TO ${name}`);
      await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock_all()').catch(() => {});
    await admin.end();
  }
  return name;
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
