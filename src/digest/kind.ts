import type { ScheduledKind, ScheduledStore } from '../delivery/kind.js';
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
import { createDigestReaders, type DigestReader } from './readers.js';
import { DIGEST_EVENT_TYPE, type HostedImage } from './slack.js';

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
  /** Uploads an image without sharing it, for a post to show (the insights digest's chart). */
  hostImage: (image: HostedImage) => Promise<{ fileId: string }>;
  warn: (message: string, fields: Record<string, unknown>) => void;
  /** Readers of further kinds of digest, by the kind a digest row names (see readers.ts). */
  readers?: Partial<Record<string, DigestReader>>;
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
  const readers = { ...createDigestReaders(deps), ...deps.readers };
  const read = (d: Digest, ctx: RequestContext) => {
    const reader = readers[d.kind];
    if (!reader) throw new Error(`no reader for digests of kind ${d.kind}`);
    return reader(d, ctx);
  };

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
