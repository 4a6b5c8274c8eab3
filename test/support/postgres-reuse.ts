import pg from 'pg';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { migratedPostgresUrl } from './postgres.js';

// Databases for tests that each want an empty one, reused within a test worker: a database a test gave back is
// emptied (every row gone, identities back at 1) for the next, which is a few statements where a new database is
// CREATE DATABASE and every migration again. One that is not exactly at this bot's schema, or cannot be emptied at
// once (a connection left holding a lock), is not reused.

const given: string[] = [];

/**
 * A database for one test at SCHEMA_VERSION with no rows: one a test of this worker gave back, emptied, or a new copy
 * of the run's migrated one. Opening it (`openEngine`) finds nothing to do, so a test of the migrations themselves
 * takes `freshPostgresUrl()`.
 */
export async function borrowPostgresUrl(): Promise<string> {
  for (let url = given.pop(); url !== undefined; url = given.pop()) {
    if (await emptied(url)) return url;
  }
  return migratedPostgresUrl();
}

/** Gives a borrowed database back once every connection to it is closed. */
export function giveBackPostgresUrl(url: string): void {
  given.push(url);
}

async function emptied(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query(`SET lock_timeout = '2s'`);
    const version = await client.query<{ version: number }>('SELECT version FROM schema_version');
    if (version.rows.length !== 1 || version.rows[0]?.version !== SCHEMA_VERSION) return false;
    // Every foreign key deletes with its parent, so the order of the tables does not matter.
    await client.query(`DO $$
      DECLARE r record;
      BEGIN
        FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_version' LOOP
          EXECUTE format('DELETE FROM %I', r.tablename);
        END LOOP;
        FOR r IN SELECT sequencename FROM pg_sequences WHERE schemaname = 'public' LOOP
          EXECUTE format('ALTER SEQUENCE %I RESTART', r.sequencename);
        END LOOP;
      END $$`);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
