import { NotConnectedError, TokenRevokedError } from '../errors.js';
import { connectionProblem, type StoredToken, type TokenStore } from '../store/token-store.js';
import type { Actor, Session } from './context.js';

/**
 * The acting person's connection for one request: the row is read at most once, the token opened at most
 * once, and only when something asks for it.
 */
export function createSession(tokens: TokenStore, serverUrl: string, actor: Pick<Actor, 'teamId' | 'userId'>): Session {
  let row: Promise<StoredToken | null> | null = null;
  let token: Promise<string> | null = null;
  const load = () => {
    row ??= tokens.load(actor.teamId, actor.userId);
    return row;
  };
  return {
    connection: async () => (await load())?.connection ?? null,
    token() {
      token ??= (async () => {
        const stored = await load();
        const problem = connectionProblem(stored?.connection ?? null, serverUrl);
        if (problem === 'not_connected' || !stored) throw new NotConnectedError('never');
        if (problem === 'other_server') throw new NotConnectedError('other_server');
        if (problem === 'token_revoked') throw new TokenRevokedError();
        return stored.open();
      })();
      return token;
    },
  };
}
