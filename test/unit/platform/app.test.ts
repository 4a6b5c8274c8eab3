import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { silentLogger } from '../../../src/log.js';
import { createChannelStore } from '../../../src/store/channel-store.js';
import { openDatabase } from '../../../src/store/database.js';
import { createSqliteEngine } from '../../../src/store/engine.js';
import { createSealer } from '../../../src/store/sealer.js';
import { createTokenStore } from '../../../src/store/token-store.js';

describe('createApp', () => {
  it('builds a Socket Mode app when an app token is configured', () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1-socket',
      GITLAB_URL: 'http://127.0.0.1:9',
      TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    });
    const db = openDatabase(':memory:');
    const bot = createApp({
      config,
      logger: silentLogger,
      engine: createSqliteEngine(db),
      tokens: createTokenStore(db, createSealer(config.encryption)),
      channels: createChannelStore(db),
    });
    expect(config.slack.mode).toBe('socket');
    const receiver = (bot.app as unknown as { receiver: object }).receiver;
    expect(receiver.constructor.name).toBe('SocketModeReceiver');
    db.close();
  });
});
