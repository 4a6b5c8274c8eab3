import { requestsOnceTests } from './requests-once-suite.js';

// The two-replica request tests (requests-once-suite.ts) with both processes on one SQLite file.
requestsOnceTests('sqlite');
