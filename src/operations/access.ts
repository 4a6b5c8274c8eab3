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
import type { Logger } from '../log.js';
import { forgetSecret } from '../redact.js';
import type { TokenStore } from '../store/token-store.js';
import type { TroubleStore } from '../store/trouble-store.js';
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
   * Asks the server again about a person's token the bot marked revoked: when a plain read with it is accepted,
   * the token is marked valid again, silently, and true is returned. A burst of 401s longer than the second
   * check of a refusal marks a good token revoked; this is how it comes back.
   */
  recheck(actor: { teamId: string; userId: string }): Promise<boolean>;
  /**
   * The same access (one judgement of 401s for the whole bot) with its calls sent through another transport:
   * scheduled work reads through a paced one.
   */
  through(transport: Transport): GitlabAccess;
  /** Puts every token stored for the team on the redaction list, before text others wrote (a trace) is shown. */
  registerStoredTokens(teamId: string): Promise<void>;
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

export function createGitlabAccess(deps: {
  serverUrl: string;
  tokens: TokenStore;
  transport: Transport;
  /** Used for the token check, which must answer inside Slack's 3 s: short timeout, no retries. */
  checkTransport: Transport;
  logger: Logger;
  /** How long to wait before the second read that confirms a refused token (default 2000 ms). */
  revokeCheckDelayMs?: number;
  /** The wait itself, when something other than the clock decides when the second read goes (tests). */
  revokeCheckWait?: () => Promise<void>;
  /**
   * What the server refused lately, shared by replicas: evidence that a 401 being confirmed here is the server's
   * trouble when someone else was refused on another replica meanwhile. Without it, only this process's calls count.
   */
  sharedTrouble?: TroubleStore;
  /** Told when a token marked revoked was accepted again (the app resumes what the refusal paused). */
  onRestored?: (teamId: string, userId: string) => Promise<void>;
  /** The clock a re-check's time is taken from, and shared trouble is noted by (default the wall clock). */
  now?: () => Date;
}): GitlabAccess {
  const trouble = createTroubleLog();
  const audit = deps.logger.child({ component: 'audit' });
  const delayMs = deps.revokeCheckDelayMs ?? 2000;
  const waitForSecondCheck = deps.revokeCheckWait ?? (() => sleep(delayMs));

  const now = deps.now ?? (() => new Date());
  /** Notes trouble here and, for other replicas, in the database (a failed note only loses evidence). */
  const note = (who: string) => {
    trouble.note(who);
    void deps.sharedTrouble?.note(who, now()).catch((err: unknown) => {
      deps.logger.debug('could not note the server’s trouble for other replicas', { error: String(err) });
    });
  };
  /** Notes what a failed call says about the server: someone's 401, or an outage. */
  const noteTrouble = (who: string, err: unknown) => {
    if (err instanceof UnauthorizedError) note(who);
    else if (err instanceof UnavailableError || err instanceof RateLimitedError) note(SERVER);
  };
  /** Whether anyone else was refused, or the server was out, since a call began (here, or on another replica). */
  const othersHadTrouble = async (since: { seq: number; at: Date }, who: string): Promise<boolean> => {
    if (trouble.othersSince(since.seq, who)) return true;
    if (!deps.sharedTrouble) return false;
    return deps.sharedTrouble.othersSince(since.at, who).catch(() => false);
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
    since: { seq: number; at: Date },
  ): Promise<'revoked' | 'accepted' | 'unconfirmed'> => {
    const first = await probe(deps.transport, token);
    if (first.ok) return 'accepted';
    if (first.reason !== 'refused') return 'unconfirmed';
    note(who);
    await waitForSecondCheck();
    const second = await probe(deps.transport, token);
    if (second.ok) return 'unconfirmed';
    if (second.reason === 'refused') note(who);
    if (second.reason !== 'refused' || (await othersHadTrouble(since, who))) return 'unconfirmed';
    return 'revoked';
  };

  // One question to the server per person at a time, however many requests of theirs ask.
  const rechecking = new Map<string, Promise<boolean>>();
  const recheckOnce = async (teamId: string, userId: string): Promise<boolean> => {
    const stored = await deps.tokens.load(teamId, userId);
    if (!stored) return false;
    if (stored.connection.status !== 'revoked') return stored.connection.status === 'valid';
    let token: string;
    try {
      token = await stored.open();
    } catch {
      return false; // a token that does not open is found, and told, by the session
    }
    const check = await probe(deps.transport, token);
    if (!check.ok) {
      deps.logger.debug('a token marked revoked is still refused', {
        team: teamId,
        user: userId,
        reason: check.reason,
      });
      return false;
    }
    if (await deps.tokens.restore(teamId, userId, (deps.now ?? (() => new Date()))())) {
      deps.logger.info('a token marked revoked was accepted by the server again; it is valid again', {
        team: teamId,
        user: userId,
      });
      await deps.onRestored?.(teamId, userId).catch((err: unknown) =>
        deps.logger.warn('could not resume what a refused token paused', {
          error: err instanceof Error ? err.message : String(err),
        }),
      );
    }
    return true;
  };
  const recheck = ({ teamId, userId }: { teamId: string; userId: string }) => {
    const key = `${teamId}:${userId}`;
    let running = rechecking.get(key);
    if (!running) {
      running = recheckOnce(teamId, userId).finally(() => rechecking.delete(key));
      rechecking.set(key, running);
    }
    return running;
  };

  /** The person's token; one the bot marked revoked is asked about first unless the session did so already. */
  const tokenOf = async (ctx: Pick<RequestContext, 'actor' | 'session'>): Promise<string> => {
    try {
      return await ctx.session.token();
    } catch (err) {
      if (!(err instanceof TokenRevokedError) || ctx.session.rechecksRevoked || !(await recheck(ctx.actor))) throw err;
      const token = await deps.tokens.openToken(ctx.actor.teamId, ctx.actor.userId);
      if (token === null) throw err;
      return token;
    }
  };

  const accessVia = (transport: Transport): GitlabAccess => ({
    serverUrl: deps.serverUrl,
    recheck,
    async withClient(ctx, fn) {
      const token = await tokenOf(ctx);
      // Trouble from here on (this call, its checks, anyone else's calls meanwhile) weighs in a 401's verdict.
      const since = { seq: trouble.seq, at: now() };
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
        const who = `${ctx.actor.teamId}:${ctx.actor.userId}`;
        noteTrouble(who, err);
        // 401 means "no permission" on some routes (merge) and "bad token" everywhere:
        // a plain read with the same token tells which.
        if (err instanceof UnauthorizedError) {
          const verdict = await confirmRevoked(who, token, since);
          if (verdict === 'unconfirmed') {
            deps.logger.info('a 401 was not confirmed by a second check; the token is kept', {
              team: ctx.actor.teamId,
              user: ctx.actor.userId,
            });
            throw new TokenRefusalUnconfirmedError();
          }
          if (verdict === 'revoked') {
            await deps.tokens.markRevoked(ctx.actor.teamId, ctx.actor.userId);
            forgetSecret(token);
            deps.logger.info('stored token refused by the server; marked revoked', {
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
        probe(deps.checkTransport, token),
        createGitlabClient(deps.checkTransport, token)
          .users.current()
          .then((u) => u.username)
          .catch(() => null),
      ]);
      return check.ok ? { ok: true, username: user } : check;
    },
    through: accessVia,
    registerStoredTokens: (teamId) => deps.tokens.registerAll(teamId),
  });
  return accessVia(deps.transport);
}
