import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createChannelStore } from '../../../src/store/channel-store.js';
import type { SqlEngine } from '../../../src/store/engine.js';
import { createSealer } from '../../../src/store/sealer.js';
import { createTokenStore } from '../../../src/store/token-store.js';
import { createUnfurlStore } from '../../../src/store/unfurl-store.js';
import { ENGINES, type TestDatabase } from './engines.js';

// Store conformance: tokens, channel defaults and preview consents mean the same on SQLite and on PostgreSQL.

const t0 = new Date('2026-03-02T09:00:00.000Z');
const now = () => t0;
const keyA = crypto.randomBytes(32);
const keyB = crypto.randomBytes(32);
const TOKEN = 'glpat-conformance-0123456789';

describe.each(ENGINES)('on $name', (under) => {
  const open: SqlEngine[] = [];
  const made: TestDatabase[] = [];
  const database = async () => {
    const d = await under.database();
    made.push(d);
    return d;
  };
  const engineOn = async (d: TestDatabase) => {
    const e = await d.open();
    open.push(e);
    return e;
  };
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });

  it('keeps tokens sealed, opens them, finds people by username and counts them by key', async () => {
    const engine = await engineOn(await database());
    const tokens = createTokenStore(engine, createSealer({ key: keyA }), now);
    await tokens.save({
      teamId: 'T1',
      userId: 'U1',
      token: TOKEN,
      serverUrl: 'https://git.example',
      verifiedAt: t0,
      username: 'Alice',
    });
    const raw = await engine.all<{ sealed_token: string }>('SELECT sealed_token FROM user_tokens');
    expect(raw).toHaveLength(1);
    expect(raw[0]?.sealed_token).not.toContain(TOKEN);

    expect(await tokens.find('T1', 'U1')).toEqual({
      teamId: 'T1',
      userId: 'U1',
      serverUrl: 'https://git.example',
      createdAt: t0,
      verifiedAt: t0,
      status: 'valid',
      username: 'Alice',
    });
    expect(await tokens.find('T1', 'U2')).toBeNull();
    expect(await tokens.openToken('T1', 'U1')).toBe(TOKEN);
    expect(await (await tokens.load('T1', 'U1'))?.open()).toBe(TOKEN);
    expect((await tokens.findByUsername('T1', 'alice')).map((c) => c.userId)).toEqual(['U1']);
    expect(await tokens.findByUsername('T2', 'alice')).toEqual([]);
    expect(await tokens.countByKey()).toEqual(new Map([[createSealer({ key: keyA }).keyId, 1]]));
  });

  it('marks a token revoked once, restores it once, makes it valid when saved again, and removes it', async () => {
    const engine = await engineOn(await database());
    const tokens = createTokenStore(engine, createSealer({ key: keyA }), now);
    const save = () =>
      tokens.save({ teamId: 'T1', userId: 'U1', token: TOKEN, serverUrl: 'https://g', verifiedAt: t0, username: null });
    await save();
    expect(await tokens.markRevoked('T1', 'U1')).toBe(true);
    expect(await tokens.markRevoked('T1', 'U1')).toBe(false);
    expect((await tokens.find('T1', 'U1'))?.status).toBe('revoked');
    const rechecked = new Date(t0.getTime() + 60_000);
    expect(await tokens.restore('T1', 'U1', rechecked)).toBe(true);
    expect(await tokens.restore('T1', 'U1', rechecked)).toBe(false);
    expect((await tokens.find('T1', 'U1'))?.status).toBe('valid');
    expect((await tokens.find('T1', 'U1'))?.verifiedAt).toEqual(rechecked);
    expect(await tokens.markRevoked('T1', 'U1')).toBe(true);
    await save();
    expect((await tokens.find('T1', 'U1'))?.status).toBe('valid');
    expect(await tokens.remove('T1', 'U1')).toBe(true);
    expect(await tokens.remove('T1', 'U1')).toBe(false);
    expect(await tokens.find('T1', 'U1')).toBeNull();
  });

  it('reads several people of a team with one statement, and stops answering once this store writes a token', async () => {
    const engine = await engineOn(await database());
    const statements: string[] = [];
    const counted: SqlEngine = {
      ...engine,
      kind: engine.kind,
      all: (sql, params) => {
        statements.push(sql);
        return engine.all(sql, params);
      },
      get: (sql, params) => {
        statements.push(sql);
        return engine.get(sql, params);
      },
      run: (sql, params) => engine.run(sql, params),
    };
    const tokens = createTokenStore(counted, createSealer({ key: keyA }), now);
    const save = (teamId: string, userId: string, token: string) =>
      tokens.save({ teamId, userId, token, serverUrl: 'https://g', verifiedAt: t0, username: userId });
    await save('T1', 'U1', `${TOKEN}-1`);
    await save('T1', 'U2', `${TOKEN}-2`);
    await save('T2', 'U3', `${TOKEN}-3`);
    await tokens.markRevoked('T1', 'U2');

    statements.length = 0;
    const batch = await tokens.loadMany('T1', ['U1', 'U2', 'U3', 'U9']);
    expect(statements).toHaveLength(1);
    expect(batch.get('U1')?.connection).toMatchObject({ teamId: 'T1', userId: 'U1', status: 'valid', username: 'U1' });
    expect(await batch.get('U1')?.open()).toBe(`${TOKEN}-1`);
    expect(batch.get('U2')?.connection.status).toBe('revoked');
    // Another team's person and nobody at all: no token (not "read it yourself").
    expect(batch.get('U3')).toBeNull();
    expect(batch.get('U9')).toBeNull();
    // Not asked for: the batch knows nothing of them.
    expect(batch.get('U4')).toBeUndefined();
    expect((await tokens.loadMany('T1', [])).get('U1')).toBeUndefined();

    // A token this store changes after the read is never taken from the batch: every person is read again.
    await tokens.markRevoked('T1', 'U1');
    expect(batch.get('U1')).toBeUndefined();
    expect(batch.get('U2')).toBeUndefined();
    const again = await tokens.loadMany('T1', ['U1']);
    expect(again.get('U1')?.connection.status).toBe('revoked');
    await save('T1', 'U1', `${TOKEN}-new`);
    expect(again.get('U1')).toBeUndefined();
    expect(await (await tokens.loadMany('T1', ['U1'])).get('U1')?.open()).toBe(`${TOKEN}-new`);
  });

  it('re-seals tokens under the new key once, however many processes start together', async () => {
    const d = await database();
    const before = createTokenStore(await engineOn(d), createSealer({ key: keyA }), now);
    for (const userId of ['U1', 'U2', 'U3']) {
      await before.save({
        teamId: 'T1',
        userId,
        token: `${TOKEN}-${userId}`,
        serverUrl: 'https://g',
        verifiedAt: t0,
        username: null,
      });
    }
    const rotated = createSealer({ key: keyB, previousKey: keyA });
    const replicas = [
      createTokenStore(await engineOn(d), rotated, now),
      createTokenStore(await engineOn(d), rotated, now),
    ];
    const counts = await Promise.all(replicas.map((r) => r.resealStale()));
    expect(counts.sort()).toEqual([0, 3]);
    expect(await replicas[0]?.countByKey()).toEqual(new Map([[rotated.keyId, 3]]));
    // Only the new key is needed now.
    const after = createTokenStore(await engineOn(d), createSealer({ key: keyB }), now);
    expect(await after.openToken('T1', 'U2')).toBe(`${TOKEN}-U2`);
  });

  it('re-seals a token under the previous key when it is opened', async () => {
    const d = await database();
    await createTokenStore(await engineOn(d), createSealer({ key: keyA }), now).save({
      teamId: 'T1',
      userId: 'U1',
      token: TOKEN,
      serverUrl: 'https://g',
      verifiedAt: t0,
      username: null,
    });
    const rotated = createSealer({ key: keyB, previousKey: keyA });
    const tokens = createTokenStore(await engineOn(d), rotated, now);
    expect(await tokens.openToken('T1', 'U1')).toBe(TOKEN);
    expect(await tokens.countByKey()).toEqual(new Map([[rotated.keyId, 1]]));
  });

  it('keeps one default project per channel, replaced when set again, until cleared', async () => {
    const channels = createChannelStore(await engineOn(await database()), now);
    expect(await channels.get('T1', 'C1')).toBeNull();
    await channels.set({ teamId: 'T1', channelId: 'C1', project: 'demo/web', setBy: 'U1', hidden: false });
    await channels.set({ teamId: 'T1', channelId: 'C1', project: 'demo/api', setBy: 'U2', hidden: true });
    expect(await channels.get('T1', 'C1')).toEqual({
      teamId: 'T1',
      channelId: 'C1',
      project: 'demo/api',
      setBy: 'U2',
      setAt: t0,
      hidden: true,
    });
    expect(await channels.get('T1', 'C2')).toBeNull();
    expect(await channels.clear('T1', 'C1')).toBe(true);
    expect(await channels.clear('T1', 'C1')).toBe(false);
  });

  it('keeps preview consents per person and channel', async () => {
    const unfurls = createUnfurlStore(await engineOn(await database()), now);
    expect(await unfurls.allows('T1', 'U1', 'C1')).toBe(false);
    expect(await unfurls.allow('T1', 'U1', 'C1')).toBe(true);
    expect(await unfurls.allow('T1', 'U1', 'C1')).toBe(false);
    expect(await unfurls.allows('T1', 'U1', 'C1')).toBe(true);
    expect(await unfurls.allows('T1', 'U1', 'C2')).toBe(false);
    expect(await unfurls.allows('T1', 'U2', 'C1')).toBe(false);
    expect(await unfurls.revoke('T1', 'U1', 'C1')).toBe(true);
    expect(await unfurls.revoke('T1', 'U1', 'C1')).toBe(false);
    expect(await unfurls.allows('T1', 'U1', 'C1')).toBe(false);
  });
});
