import { NotConnectedError, TokenRevokedError } from '../errors.js';
import { createGitlabClient, type GitlabClient } from '../gitlab/client.js';
import {
  ForbiddenError,
  GitlabError,
  RateLimitedError,
  UnauthorizedError,
  UnavailableError,
} from '../gitlab/errors.js';
import type { Transport } from '../gitlab/http.js';
import type { Logger } from '../logger.js';
import type { TokenStore } from '../store/token-store.js';
import { connectionProblem } from './connection.js';
import type { Actor } from './context.js';

export type TokenCheck =
  | { ok: true }
  | { ok: false; reason: 'refused' | 'forbidden' | 'unreachable' | 'unexpected'; status?: number };

export interface GitlabAccess {
  readonly serverUrl: string;
  /** Runs `fn` with a client acting as this person. A 401 whose token also fails a plain read marks the token revoked. */
  withClient<T>(actor: Actor, fn: (client: GitlabClient) => Promise<T>): Promise<T>;
  /** Whether a token is accepted, with one authenticated read (`GET /todos?per_page=1`). */
  verify(token: string): Promise<TokenCheck>;
}

export function createGitlabAccess(o: {
  serverUrl: string;
  tokens: TokenStore;
  transport: Transport;
  /** Used for the token check, which must answer inside Slack's 3 s: short timeout, no retries. */
  checkTransport: Transport;
  logger: Logger;
}): GitlabAccess {
  const tokenFor = async (actor: Actor): Promise<string> => {
    const problem = connectionProblem(await o.tokens.find(actor.teamId, actor.userId), o.serverUrl);
    if (problem === 'not_connected') throw new NotConnectedError('never');
    if (problem === 'other_server') throw new NotConnectedError('other_server');
    if (problem === 'token_revoked') throw new TokenRevokedError();
    const token = await o.tokens.openToken(actor.teamId, actor.userId);
    if (!token) throw new NotConnectedError('never');
    return token;
  };

  const verifyWith = async (transport: Transport, token: string): Promise<TokenCheck> => {
    try {
      await createGitlabClient(transport, token).todos.list({ per_page: 1 });
      return { ok: true };
    } catch (err) {
      if (err instanceof UnauthorizedError) return { ok: false, reason: 'refused', status: 401 };
      if (err instanceof ForbiddenError) return { ok: false, reason: 'forbidden', status: 403 };
      if (err instanceof UnavailableError || err instanceof RateLimitedError)
        return { ok: false, reason: 'unreachable' };
      if (err instanceof GitlabError && err.status !== null)
        return { ok: false, reason: 'unexpected', status: err.status };
      return { ok: false, reason: 'unexpected' };
    }
  };

  return {
    serverUrl: o.serverUrl,
    async withClient(actor, fn) {
      const token = await tokenFor(actor);
      try {
        return await fn(createGitlabClient(o.transport, token));
      } catch (err) {
        // 401 means "no permission" on some routes (merge) and "bad token" everywhere:
        // a plain read with the same token tells which.
        if (err instanceof UnauthorizedError) {
          const probe = await verifyWith(o.transport, token);
          if (!probe.ok && probe.reason === 'refused') {
            await o.tokens.markRevoked(actor.teamId, actor.userId);
            o.logger.info('stored token refused by the server; marked revoked', {
              team: actor.teamId,
              user: actor.userId,
            });
            throw new TokenRevokedError();
          }
        }
        throw err;
      }
    },
    verify: (token) => verifyWith(o.checkTransport, token),
  };
}
