import { BotError } from '../errors.js';
import { GitlabError } from '../gitlab/errors.js';
import type { Page } from '../gitlab/paginate.js';
import type { Issue, MergeRequest, Todo } from '../gitlab/schemas.js';
import type { Digest } from '../store/digest-store.js';
import type { Watch } from '../store/watch-store.js';
import type { GitlabAccess } from './access.js';
import type { AlertService } from './alert-service.js';
import type { Actor, RequestContext } from './context.js';
import type { DigestService } from './digest-service.js';
import { createDigestOperations } from './digests.js';
import type { BuildFailure, FailureReader, Reading } from './failures.js';
import { createIssueOperations } from './issues.js';
import { createRecentReads } from './recent-reads.js';
import { createTodoOperations } from './todos.js';
import type { WatchService } from './watch-service.js';

// What a person's Home tab reads: their pending todos, the open merge requests and issues assigned to them (all
// three with their own token, side by side) and the digests they own (the bot's own store). A section whose read
// fails carries its error instead of failing the others. Opening the tab again within a few seconds is served
// from the last read; anything the person does drops it.

/** Rows of each section (the reads ask for no more). */
export const HOME_ROWS = 10;

/** One section's read: what it found, or the error (the bot's own or the server's) it met. */
export type SectionRead<T> = { ok: true; value: T } | { ok: false; error: BotError | GitlabError };

export interface DigestRow {
  digest: Digest;
  next: Date | null;
}

/** What the Home of a connected person shows, each section read on its own. */
export interface HomeReads {
  todos: SectionRead<Page<Todo>>;
  mergeRequests: SectionRead<Page<MergeRequest>>;
  issues: SectionRead<Page<Issue>>;
  digests: SectionRead<DigestRow[]>;
  /** The pipeline watches the person made (the bot's own store). */
  watches?: SectionRead<Watch[]>;
  /** Why the builds of the first `build_failed` todos failed, by todo id (where there is room). */
  builds?: ReadonlyMap<number, BuildFailure>;
}

/** The Home explains the failed builds of this many `build_failed` todos (each costs a few reads). */
const HOME_BUILDS_EXPLAINED = 2;

/** How long a read serves the tab opened again, by the request clock. */
export const HOME_READS_MS = 10_000;
/** People whose last read is kept at most (the oldest go first). */
export const HOME_READS_KEPT = 500;

/** A read that failed the way the bot knows (the server answered, a token was refused) is the section's own. */
async function section<T>(read: Promise<T>): Promise<SectionRead<T>> {
  try {
    return { ok: true, value: await read };
  } catch (error) {
    if (error instanceof BotError || error instanceof GitlabError) return { ok: false, error };
    throw error;
  }
}

const everyOk = (r: HomeReads) =>
  r.todos.ok && r.mergeRequests.ok && r.issues.ok && r.digests.ok && (r.watches?.ok ?? true);

export function createHomeOperations(
  o: {
    access: GitlabAccess;
    digests: DigestService;
    watches?: WatchService;
    alerts?: AlertService;
    failures?: FailureReader;
  },
  keep: { ms?: number; people?: number } = {},
) {
  const todos = createTodoOperations(o);
  const issues = createIssueOperations(o);
  const digests = createDigestOperations(o);
  const recent = createRecentReads<HomeReads>({
    ttlMs: keep.ms ?? HOME_READS_MS,
    max: keep.people ?? HOME_READS_KEPT,
    // A read that met an error is not kept: opening the tab again tries again.
    keep: everyOk,
  });
  const keyOf = (a: Pick<Actor, 'teamId' | 'userId'>) => `${a.teamId}:${a.userId}`;

  const readAll = async (ctx: RequestContext): Promise<HomeReads> => {
    const watches = o.watches;
    const [t, m, i, d, w] = await Promise.all([
      section(todos.list(ctx, { state: 'pending', perPage: HOME_ROWS })),
      section(
        o.access.withClient(ctx, (c) =>
          c.mergeRequests.listAll({ scope: 'assigned-to-me', state: 'opened', per_page: HOME_ROWS }),
        ),
      ),
      section(issues.list(ctx, { kind: 'mine' }, { scope: 'assigned-to-me', state: 'opened', per_page: HOME_ROWS })),
      section(digests.owned(ctx).then((owned) => owned.map((digest) => ({ digest, next: digests.nextRun(digest) })))),
      watches ? section(watches.listForCreator(ctx.actor.teamId, ctx.actor.userId)) : null,
    ]);
    const builds = t.ok ? await whyBuildsFailed(ctx, t.value.items) : new Map<number, BuildFailure>();
    return { todos: t, mergeRequests: m, issues: i, digests: d, ...(w ? { watches: w } : {}), builds };
  };

  /** Why the first `build_failed` todos' builds failed, where the tab has room; a row without it still shows. */
  const whyBuildsFailed = async (ctx: RequestContext, pending: readonly Todo[]) => {
    const out = new Map<number, BuildFailure>();
    const failures = o.failures;
    if (!failures) return out;
    const reading: Reading = { read: (fn) => o.access.withClient(ctx, fn), teamId: ctx.actor.teamId };
    const builds = pending.slice(0, HOME_ROWS).filter((t) => t.action_name === 'build_failed');
    await Promise.all(
      builds.slice(0, HOME_BUILDS_EXPLAINED).map(async (todo) => {
        const why = await failures.explainBuild(reading, todo, ctx.now).catch(() => null);
        if (why) out.set(todo.id, why);
      }),
    );
    return out;
  };

  return {
    /** The person's todo alert setting (the bot's own store, never cached). */
    alertSetting: (ctx: RequestContext) => o.alerts?.get(ctx.actor.teamId, ctx.actor.userId) ?? Promise.resolve(null),
    /** The person's sections; `cached`: a read of the last few seconds may serve. */
    read(ctx: RequestContext, options: { cached: boolean }): Promise<HomeReads> {
      return recent.get(keyOf(ctx.actor), ctx.now, () => readAll(ctx), { fresh: !options.cached });
    },
    /** The person did something: their next Home reads again. */
    forget(actor: Pick<Actor, 'teamId' | 'userId'>): void {
      recent.forget(keyOf(actor));
    },
  };
}

export type HomeOperations = ReturnType<typeof createHomeOperations>;
