import type { Found, ScheduledKind, ScheduledStore } from '../delivery/kind.js';
import { TokenRevokedError } from '../errors.js';
import type { Event } from '../gitlab/schemas.js';
import type { GitlabAccess } from '../operations/access.js';
import type { RequestContext } from '../operations/context.js';
import {
  type Digest,
  type DigestCursor,
  type DigestRow,
  type DigestStore,
  OPEN_RUN_OF_CLAIMED,
  toDigest,
} from '../store/digest-store.js';
import {
  buildChannelRefusedDm,
  buildReadRefusedNotice,
  buildResumedDm,
  buildTokenPauseDm,
} from '../views/digest-notices.js';
import { buildEventsDigest, buildTodosDigest } from '../views/digest-posts.js';
import { untitledTargets } from '../views/events.js';
import { collectNew } from './cursor.js';
import { DIGEST_EVENT_TYPE } from './slack.js';
import { readEvents, readTodos } from './sources.js';

// Digests as a kind of scheduled delivery: what only digests know. A run reads, as the digest's owner, the todos or
// the events the cursor has not covered; the post is the digest's message; the state kept is the cursor. The
// kernel (src/delivery/) claims, fences, posts, settles and commits.

export interface DigestKindDeps {
  store: DigestStore;
  /** Reads as the owner, through the paced transport (one judgement of 401s for the bot). */
  access: GitlabAccess;
  /** The path of a project by its id, read as the owner (operations' project resolution and its cache). */
  projectPath: (ctx: RequestContext, id: number) => Promise<string>;
  serverUrl: string;
  slashCommand: string;
}

/** The digest store as the kernel sees it. */
function scheduledStore(store: DigestStore): ScheduledStore<Digest, DigestCursor> {
  return {
    get: (id) => store.get(id),
    claimExtra: OPEN_RUN_OF_CLAIMED,
    fromClaim(row) {
      const r = row as DigestRow & { open_run: number | string };
      return { item: toDigest(r), openIntent: Number(r.open_run) === 1 };
    },
    dueIn: (schedule) => store.dueIn(schedule),
    scheduled: () => store.scheduled(),
    overdue: (dueBefore, now, limit) => store.overdue(dueBefore, now, limit),
    orphaned: (now, o) => store.orphaned(now, o),
    openIntentOf: (id) => store.openRunOf(id),
    openIntent: (digestId, intent, cursor, at) => store.openRun({ ...intent, digestId, cursor, createdAt: at }),
    markPosted: (runKey, ts) => store.markPosted(runKey, ts),
    commit: (runKey, run, midway) => store.commitRun(runKey, run, midway),
    drop: (runKey) => store.dropRun(runKey),
    record: (id, run) => store.recordRun(id, run),
    recordMany: (runs) => store.recordRuns(runs),
    pause: (id, reason, by) => store.pause(id, reason, by),
    pauseOwner: (teamId, ownerId, reason) => store.pauseOwner(teamId, ownerId, reason),
    pausedOwners: (reason) => store.pausedOwners(reason),
    resumeOwner: (teamId, ownerId, reason, nextRunAt) =>
      store.resumeOwner({ teamId, ownerId, reasons: [reason], nextRunAt }),
  };
}

export function createDigestKind(deps: DigestKindDeps): ScheduledKind<Digest, DigestCursor> {
  /** Project paths of events read from a person's feed (as the owner, through operations' project lookup). */
  async function projectPaths(ctx: RequestContext, d: Digest, events: readonly Event[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (d.project) out.set(d.project.id, d.project.path);
    for (const e of events) {
      if (e.project_id === null || out.has(e.project_id)) continue;
      try {
        out.set(e.project_id, await deps.projectPath(ctx, e.project_id));
      } catch (err) {
        if (err instanceof TokenRevokedError) throw err;
        // A project the owner can no longer see is shown by its id.
      }
    }
    return out;
  }

  /** Titles of what was only commented on (a 9.5 comment event carries none): one read each, as the owner. */
  async function targetTitles(ctx: RequestContext, events: readonly Event[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const t of untitledTargets(events)) {
      try {
        const title = await deps.access.withClient(ctx, async (c) =>
          t.kind === 'Issue'
            ? (await c.issues.get(t.projectId, t.iid)).title
            : (await c.mergeRequests.get(t.projectId, t.iid)).title,
        );
        out.set(t.key, title);
      } catch (err) {
        if (err instanceof TokenRevokedError) throw err;
        // Without its title the line still names what was commented on.
      }
    }
    return out;
  }

  async function read(d: Digest, ctx: RequestContext): Promise<Found<DigestCursor>> {
    const since = new Date(d.cursor.at);
    if (d.kind === 'todos') {
      const todos = await deps.access.withClient(ctx, (c) => readTodos(c));
      const ownerName = (await ctx.session.connection())?.username ?? null;
      return {
        items: todos.items.length,
        state: d.cursor,
        since,
        view: (now) =>
          buildTodosDigest({
            digest: d,
            todos: todos.items,
            truncated: todos.truncated,
            serverUrl: deps.serverUrl,
            now,
            ownerName,
          }),
      };
    }
    const events = await deps.access.withClient(ctx, (c) => readEvents(c, d, d.cursor));
    const { fresh, next } = collectNew(events.items, d.cursor);
    const paths = fresh.length ? await projectPaths(ctx, d, fresh) : new Map<number, string>();
    const titles = fresh.length ? await targetTitles(ctx, fresh) : new Map<string, string>();
    return {
      items: fresh.length,
      state: next,
      since,
      view: (now) =>
        buildEventsDigest({
          digest: d,
          events: fresh,
          projectPaths: paths,
          titles,
          serverUrl: deps.serverUrl,
          since,
          until: now,
          truncated: events.truncated,
        }),
    };
  }

  return {
    name: 'digest',
    event: DIGEST_EVENT_TYPE,
    table: 'digests',
    store: scheduledStore(deps.store),
    notices: {
      tokenPaused: (paused, o) => buildTokenPauseDm(paused, o.serverUrl, o.confirmed),
      readRefused: (d, status) => buildReadRefusedNotice(d, status, deps.slashCommand),
      channelRefused: (d, error) => buildChannelRefusedDm(d, error, deps.slashCommand),
      resumed: (items, how) => buildResumedDm(items, how),
    },
    markOf: (d) => ({ digest: d.id }),
    read,
    ownerOf: (d) => ({ teamId: d.teamId, userId: d.ownerId, userName: '' }),
  };
}
