// The same SIGKILL and two-replica follow tests (kill.test.ts) with every process on one PostgreSQL database.
process.env.FOLLOW_ENGINE = 'postgres';
await import('./kill.test.js');
