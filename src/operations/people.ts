import { UnknownPersonError } from '../errors.js';
import type { UserRef } from '../grammar/index.js';
import type { TokenStore } from '../store/token-store.js';
import { createTtlCache } from '../ttl-cache.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';

/**
 * People as commands name them (`42`, `alice`, `@alice`, a Slack mention of a connected person) turned into
 * server user ids. Usernames are looked up as the person asking, and remembered a few minutes per workspace.
 * A name that resolves to nobody is refused before the command's own call.
 */
export function createPeopleResolver(deps: { access: GitlabAccess; tokens: TokenStore; serverUrl: string }) {
  // A clock set back (tests, a corrected host clock) reads again.
  const ids = createTtlCache<number>({ ttlMs: 10 * 60 * 1000, maxEntries: 5000 });

  /** The server username a ref names (the ref itself for a username; the stored one for a mention). */
  const usernameOf = async (ctx: RequestContext, ref: Exclude<UserRef, { kind: 'id' }>): Promise<string> => {
    if (ref.kind === 'username') return ref.username.replace(/^@/, '');
    const conn = await deps.tokens.find(ctx.actor.teamId, ref.userId);
    if (!conn || conn.serverUrl !== deps.serverUrl) throw new UnknownPersonError('not_connected', ref.userId);
    if (!conn.username) throw new UnknownPersonError('no_username', ref.userId);
    return conn.username;
  };

  const idOf = async (ctx: RequestContext, username: string): Promise<number> => {
    const key = `${ctx.actor.teamId}:${username.toLowerCase()}`;
    const hit = ids.get(key, ctx.now.getTime());
    if (hit !== undefined) return hit;
    const user = await deps.access.withClient(ctx, (c) => c.users.findByUsername(username));
    if (!user) throw new UnknownPersonError('no_user', username);
    ids.set(key, user.id, ctx.now.getTime());
    return user.id;
  };

  return {
    /** The server user id a ref names. */
    async id(ctx: RequestContext, ref: UserRef): Promise<number> {
      return ref.kind === 'id' ? ref.id : idOf(ctx, await usernameOf(ctx, ref));
    },
    async ids(ctx: RequestContext, refs: readonly UserRef[]): Promise<number[]> {
      const out: number[] = [];
      for (const ref of refs) out.push(ref.kind === 'id' ? ref.id : await idOf(ctx, await usernameOf(ctx, ref)));
      return out;
    },
    /** What routes that take "an id or a username" (`/users/:id/events`) are called with. */
    async idOrUsername(ctx: RequestContext, ref: UserRef): Promise<number | string> {
      return ref.kind === 'id' ? ref.id : usernameOf(ctx, ref);
    },
  };
}

export type PeopleResolver = ReturnType<typeof createPeopleResolver>;
