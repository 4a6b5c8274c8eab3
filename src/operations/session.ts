import { connectionProblem } from '../connection.js';
import { NotConnectedError, TokenRevokedError, TokenUnreadableError } from '../errors.js';
import { SealError } from '../store/sealer.js';
import type { Connection, StoredToken, TokenStore } from '../store/token-store.js';
import type { Actor, Session } from './context.js';

export interface SessionOptions {
  /** Told whether the stored token opened, so that one that does not is reported once. */
  unreadable?: UnreadableTokens;
  /**
   * Asks the server again about a token the bot marked revoked; true when it was accepted and marked valid
   * again. Without it, a token marked revoked is taken as revoked.
   */
  recheck?: (actor: Pick<Actor, 'teamId' | 'userId'>) => Promise<boolean>;
  /** The person's row, read already (with others, by a poll's batch): the session starts from it, not a read. */
  stored?: StoredToken | null;
}

/** Tells the operator once per person that their stored token does not open, until it opens again. */
export interface UnreadableTokens {
  opened(connection: Connection): void;
  failed(connection: Connection, reason: string): void;
}

export function createUnreadableTokens(report: (connection: Connection, reason: string) => void): UnreadableTokens {
  const reported = new Set<string>();
  const keyOf = (c: Connection) => `${c.teamId}:${c.userId}`;
  return {
    opened: (c) => {
      reported.delete(keyOf(c));
    },
    failed: (c, reason) => {
      if (reported.has(keyOf(c))) return;
      reported.add(keyOf(c));
      report(c, reason);
    },
  };
}

/**
 * The acting person's connection for one request: the row is read at most once, the token opened at most
 * once. A token that does not open counts as no connection ('unreadable'): the person is asked to connect
 * again instead of meeting an error on every command.
 */
export function createSession(
  tokens: TokenStore,
  serverUrl: string,
  actor: Pick<Actor, 'teamId' | 'userId'>,
  options: SessionOptions = {},
): Session {
  let row: Promise<StoredToken | null> | null = null;
  let opened: Promise<{ token: string } | { unreadable: string }> | null = null;
  // A token the bot marked revoked may have been refused during an outage: it is asked about once per request,
  // before anything in the request treats it as gone, and read again when the server took it.
  const recheckRevoked = async (stored: StoredToken, recheck: NonNullable<SessionOptions['recheck']>) =>
    (await recheck(actor)) ? tokens.load(actor.teamId, actor.userId) : stored;
  // Most rows are not marked revoked: those are taken as read, without a step of their own.
  const load = () => {
    row ??= (
      options.stored !== undefined ? Promise.resolve(options.stored) : tokens.load(actor.teamId, actor.userId)
    ).then((stored) =>
      stored?.connection.status === 'revoked' &&
      options.recheck &&
      connectionProblem(stored.connection, serverUrl) === 'token_revoked'
        ? recheckRevoked(stored, options.recheck)
        : stored,
    );
    return row;
  };
  const open = (stored: StoredToken) => {
    opened ??= stored.open().then(
      (token) => {
        options.unreadable?.opened(stored.connection);
        return { token };
      },
      (err: unknown) => {
        if (!(err instanceof SealError)) throw err;
        options.unreadable?.failed(stored.connection, err.message);
        return { unreadable: err.message };
      },
    );
    return opened;
  };
  /** The connection as it can be used: a usable-looking row whose token does not open is 'unreadable'. */
  const connection = async (): Promise<Connection | null> => {
    const stored = await load();
    if (!stored || connectionProblem(stored.connection, serverUrl)) return stored?.connection ?? null;
    return 'unreadable' in (await open(stored)) ? { ...stored.connection, status: 'unreadable' } : stored.connection;
  };
  let token: Promise<string> | null = null;
  return {
    connection,
    rechecksRevoked: options.recheck !== undefined,
    token() {
      token ??= (async () => {
        const stored = await load();
        const problem = connectionProblem(stored?.connection ?? null, serverUrl);
        if (problem === 'not_connected' || !stored) throw new NotConnectedError('never');
        if (problem === 'other_server') throw new NotConnectedError('other_server');
        if (problem === 'token_revoked') throw new TokenRevokedError();
        const result = await open(stored);
        if ('unreadable' in result) throw new TokenUnreadableError();
        return result.token;
      })();
      return token;
    },
  };
}
