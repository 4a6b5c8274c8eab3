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
});
