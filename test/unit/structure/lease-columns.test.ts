import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourcesUnder } from './import-graph.js';

// One lease protocol (issue 41): the columns of a leased row's lease and of a polled row's back-off are named by the
// schema and by the lease store alone; every other store builds its statements from the lease store's fragments, so
// that a change of the protocol is made in one place.

const repo = path.resolve(import.meta.dirname, '../../..');
const COLUMNS = /\b(lease_owner|lease_until|lease_gen|busy_polls)\b/;

describe('the lease and back-off columns', () => {
  it('are named only by the schema and the lease store', () => {
    const naming = sourcesUnder(repo, 'src').filter((f) => COLUMNS.test(fs.readFileSync(path.join(repo, f), 'utf8')));
    expect(naming.sort()).toEqual(['src/store/delivery-lease-store.ts', 'src/store/migrations.ts']);
  });
});
