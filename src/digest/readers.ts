import type { Found } from '../delivery/kind.js';
import { TokenRevokedError } from '../errors.js';
import type { Event } from '../gitlab/schemas.js';
import type { GitlabAccess } from '../operations/access.js';
import type { RequestContext } from '../operations/context.js';
import { confidentialIssuesOf } from '../operations/events.js';
import type { Digest, DigestCursor, DigestKind } from '../store/digest-store.js';
import { eventFor, issueOfEvent } from '../views/audience.js';
import { buildEventsDigest, buildTodosDigest } from '../views/digest-posts.js';
import { untitledTargets } from '../views/events.js';
import { collectNew } from './cursor.js';
import { insightsReader } from './insights-reader.js';
import type { HostedImage } from './slack.js';
import { readEvents, readTodos } from './sources.js';

// What each kind of digest reads and shows: one reader per kind a digest row names. A reader reads, as the owner
// through `ctx`, what the cursor has not covered and returns it as data (how many things, the message, the cursor
// to keep); it never posts. A new kind of digest is a reader of its own plus one line in createDigestReaders (or
// one entry of `readers` given to createDigestKind).

export interface DigestReaderDeps {
  /** Reads as the owner, through the paced transport (one judgement of 401s for the bot). */
  access: GitlabAccess;
  /** The path of a project by its id, read as the owner (operations' project resolution and its cache). */
  projectPath: (ctx: RequestContext, id: number) => Promise<string>;
  serverUrl: string;
  /** Uploads an image without sharing it, for a post to show (the insights digest's chart). */
  hostImage: (image: HostedImage) => Promise<{ fileId: string }>;
  /** Says what went wrong without stopping the run (a chart not uploaded). */
  warn: (message: string, fields: Record<string, unknown>) => void;
}

export type DigestReader = (d: Digest, ctx: RequestContext) => Promise<Found<DigestCursor>>;

/** Project paths of events read from a person's feed (as the owner, through operations' project lookup). */
async function projectPaths(
  deps: DigestReaderDeps,
  ctx: RequestContext,
  d: Digest,
  events: readonly Event[],
): Promise<Map<number, string>> {
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
async function targetTitles(
  deps: DigestReaderDeps,
  ctx: RequestContext,
  events: readonly Event[],
): Promise<Map<string, string>> {
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

/** Pending todos, all of them every time (the cursor stays): a todos digest is a reminder. */
function todosReader(deps: DigestReaderDeps): DigestReader {
  return async (d, ctx) => {
    const todos = await deps.access.withClient(ctx, (c) => readTodos(c));
    const ownerName = (await ctx.session.connection())?.username ?? null;
    return {
      items: todos.items.length,
      state: d.cursor,
      since: new Date(d.cursor.at),
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
  };
}

/** A project's or a user's events since the cursor, which moves past what was posted. */
function eventsReader(deps: DigestReaderDeps): DigestReader {
  return async (d, ctx) => {
    const since = new Date(d.cursor.at);
    const events = await deps.access.withClient(ctx, (c) => readEvents(c, d, d.cursor));
    const { fresh: read, next } = collectNew(events.items, d.cursor);
    // Posted in a channel, an event about a confidential issue keeps its number, not its words (views/audience.ts).
    const keys = d.inDm ? [] : read.map(issueOfEvent).filter((k): k is string => k !== null);
    const confidential = keys.length > 0 ? await confidentialIssuesOf(deps.access, ctx, keys) : new Set<string>();
    const fresh = d.inDm ? read : read.map((e) => eventFor('channel', e, confidential));
    const paths = fresh.length ? await projectPaths(deps, ctx, d, fresh) : new Map<number, string>();
    const titles = fresh.length ? await targetTitles(deps, ctx, fresh) : new Map<string, string>();
    // A comment's issue title is read afresh: a confidential one's stays out of the channel too.
    for (const key of confidential) {
      const [project, iid] = key.split(':');
      titles.delete(`${project}:Issue:${iid}`);
    }
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
  };
}

/** The reader of every kind of digest the bot ships. */
export function createDigestReaders(deps: DigestReaderDeps): Record<DigestKind, DigestReader> {
  const events = eventsReader(deps);
  return { todos: todosReader(deps), project_events: events, user_events: events, insights: insightsReader(deps) };
}
