// The claims table's later steps (claim-tables.ts has the table as it first shipped).
//
// Step 12 rebuilt it WITHOUT ROWID and dropped the held_until index, to write one B-tree per claim instead of three.
// It has shipped, so it stays as it was; step 14 undoes it: SQLite chooses the rowids again, and pruning finds the
// passed keys through the held_until index instead of a scan. Keys held are copied across both times.

/** Step 12 (shipped; undone by step 14). */
export const CLAIMS_LEAN_SQLITE = `CREATE TABLE claims_lean (
     claim_key  TEXT PRIMARY KEY,
     held_until TEXT NOT NULL
   ) STRICT, WITHOUT ROWID;
   INSERT INTO claims_lean (claim_key, held_until) SELECT claim_key, held_until FROM claims;
   DROP TABLE claims;
   ALTER TABLE claims_lean RENAME TO claims;`;

/** Step 12 (shipped; undone by step 14). */
export const CLAIMS_LEAN_POSTGRES = 'DROP INDEX IF EXISTS claims_held_until;';

/** Step 14: the table as it first shipped, with the keys it holds. */
export const CLAIMS_PLAIN_SQLITE = `CREATE TABLE claims_plain (
     claim_key  TEXT PRIMARY KEY,
     held_until TEXT NOT NULL
   ) STRICT;
   INSERT INTO claims_plain (claim_key, held_until) SELECT claim_key, held_until FROM claims;
   DROP TABLE claims;
   ALTER TABLE claims_plain RENAME TO claims;
   CREATE INDEX claims_held_until ON claims (held_until);`;

/** Step 14. */
export const CLAIMS_PLAIN_POSTGRES = 'CREATE INDEX IF NOT EXISTS claims_held_until ON claims (held_until);';
