/**
 * The claim a signed request makes before it is acknowledged (store/claim-store.ts), on a SQLite file opened as
 * the bot opens it: CPU (user + kernel) per claim with the claims table as step 6 made it (rowid, key index,
 * held_until index) and as it is now (claim-tables-lean.ts). The table starts with BENCH_CLAIM_HELD live keys
 * (what five minutes of signatures leave at a steady rate), then BENCH_CLAIM_COUNT claims run one after another,
 * each awaited like the request guard awaits it. The two shapes alternate, BENCH_CLAIM_RUNS runs each; prints one
 * JSON object with every run and the medians, and the load average it ran under.
 *
 *   npx tsx bench/claim.ts
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLAIMS_SQLITE_DDL, createClaimStore, createSqliteEngine, openDatabase } from '../src/index.js';

const HELD = Number(process.env.BENCH_CLAIM_HELD ?? 20_000);
const COUNT = Number(process.env.BENCH_CLAIM_COUNT ?? 20_000);
const RUNS = Number(process.env.BENCH_CLAIM_RUNS ?? 5);

type Shape = 'rowid_and_index' | 'without_rowid';

const signature = () => `signature:v0=${randomBytes(32).toString('hex')}`;

async function run(shape: Shape): Promise<{ us_cpu_per_claim: number; us_wall_per_claim: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-claim-bench-'));
  const db = openDatabase(path.join(dir, 'bot.db'));
  try {
    if (shape === 'rowid_and_index') db.exec(`DROP TABLE claims; ${CLAIMS_SQLITE_DDL}`);
    const until = new Date(Date.now() + 300_000).toISOString();
    const fill = db.prepare('INSERT INTO claims (claim_key, held_until) VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < HELD; i++) fill.run(signature(), until);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const claims = createClaimStore(createSqliteEngine(db));
    const keys = Array.from({ length: COUNT }, signature);
    const held = new Date(Date.now() + 300_000);
    await claims.claim(signature(), held); // the first claim prunes; measure claims, not that
    const cpu = process.cpuUsage();
    const wall = process.hrtime.bigint();
    for (const key of keys) {
      if (!(await claims.claim(key, held))) throw new Error('a fresh key was refused');
    }
    const spent = process.cpuUsage(cpu);
    const wallUs = Number(process.hrtime.bigint() - wall) / 1000;
    return {
      us_cpu_per_claim: Math.round(((spent.user + spent.system) / COUNT) * 10) / 10,
      us_wall_per_claim: Math.round((wallUs / COUNT) * 10) / 10,
    };
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

const load = os.loadavg()[0];
const runs: Record<Shape, { us_cpu_per_claim: number; us_wall_per_claim: number }[]> = {
  rowid_and_index: [],
  without_rowid: [],
};
for (let i = 0; i < RUNS; i++) {
  for (const shape of ['rowid_and_index', 'without_rowid'] as const) runs[shape].push(await run(shape));
}
const before = median(runs.rowid_and_index.map((r) => r.us_cpu_per_claim));
const after = median(runs.without_rowid.map((r) => r.us_cpu_per_claim));
console.log(
  JSON.stringify({
    held: HELD,
    claims_per_run: COUNT,
    runs: RUNS,
    load_average_1m: [Math.round((load ?? 0) * 10) / 10, Math.round((os.loadavg()[0] ?? 0) * 10) / 10],
    median_us_cpu_per_claim: {
      rowid_and_index: before,
      without_rowid: after,
      ratio: Math.round((after / before) * 100) / 100,
    },
    every_run: runs,
  }),
);
