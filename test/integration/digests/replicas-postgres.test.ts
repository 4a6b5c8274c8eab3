import { replicaDigestTests } from './replicas-suite.js';

// The same two-replica digest tests (replicas-suite.ts) with both processes on one PostgreSQL database.
replicaDigestTests('postgres');
