import { describeFollowKills } from './kill-cases.js';

// The follow process tests (kill-cases.ts) on PostgreSQL: each case its own database on the run's server.
describeFollowKills('postgres');
