import { replicaDigestTests } from './replicas-suite.js';

// The two-replica digest tests (replicas-suite.ts) with both processes on one SQLite file.
replicaDigestTests('sqlite');
