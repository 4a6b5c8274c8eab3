import { afterEach, describe, expect, it } from 'vitest';
import type { SqlEngine } from '../../../src/store/engine.js';
import { SCHEMA_VERSION, SchemaTooNewError } from '../../../src/store/migrations.js';
import { ENGINES, openInProcesses, type TestDatabase } from './engines.js';

// Store conformance: the schema, its versions and the write lock behave the same on SQLite and on PostgreSQL.

describe.each(ENGINES)('on $name', (under) => {
  const open: SqlEngine[] = [];
  const made: TestDatabase[] = [];
  const database = async (o: { unmigrated?: boolean } = {}) => {
    const d = await under.database(o);
    made.push(d);
    return d;
  };
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });

  it('migrates an empty database once when three processes start at the same moment', async () => {
    const d = await database({ unmigrated: true });
    expect(await openInProcesses(d.config, 3)).toEqual(['opened', 'opened', 'opened']);
    const engine = await d.open();
    open.push(engine);
    expect(await d.version(engine)).toBe(SCHEMA_VERSION);
    expect(await engine.get('SELECT count(*) AS n FROM digests')).toEqual({ n: 0 });
  });

  it('refuses to start on a schema newer than it knows, with the version in the message', async () => {
    const d = await database();
    const engine = await d.open();
    await d.setVersion(engine, SCHEMA_VERSION + 1);
    await engine.close();
    const opening = d.open();
    await expect(opening).rejects.toThrow(SchemaTooNewError);
    await expect(opening).rejects.toThrow(
      `The database is at schema version ${SCHEMA_VERSION + 1}, newer than this bot knows (${SCHEMA_VERSION}). Run a newer bot.`,
    );
  });

  it('rolls a transaction back when it throws, and keeps statements of others out of it', async () => {
    const engine = await (await database()).open();
    open.push(engine);
    await engine.run(
      `INSERT INTO channel_defaults (team_id, channel_id, project, set_by, set_at) VALUES ('T1', 'C0', 'p', 'U1', 'x')`,
    );
    let inside!: () => void;
    const reached = new Promise<void>((resolve) => {
      inside = resolve;
    });
    const failing = engine.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO channel_defaults (team_id, channel_id, project, set_by, set_at) VALUES ('T1', 'C1', 'p', 'U1', 'x')`,
      );
      await tx.run(`DELETE FROM channel_defaults WHERE channel_id = 'C0'`);
      inside();
      await new Promise((r) => setTimeout(r, 5));
      throw new Error('no');
    });
    await reached;
    const outside = engine.run(
      `INSERT INTO channel_defaults (team_id, channel_id, project, set_by, set_at) VALUES ('T1', 'C2', 'p', 'U1', 'x')`,
    );
    await expect(failing).rejects.toThrow('no');
    await outside;
    expect(await engine.all('SELECT channel_id FROM channel_defaults ORDER BY channel_id')).toEqual([
      { channel_id: 'C0' },
      { channel_id: 'C2' },
    ]);
  });

  it('lets one transaction at a time hold the write lock, across connections', async () => {
    const d = await database();
    const [a, b] = [await d.open(), await d.open()];
    open.push(a, b);
    await a.run(
      `INSERT INTO channel_defaults (team_id, channel_id, project, set_by, set_at) VALUES ('T1', 'C1', '0', 'U1', 'x')`,
    );
    // Read, then write what was read plus one: two of these at once must not lose an increment.
    const increment = (e: SqlEngine) =>
      e.transaction(async (tx) => {
        const r = await tx.get<{ project: string }>(`SELECT project FROM channel_defaults WHERE channel_id = 'C1'`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await tx.run(`UPDATE channel_defaults SET project = $1 WHERE channel_id = 'C1'`, [
          String(Number(r?.project) + 1),
        ]);
      });
    await Promise.all([increment(a), increment(b), increment(a), increment(b)]);
    expect(await a.get(`SELECT project FROM channel_defaults WHERE channel_id = 'C1'`)).toEqual({ project: '4' });
  });
});
