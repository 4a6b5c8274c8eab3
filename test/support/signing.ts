export * from '../../src/console/signing.js';
