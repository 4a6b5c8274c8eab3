// The database's part of idle alert polls alone (not part of `npm run bench`): 10,000 people turned on through the
// alert store on a SQLite file opened as the bot opens it, then three minutes of the service's batches (200 people
// claimed under a lease, their finished polls recorded), on a clock of the bench's own, 2 s at a time. Prints, per
// minute, CPU per poll (user + kernel) split into the claim and the record, and the bytes allocated per poll.
//
//   npx tsx bench/alert-writes.ts

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAlertStore, createSqliteEngine, nextSpreadPoll, openDatabase } from '../src/index.js';
import { countAllocations } from './allocated.js';

const COUNT = 10_000;
const BATCH = 200;
const MINUTE = 60_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-bench-alert-writes-'));
const db = openDatabase(path.join(dir, 'bot.db'));
const store = createAlertStore(createSqliteEngine(db));
const t0 = Date.now();
for (let i = 0; i < COUNT; i++) {
  const userId = `UB${String(i).padStart(7, '0')}`;
  await store.enable({ teamId: 'T0TEST', userId, actions: ['assigned'], quiet: null, tz: 'UTC' }, 1e9, new Date(t0));
}

const cpuUs = (u: NodeJS.CpuUsage) => u.user + u.system;
let virtual = t0;
let claimUs = 0;
let recordUs = 0;
/** Everyone due at the clock's time, a batch at a time, as the service's pass takes them. */
async function pass(): Promise<number> {
  let polled = 0;
  for (;;) {
    const now = new Date(virtual);
    const c0 = process.cpuUsage();
    const claimed = await store.claimDue('bench', now, new Date(virtual + MINUTE), BATCH);
    claimUs += cpuUs(process.cpuUsage(c0));
    if (claimed.length === 0) return polled;
    const polls = claimed.map((c) => {
      const { teamId, userId } = c.setting;
      const nextPollAt = nextSpreadPoll(`${teamId}:${userId}`, c.setting.nextPollAt, now, MINUTE);
      return [teamId, userId, { at: now, nextPollAt, result: 'idle' }] as const;
    });
    const r0 = process.cpuUsage();
    await store.recordPolls('bench', polls);
    recordUs += cpuUs(process.cpuUsage(r0));
    polled += claimed.length;
  }
}

virtual = t0 + 1000;
await pass();
const round = (x: number) => Math.round(x * 10) / 10;
for (let minute = 0; minute < 3; minute++) {
  claimUs = 0;
  recordUs = 0;
  const allocated = countAllocations();
  const cpu = process.cpuUsage();
  let polls = 0;
  for (let step = 0; step < 30; step++) {
    virtual = t0 + 29_000 + (minute * 30 + step + 1) * 2000;
    polls += await pass();
  }
  process.stdout.write(
    `${JSON.stringify({
      minute,
      polls,
      load_average: round(os.loadavg()[0] ?? 0),
      cpu_us_per_poll: round(cpuUs(process.cpuUsage(cpu)) / polls),
      claim_us: round(claimUs / polls),
      record_us: round(recordUs / polls),
      kib_allocated_per_poll: Math.round((allocated() / polls / 1024) * 100) / 100,
    })}\n`,
  );
}
db.close();
fs.rmSync(dir, { recursive: true, force: true });
