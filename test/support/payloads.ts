export * from '../../src/console/payloads.js';
