export * from '../../src/console/slack-driver.js';
