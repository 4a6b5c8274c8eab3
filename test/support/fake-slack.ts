export * from '../../src/console/fake-slack.js';
