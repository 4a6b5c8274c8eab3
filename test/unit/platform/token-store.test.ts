import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseBusyError } from '../../../src/errors.js';
import { createChannelStore } from '../../../src/store/channel-store.js';
import { DatabaseOpenError, migrate, openDatabase, SCHEMA_VERSION } from '../../../src/store/database.js';
import { createSealer } from '../../../src/store/sealer.js';
import { createTokenStore } from '../../../src/store/token-store.js';

const dirs: string[] = [];
const tempDb = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-store-'));
  dirs.push(dir);
  return path.join(dir, 'bot.db');
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const bytesOf = (file: string) =>
  Buffer.concat(fs.readdirSync(path.dirname(file)).map((f) => fs.readFileSync(path.join(path.dirname(file), f))));

describe('the SQLite store', () => {
  it('opens with WAL, foreign keys, a short busy timeout and the latest schema version', () => {
    const db = openDatabase(tempDb());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // A statement blocks the whole process while it waits: waits longer than this happen on timers (whenFree).
    expect(db.pragma('busy_timeout', { simple: true })).toBe(10);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('waits for a lock another connection holds on timers, and says busy when it stays', async () => {
    const file = tempDb();
    const db = openDatabase(file);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    const channels = createChannelStore(db, undefined, { budgetMs: 100 });
    // Reads do not wait for the writer (WAL).
    expect(await channels.get('T1', 'C1')).toBeNull();
    await expect(
      channels.set({ teamId: 'T1', channelId: 'C1', project: 'demo/web', setBy: 'U1', hidden: false }),
    ).rejects.toThrow(DatabaseBusyError);
    // Released while the bot waits: the write goes through.
    const waits: number[] = [];
    const patient = createChannelStore(db, undefined, {
      onBusy: (_what, attempt) => {
        waits.push(attempt);
        if (attempt === 2) other.exec('ROLLBACK');
      },
    });
    await patient.set({ teamId: 'T1', channelId: 'C1', project: 'demo/web', setBy: 'U1', hidden: false });
    expect(waits).toEqual([1, 2]);
    expect((await patient.get('T1', 'C1'))?.project).toBe('demo/web');
    other.close();
    db.close();
  });

  it('names DATABASE_PATH, the path and the reason when the file cannot be opened', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-db-'));
    dirs.push(dir);
    const blocker = path.join(dir, 'a-file');
    fs.writeFileSync(blocker, 'not a directory');
    const under = path.join(blocker, 'bot.db');
    expect(() => openDatabase(under)).toThrow(
      `DATABASE_PATH (${under}) cannot be used: a part of the path is a file, not a directory. Point DATABASE_PATH at a file in a directory the bot may write to (default ./data/bot.db).`,
    );
    expect(() => openDatabase(dir)).toThrow(DatabaseOpenError);
    fs.writeFileSync(path.join(dir, 'garbage.db'), 'x'.repeat(4096));
    expect(() => openDatabase(path.join(dir, 'garbage.db'))).toThrow(/the file is not a SQLite database/);
  });

  it('refuses a database written by a newer bot', () => {
    const db = openDatabase(tempDb());
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    expect(() => migrate(db)).toThrow(/newer than this bot knows/);
    db.close();
  });

  it('stores a token sealed: the raw bytes appear nowhere in the database files', async () => {
    const file = tempDb();
    const db = openDatabase(file);
    const store = createTokenStore(db, createSealer({ key: crypto.randomBytes(32) }));
    const token = `glpat-${crypto.randomBytes(12).toString('hex')}`;
    await store.save({
      teamId: 'T1',
      userId: 'U1',
      token,
      serverUrl: 'http://h',
      verifiedAt: new Date(),
      username: null,
    });
    expect(await store.openToken('T1', 'U1')).toBe(token);
    expect(bytesOf(file).includes(Buffer.from(token))).toBe(false);
    db.close();
    expect(bytesOf(file).includes(Buffer.from(token))).toBe(false);
  });

  it('keeps connection details, marks a refused token revoked once, and forgets on remove', async () => {
    const db = openDatabase(':memory:');
    const t0 = new Date('2026-11-01T10:00:00Z');
    const store = createTokenStore(db, createSealer({ key: crypto.randomBytes(32) }), () => t0);
    await store.save({
      teamId: 'T1',
      userId: 'U1',
      token: 'glpat-aaaaaaaaaa',
      serverUrl: 'http://h',
      verifiedAt: t0,
      username: null,
    });
    expect(await store.find('T1', 'U1')).toEqual({
      teamId: 'T1',
      userId: 'U1',
      serverUrl: 'http://h',
      createdAt: t0,
      verifiedAt: t0,
      status: 'valid',
      username: null,
    });
    expect(await store.markRevoked('T1', 'U1')).toBe(true);
    expect(await store.markRevoked('T1', 'U1')).toBe(false);
    expect((await store.find('T1', 'U1'))?.status).toBe('revoked');
    expect(await store.remove('T1', 'U1')).toBe(true);
    expect(await store.find('T1', 'U1')).toBeNull();
    expect(await store.remove('T1', 'U1')).toBe(false);
  });

  it('after a restart with key B (and A as previous) reads tokens sealed under A and re-seals them under B', async () => {
    const file = tempDb();
    const keyA = crypto.randomBytes(32);
    const keyB = crypto.randomBytes(32);
    let db = openDatabase(file);
    await createTokenStore(db, createSealer({ key: keyA })).save({
      teamId: 'T1',
      userId: 'U1',
      token: 'glpat-rotate-me-please',
      serverUrl: 'http://h',
      verifiedAt: new Date(),
      username: null,
    });
    db.close();

    db = openDatabase(file);
    const rotated = createSealer({ key: keyB, previousKey: keyA });
    const store = createTokenStore(db, rotated);
    expect(await store.resealStale()).toBe(1);
    const row = db.prepare('SELECT key_id, sealed_token FROM user_tokens').get() as {
      key_id: string;
      sealed_token: string;
    };
    expect(row.key_id).toBe(rotated.keyId);
    expect(await store.openToken('T1', 'U1')).toBe('glpat-rotate-me-please');
    db.close();

    // Once re-sealed, key A is no longer needed.
    db = openDatabase(file);
    expect(await createTokenStore(db, createSealer({ key: keyB })).openToken('T1', 'U1')).toBe(
      'glpat-rotate-me-please',
    );
    db.close();
  });

  it('remembers one default project per channel', async () => {
    const channels = createChannelStore(openDatabase(':memory:'));
    expect(await channels.get('T1', 'C1')).toBeNull();
    await channels.set({ teamId: 'T1', channelId: 'C1', project: 'demo/web', setBy: 'U1', hidden: false });
    await channels.set({ teamId: 'T1', channelId: 'C1', project: 'demo/docs', setBy: 'U2', hidden: true });
    expect((await channels.get('T1', 'C1'))?.project).toBe('demo/docs');
    expect(await channels.get('T1', 'C2')).toBeNull();
    expect(await channels.clear('T1', 'C1')).toBe(true);
    expect(await channels.clear('T1', 'C1')).toBe(false);
  });
});
