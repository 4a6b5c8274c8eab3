import { TokenRevokedError } from '../errors.js';
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
import { forgetSecret } from '../redact.js';
import type { TokenStore } from '../store/token-store.js';
import type { RequestContext } from './context.js';

export type TokenCheck =
  | { ok: true; username: string | null }
  | { ok: false; reason: 'refused' | 'forbidden' | 'unreachable' | 'unexpected'; status?: number };

export interface GitlabAccess {
  readonly serverUrl: string;
  /** Runs `fn` with a client acting as the request's person. A 401 whose token also fails a plain read marks the token revoked. */
  withClient<T>(ctx: Pick<RequestContext, 'actor' | 'session'>, fn: (client: GitlabClient) => Promise<T>): Promise<T>;
  /** Whether a token is accepted (it may use the API), and whose it is: two reads, side by side. */
  verify(token: string): Promise<TokenCheck>;
}

function checkOf(err: unknown): Exclude<TokenCheck, { ok: true }> {
  if (err instanceof UnauthorizedError) return { ok: false, reason: 'refused', status: 401 };
  if (err instanceof ForbiddenError) return { ok: false, reason: 'forbidden', status: 403 };
  if (err instanceof UnavailableError && err.reason !== 'status') return { ok: false, reason: 'unreachable' };
  if (err instanceof RateLimitedError) return { ok: false, reason: 'unreachable' };
  if (err instanceof GitlabError && err.status !== null) return { ok: false, reason: 'unexpected', status: err.status };
  return { ok: false, reason: 'unexpected' };
}

export function createGitlabAccess(o: {
  serverUrl: string;
  tokens: TokenStore;
  transport: Transport;
  /** Used for the token check, which must answer inside Slack's 3 s: short timeout, no retries. */
  checkTransport: Transport;
  logger: Logger;
}): GitlabAccess {
  /** One plain read that needs the api scope: whether the server accepts the token at all. */
  const probe = async (transport: Transport, token: string): Promise<TokenCheck> => {
    try {
      await createGitlabClient(transport, token).todos.list({ per_page: 1 });
      return { ok: true, username: null };
    } catch (err) {
      return checkOf(err);
    }
  };

  return {
    serverUrl: o.serverUrl,
    async withClient(ctx, fn) {
      const token = await ctx.session.token();
      try {
        return await fn(createGitlabClient(o.transport, token));
      } catch (err) {
        // 401 means "no permission" on some routes (merge) and "bad token" everywhere:
        // a plain read with the same token tells which.
        if (err instanceof UnauthorizedError) {
          const check = await probe(o.transport, token);
          if (!check.ok && check.reason === 'refused') {
            await o.tokens.markRevoked(ctx.actor.teamId, ctx.actor.userId);
            forgetSecret(token);
            o.logger.info('stored token refused by the server; marked revoked', {
              team: ctx.actor.teamId,
              user: ctx.actor.userId,
            });
            throw new TokenRevokedError();
          }
        }
        throw err;
      }
    },
    async verify(token) {
      // Side by side, inside Slack's 3 s: the todo read proves the api scope, the user read says whose token it is.
      const [check, user] = await Promise.all([
        probe(o.checkTransport, token),
        createGitlabClient(o.checkTransport, token)
          .users.current()
          .then((u) => u.username)
          .catch(() => null),
      ]);
      return check.ok ? { ok: true, username: user } : check;
    },
  };
}
