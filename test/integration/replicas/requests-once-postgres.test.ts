// The same two-replica tests (requests-once.test.ts) with both processes on one PostgreSQL database.
process.env.REPLICAS_ENGINE = 'postgres';
await import('./requests-once.test.js');
