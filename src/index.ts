// The bot's public entry for tools that run it, or a part of it, in process (the benchmarks in bench/): the app and
// what an operator's process builds it from, named here one by one. Outside src/, nothing imports the bot's
// modules but through this file; the simulator has its own door (sim/index.ts), and so has the local stand-in for
// Slack (console/index.ts). The process an operator runs is main.ts (`npm start`).

export { ALERT_ACTIONS } from './alert-actions.js';
export { nextSpreadPoll } from './alerts/spread.js';
export { type AppDeps, type BotApp, createApp } from './app.js';
export { type Config, loadConfig } from './config.js';
export { createGitlabClient } from './gitlab/client.js';
export { createTransport } from './gitlab/http.js';
export { type CommandSpec, type FlagSpec, parseCommand, SPEC } from './grammar/index.js';
export { INTERNAL_ERROR_MESSAGE } from './grammar/parse.js';
export { type ButtonDef, decodeButtonAction } from './ids.js';
export { createLogger } from './log.js';
export { recordGitlabAttempts } from './metrics/gitlab-calls.js';
export { createMetrics } from './metrics/metrics.js';
export { NOUNS } from './nouns/index.js';
export { createAlertStore } from './store/alert-store.js';
export { createChannelStore } from './store/channel-store.js';
export { createClaimStore } from './store/claim-store.js';
export { CLAIMS_SQLITE_DDL } from './store/claim-tables.js';
export { openDatabase } from './store/database.js';
export { createDigestStore, type NewDigest } from './store/digest-store.js';
export { createSqliteEngine } from './store/engine.js';
export { openPostgres } from './store/postgres-engine.js';
export { createSealer } from './store/sealer.js';
export { createTokenStore } from './store/token-store.js';
export { createWatchStore } from './store/watch-store.js';
export { encodeSeen } from './watch/seen.js';
