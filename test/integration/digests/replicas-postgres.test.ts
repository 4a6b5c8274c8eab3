// The same two-replica digest tests (replicas.test.ts) with both processes on one PostgreSQL database.
process.env.REPLICAS_ENGINE = 'postgres';
await import('./replicas.test.js');
