import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/database.js';
import { createSqliteEngine } from '../../../src/store/engine.js';

describe('the SQLite engine behind the store port', () => {
  const engine = () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    return createSqliteEngine(db);
  };

  it('reads $n placeholders, repeated or not, and counts changed rows', async () => {
    const e = engine();
    expect(await e.run('INSERT INTO t (id, v) VALUES ($1, $2), ($3, $2)', [1, 'a', 2])).toBe(2);
    expect(await e.all<{ id: number }>('SELECT id FROM t WHERE v = $1 ORDER BY id', ['a'])).toEqual([
      { id: 1 },
      { id: 2 },
    ]);
    expect(await e.get('SELECT id FROM t WHERE id = $1', [9])).toBeUndefined();
  });

  it('keeps statements of others out of an open transaction, and rolls it back when it throws', async () => {
    const e = engine();
    let inside!: () => void;
    const reached = new Promise<void>((resolve) => {
      inside = resolve;
    });
    const failing = e.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id, v) VALUES (1, $1)', ['tx']);
      inside();
      await new Promise((r) => setTimeout(r, 5));
      throw new Error('no');
    });
    await reached;
    const outside = e.run('INSERT INTO t (id, v) VALUES (2, $1)', ['outside']);
    await expect(failing).rejects.toThrow('no');
    await outside;
    expect(await e.all('SELECT id, v FROM t')).toEqual([{ id: 2, v: 'outside' }]);
  });

  it('runs a statement on an idle connection at once, and one asked for behind a transaction after it', async () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const e = createSqliteEngine(db);
    const first = e.run('INSERT INTO t (id, v) VALUES (1, $1)', ['at once']);
    // Nobody had a turn: the row is there before the caller's next microtask.
    expect(db.prepare('SELECT v FROM t WHERE id = 1').get()).toEqual({ v: 'at once' });
    await first;
    const tx = e.transaction(async (t) => {
      await t.run('UPDATE t SET v = $1 WHERE id = 1', ['tx']);
    });
    const after = e.get<{ v: string }>('SELECT v FROM t WHERE id = 1');
    await tx;
    expect(await after).toEqual({ v: 'tx' });
  });

  it('waits for a file another connection holds locked, then runs the statement', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-engine-')), 'busy.db');
    const mine = openDatabase(file);
    const other = openDatabase(file);
    try {
      mine.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      other.exec('BEGIN IMMEDIATE');
      const e = createSqliteEngine(mine, { budgetMs: 5000 });
      const waiting = e.run('INSERT INTO t (id, v) VALUES (1, $1)', ['later']);
      await new Promise((resolve) => setTimeout(resolve, 30));
      other.exec('COMMIT');
      expect(await waiting).toBe(1);
    } finally {
      mine.close();
      other.close();
    }
  });
});
