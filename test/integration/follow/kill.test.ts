import { describeFollowKills } from './kill-cases.js';

// The follow process tests (kill-cases.ts) on SQLite: each case its own database file, all at once.
describeFollowKills('sqlite');
