import { describe, expect, it } from 'vitest';
import { NotConnectedError, TokenRevokedError } from '../../../src/errors.js';
import { createSession } from '../../../src/operations/session.js';
import type { Connection, StoredToken, TokenStore } from '../../../src/store/token-store.js';

// One request reads its person's token row once and opens the sealed token at most once,
// however many operations ask for it.

function countingStore(connection: Connection | null) {
  const counts = { load: 0, open: 0 };
  const store = {
    async load(): Promise<StoredToken | null> {
      counts.load += 1;
      return connection
        ? {
            connection,
            async open() {
              counts.open += 1;
              return 'the-token';
            },
          }
        : null;
    },
  } as unknown as TokenStore;
  return { store, counts };
}

const conn = (status: Connection['status'] = 'valid'): Connection => ({
  teamId: 'T',
  userId: 'U',
  serverUrl: 'http://h',
  createdAt: new Date(0),
  verifiedAt: new Date(0),
  status,
  username: 'alice',
});

describe('a request session', () => {
  it('reads the row once and opens the token once, however often it is asked', async () => {
    const { store, counts } = countingStore(conn());
    const s = createSession(store, 'http://h', { teamId: 'T', userId: 'U' });
    await s.connection();
    const tokens = await Promise.all([s.token(), s.token(), s.token()]);
    await s.connection();
    expect(tokens).toEqual(['the-token', 'the-token', 'the-token']);
    expect(counts).toEqual({ load: 1, open: 1 });
  });

  it('reads nothing until asked', () => {
    const { store, counts } = countingStore(conn());
    createSession(store, 'http://h', { teamId: 'T', userId: 'U' });
    expect(counts).toEqual({ load: 0, open: 0 });
  });

  it('refuses a missing, foreign or revoked connection without opening anything', async () => {
    for (const [c, error] of [
      [null, NotConnectedError],
      [{ ...conn(), serverUrl: 'http://other' }, NotConnectedError],
      [conn('revoked'), TokenRevokedError],
    ] as const) {
      const { store, counts } = countingStore(c);
      await expect(createSession(store, 'http://h', { teamId: 'T', userId: 'U' }).token()).rejects.toBeInstanceOf(
        error,
      );
      expect(counts.open).toBe(0);
    }
  });

  it('asks the server again only about a row marked revoked, and uses the row read after it was accepted', async () => {
    let stored = conn('revoked');
    const { store, counts } = countingStore(null);
    store.load = async () => {
      counts.load += 1;
      const connection = stored;
      const open = async () => {
        counts.open += 1;
        return 'the-token';
      };
      return { connection, open };
    };
    const asked: string[] = [];
    const recheck = async (actor: { userId: string }) => {
      asked.push(actor.userId);
      stored = conn('valid');
      return true;
    };
    const s = createSession(store, 'http://h', { teamId: 'T', userId: 'U' }, { recheck });
    expect((await s.connection())?.status).toBe('valid');
    expect(await s.token()).toBe('the-token');
    expect(asked).toEqual(['U']);
    expect(counts).toEqual({ load: 2, open: 1 });

    const valid = createSession(store, 'http://h', { teamId: 'T', userId: 'U' }, { recheck });
    await valid.token();
    expect(asked).toEqual(['U']);
  });

  it('keeps a row marked revoked as read when the server still refuses it', async () => {
    const { store, counts } = countingStore(conn('revoked'));
    const s = createSession(store, 'http://h', { teamId: 'T', userId: 'U' }, { recheck: async () => false });
    expect((await s.connection())?.status).toBe('revoked');
    await expect(s.token()).rejects.toBeInstanceOf(TokenRevokedError);
    expect(counts).toEqual({ load: 1, open: 0 });
  });
});
