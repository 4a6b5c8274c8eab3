// The claims table (claim-store.ts) rebuilt to cost less per claim: every signed request inserts one row before
// it is acknowledged, so that insert is on the path of every command.
// - SQLite: WITHOUT ROWID with the key as the primary key, so a claim writes one B-tree (the table is its key's
//   index) instead of three (rows by rowid, the key's index, the held_until index). Rows held are copied as they
//   are, live or not (the next prune forgets the old ones). Pruning becomes a scan of the table: it runs at most
//   once a minute per process and deletes what it would have deleted through the index.
// - PostgreSQL: the table stays; only the held_until index goes, for the same reason (one index fewer to write
//   per claim; pruning scans).

export const CLAIMS_LEAN_SQLITE = `CREATE TABLE claims_lean (
     claim_key  TEXT PRIMARY KEY,
     held_until TEXT NOT NULL
   ) STRICT, WITHOUT ROWID;
   INSERT INTO claims_lean (claim_key, held_until) SELECT claim_key, held_until FROM claims;
   DROP TABLE claims;
   ALTER TABLE claims_lean RENAME TO claims;`;

export const CLAIMS_LEAN_POSTGRES = 'DROP INDEX IF EXISTS claims_held_until;';
