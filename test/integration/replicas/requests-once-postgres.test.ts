import { requestsOnceTests } from './requests-once-suite.js';

// The same two-replica request tests (requests-once-suite.ts) with both processes on one PostgreSQL database.
requestsOnceTests('postgres');
