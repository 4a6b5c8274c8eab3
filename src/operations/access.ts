import { setTimeout as sleep } from 'node:timers/promises';
import { TokenRefusalUnconfirmedError, TokenRevokedError } from '../errors.js';
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
import { auditedTransport } from './audit.js';
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
  /**
   * The same access (one judgement of 401s for the whole bot) with its calls sent through another transport:
   * scheduled work reads through a paced one.
   */
  through(transport: Transport): GitlabAccess;
}

function checkOf(err: unknown): Exclude<TokenCheck, { ok: true }> {
  if (err instanceof UnauthorizedError) return { ok: false, reason: 'refused', status: 401 };
  if (err instanceof ForbiddenError) return { ok: false, reason: 'forbidden', status: 403 };
  if (err instanceof UnavailableError && err.reason !== 'status') return { ok: false, reason: 'unreachable' };
  if (err instanceof RateLimitedError) return { ok: false, reason: 'unreachable' };
  if (err instanceof GitlabError && err.status !== null) return { ok: false, reason: 'unexpected', status: err.status };
  return { ok: false, reason: 'unexpected' };
}

/**
 * What the server did to other calls lately: a 401 for someone else or an outage while one person's 401 is
 * being confirmed means the server is in trouble, not that this token is revoked.
 */
function createTroubleLog(size = 200) {
  let seq = 0;
  const entries: { seq: number; who: string }[] = [];
  return {
    get seq() {
      return seq;
    },
    note(who: string) {
      entries.push({ seq: ++seq, who });
      if (entries.length > size) entries.shift();
    },
    /** Whether anyone but `who` (or the server as a whole) had trouble after `since`. */
    othersSince(since: number, who: string) {
      return entries.some((e) => e.seq > since && e.who !== who);
    },
  };
}

const SERVER = '(server)';

export function createGitlabAccess(o: {
  serverUrl: string;
  tokens: TokenStore;
  transport: Transport;
  /** Used for the token check, which must answer inside Slack's 3 s: short timeout, no retries. */
  checkTransport: Transport;
  logger: Logger;
  /** How long to wait before the second read that confirms a refused token (default 2000 ms). */
  revokeCheckDelayMs?: number;
}): GitlabAccess {
  const trouble = createTroubleLog();
  const audit = o.logger.child({ component: 'audit' });
  const delayMs = o.revokeCheckDelayMs ?? 2000;

  /** Notes what a failed call says about the server: someone's 401, or an outage. */
  const noteTrouble = (who: string, err: unknown) => {
    if (err instanceof UnauthorizedError) trouble.note(who);
    else if (err instanceof UnavailableError || err instanceof RateLimitedError) trouble.note(SERVER);
  };
  /** One plain read that needs the api scope: whether the server accepts the token at all. */
  const probe = async (transport: Transport, token: string): Promise<TokenCheck> => {
    try {
      await createGitlabClient(transport, token).todos.list({ per_page: 1 });
      return { ok: true, username: null };
    } catch (err) {
      return checkOf(err);
    }
  };

  /**
   * Whether a 401 means the token is revoked: a plain read with it is refused with a clean 401, again after a
   * short delay, and meanwhile nobody else was refused and the server had no outage. A burst of 401s from a
   * server in trouble must not cost people their connections.
   */
  const confirmRevoked = async (
    who: string,
    token: string,
    since: number,
  ): Promise<'revoked' | 'accepted' | 'unconfirmed'> => {
    const first = await probe(o.transport, token);
    if (first.ok) return 'accepted';
    if (first.reason !== 'refused') return 'unconfirmed';
    trouble.note(who);
    await sleep(delayMs);
    const second = await probe(o.transport, token);
    if (second.ok) return 'unconfirmed';
    if (second.reason === 'refused') trouble.note(who);
    if (second.reason !== 'refused' || trouble.othersSince(since, who)) return 'unconfirmed';
    return 'revoked';
  };

  const accessVia = (transport: Transport): GitlabAccess => ({
    serverUrl: o.serverUrl,
    async withClient(ctx, fn) {
      const token = await ctx.session.token();
      const who = `${ctx.actor.teamId}:${ctx.actor.userId}`;
      // Trouble from here on (this call, its checks, anyone else's calls meanwhile) weighs in a 401's verdict.
      const since = trouble.seq;
      // Writes are audited as this person: Slack team and user, and the server account of the token.
      const audited = auditedTransport(
        transport,
        async () => ({
          team: ctx.actor.teamId,
          user: ctx.actor.userId,
          username: (await ctx.session.connection().catch(() => null))?.username ?? null,
        }),
        audit,
      );
      try {
        return await fn(createGitlabClient(audited, token));
      } catch (err) {
        noteTrouble(who, err);
        // 401 means "no permission" on some routes (merge) and "bad token" everywhere:
        // a plain read with the same token tells which.
        if (err instanceof UnauthorizedError) {
          const verdict = await confirmRevoked(who, token, since);
          if (verdict === 'unconfirmed') {
            o.logger.info('a 401 was not confirmed by a second check; the token is kept', {
              team: ctx.actor.teamId,
              user: ctx.actor.userId,
            });
            throw new TokenRefusalUnconfirmedError();
          }
          if (verdict === 'revoked') {
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
    through: accessVia,
  });
  return accessVia(o.transport);
}
