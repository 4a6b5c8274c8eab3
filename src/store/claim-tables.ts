// The claims table, on each engine (store/claim-store.ts reads and writes it; store/migrations.ts creates it).

/** The table as it first shipped, on each engine, and as step 14 leaves it again (claim-table-steps.ts). */
export const CLAIMS_POSTGRES_DDL = `CREATE TABLE claims (
  claim_key TEXT PRIMARY KEY,
  held_until TEXT NOT NULL
);
CREATE INDEX claims_held_until ON claims (held_until);`;

export const CLAIMS_SQLITE_DDL = `CREATE TABLE claims (
     claim_key  TEXT PRIMARY KEY,
     held_until TEXT NOT NULL
   ) STRICT;
   CREATE INDEX claims_held_until ON claims (held_until);`;
