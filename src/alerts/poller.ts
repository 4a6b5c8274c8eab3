import crypto from 'node:crypto';
import { BudgetExhaustedError, type ChannelQueue } from '../delivery/pacing.js';
import { CHANNEL_ERRORS, SlackRefusedError } from '../delivery/slack.js';
import { NotConnectedError, TokenRevokedError } from '../errors.js';
import type { GitlabClient } from '../gitlab/client.js';
import { GitlabError } from '../gitlab/errors.js';
import type { Todo } from '../gitlab/schemas.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import type { AlertPoint, PollOutcome } from '../operations/alert-service.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import type { FailureReader, Reading } from '../operations/failures.js';
import type { AlertDelivery, AlertStore, ClaimedAlert, PolledSetting } from '../store/alert-store.js';
import type { StoredToken } from '../store/token-store.js';
import { buildAlertDm, buildAlertsPausedDm, type WhyBuildFailed } from '../views/alerts.js';
import { isQuiet } from './quiet.js';
import type { AlertSlack } from './slack.js';

// One poll of one person's todos, exactly once. The protocol (digests' own, per person):
//   1. settle an open intent of an earlier delivery (its post is in the DM's history → commit it; not → drop it);
//   2. read the newest pending todo with the person's token: nothing above the mark → done (one call);
//   3. read what is new (newest first, down to the mark); in quiet hours hold it and move the mark in one
//      transaction; otherwise write an intent (run key, the mark it moves to, the held todos it carries) → post one
//      DM with the run key as metadata → mark it posted → move the mark, drop the held todos and the intent in one
//      transaction.
// The poll runs under the person's lease (store/alert-store.ts), so no other replica polls them meanwhile; the DM
// is fenced by it (store/lease-fence.ts): right before the post the lease is renewed, and a poll whose lease ran
// out or was taken over meanwhile leaves its intent to the new holder instead of posting.

const PAGE = 20;
/** A DM explains the failed builds of this many of its todos (each costs a few reads). */
const BUILDS_EXPLAINED = 2;
/** Someone away for long is read at most this many pages back; older todos are not alerted. */
const MAX_PAGES = 5;

export interface PollerDeps {
  store: AlertStore;
  slack: AlertSlack;
  /** Reads as the person, through the paced transport (the app's access: one judgement of 401s). */
  access: GitlabAccess;
  sessionOf: (actor: Actor, stored?: StoredToken | null) => Session;
  channels: ChannelQueue;
  serverUrl: string;
  logger: Logger;
  now: () => Date;
  /** This replica as it holds leases, and how long a lease renewed right before a post holds. */
  lease: { owner: string; ms: number };
  /** Why a build failed, for a `build_failed` todo's DM (read as the person, kept once read). */
  failures?: FailureReader;
  at?: (point: AlertPoint) => void;
}

const personOf = (s: Pick<PolledSetting, 'teamId' | 'userId'>) => `${s.teamId}:${s.userId}`;

export function createPoller(deps: PollerDeps) {
  const { store, slack, logger } = deps;

  const ctxOf = (s: PolledSetting, stored: StoredToken | null | undefined): RequestContext => {
    const actor = { teamId: s.teamId, userId: s.userId, userName: '' };
    return { actor, channelId: null, now: deps.now(), session: deps.sessionOf(actor, stored) };
  };

  /** Todos above the mark, newest first, read down to it (a page holding the mark ends the read). */
  async function readNew(client: GitlabClient, seen: number): Promise<Todo[]> {
    const out: Todo[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const p = await client.todos.list({ state: 'pending', per_page: PAGE, ...(page > 1 ? { page } : {}) });
      for (const t of p.items) {
        // Newest first: the first todo at or below the mark ends what is new.
        if (t.id <= seen) return out;
        out.push(t);
      }
      if (p.nextPage === null || p.nextPage <= page) return out;
    }
    return out;
  }

  async function dmOf(s: PolledSetting): Promise<string> {
    if (s.dmChannel) return s.dmChannel;
    const dm = await slack.openDm(s.userId);
    await store.setDmChannel(s.teamId, s.userId, dm);
    return dm;
  }

  /**
   * The person's token was refused (or is gone): the alerts pause, with one DM. A refusal may be the server's
   * trouble, so they wait for the server to accept the token again (the delivery kernel re-checks it with back-off);
   * only a person with no token at all is asked to connect.
   */
  async function pauseForToken(s: PolledSetting, err: unknown): Promise<PollOutcome> {
    if (await store.pauseForToken(s.teamId, s.userId, deps.now())) {
      try {
        const dm = await dmOf(s);
        const confirmed = err instanceof NotConnectedError;
        await deps.channels.run(dm, () => slack.post(dm, buildAlertsPausedDm(deps.serverUrl, confirmed)));
      } catch (err) {
        logger.warn('could not tell a person their alerts are paused', { user: s.userId, error: errorName(err) });
      }
    }
    return { kind: 'paused' };
  }

  /** An earlier delivery's intent: committed when its post exists, dropped when it does not. */
  async function settle(s: PolledSetting, d: AlertDelivery): Promise<'committed' | 'dropped' | 'unknown'> {
    if (d.state === 'pending') {
      const found = await slack.findDelivery(d.channelId, { person: personOf(s), run: d.runKey }, s.lastDeliveryTs);
      if (found.found === 'unknown') {
        // A DM whose history cannot be read for good must not stop the alerts for ever.
        if (!CHANNEL_ERRORS.has(found.error) && found.error !== 'missing_scope') return 'unknown';
        await store.dropDelivery(d.runKey);
        return 'dropped';
      }
      if (!found.found) {
        await store.dropDelivery(d.runKey);
        return 'dropped';
      }
      await store.markPosted(d.runKey, found.ts);
    }
    await store.commitDelivery(d.runKey, deps.now());
    logger.info('alert delivery settled', { user: s.userId, run: d.runKey, items: d.items });
    return 'committed';
  }

  /** Whether this poll still holds the person's lease right before a post (and it now holds a while longer). */
  const holds = (s: PolledSetting, gen: number): Promise<boolean> => {
    const now = deps.now();
    return store.fence(
      s.teamId,
      s.userId,
      { owner: deps.lease.owner, gen },
      { now, until: new Date(now.getTime() + deps.lease.ms) },
    );
  };

  async function deliver(
    setting: PolledSetting,
    leaseGen: number,
    { todos, mark, heldIds, released }: { todos: Todo[]; mark: number; heldIds: number[]; released: boolean },
  ): Promise<PollOutcome> {
    const now = deps.now();
    let channel: string;
    try {
      channel = await dmOf(setting);
    } catch (err) {
      return { kind: 'failed', error: `slack ${errorName(err)}` };
    }
    const runKey = crypto.randomUUID();
    await store.openDelivery(
      {
        runKey,
        teamId: setting.teamId,
        userId: setting.userId,
        channelId: channel,
        seenTodoId: mark,
        todoIds: heldIds,
        items: todos.length,
      },
      now,
    );
    const why = await whyBuildsFailed(setting, todos);
    deps.at?.('before-post');
    let posted: { ts: string } | null;
    try {
      posted = await deps.channels.run(channel, async () =>
        (await holds(setting, leaseGen))
          ? slack.post(
              channel,
              buildAlertDm(todos, { serverUrl: deps.serverUrl, now, released, timeZone: setting.tz, why }),
              { person: personOf(setting), run: runKey },
            )
          : null,
      );
    } catch (err) {
      if (err instanceof SlackRefusedError) {
        // Slack said no: nothing was posted, so the intent goes and the mark stays.
        await store.dropDelivery(runKey);
        return { kind: 'failed', error: `slack ${err.error}` };
      }
      // No answer: the post may have gone out. The intent stays, and the next poll looks for it first.
      return { kind: 'failed', error: 'slack unreachable' };
    }
    // The lease ran out or was taken over: the intent stays, for the new holder to settle and deliver.
    if (posted === null) return { kind: 'lost' };
    const { ts } = posted;
    deps.at?.('after-post');
    await store.markPosted(runKey, ts);
    await store.commitDelivery(runKey, deps.now(), () => deps.at?.('while-saving'));
    return { kind: 'delivered', items: todos.length, ts };
  }

  /**
   * Why the builds of `build_failed` todos failed: the merge request's newest pipeline on its branch, its failed
   * jobs' explaining lines (the first BUILDS_EXPLAINED todos; a DM without them still goes).
   */
  async function whyBuildsFailed(s: PolledSetting, todos: readonly Todo[]): Promise<Map<number, WhyBuildFailed>> {
    const out = new Map<number, WhyBuildFailed>();
    const failures = deps.failures;
    if (!failures) return out;
    const ctx = ctxOf(s, undefined);
    const reading: Reading = { read: (fn) => deps.access.withClient(ctx, fn), teamId: s.teamId };
    const builds = todos.filter((t) => t.action_name === 'build_failed' && t.target_type === 'MergeRequest');
    for (const todo of builds.slice(0, BUILDS_EXPLAINED)) {
      try {
        const why = await failures.explainBuild(reading, todo, deps.now());
        if (why) out.set(todo.id, why);
      } catch (err) {
        logger.debug('could not read why a build failed', { todo: todo.id, error: errorName(err) });
      }
    }
    return out;
  }

  async function pollOnce(claimed: ClaimedAlert, stored: StoredToken | null | undefined): Promise<PollOutcome> {
    let s = claimed.setting;
    let held = claimed.held;
    if (claimed.openDelivery) {
      const open = await store.openDeliveryOf(s.teamId, s.userId);
      if (open) {
        const settled = await settle(s, open);
        if (settled === 'unknown') return { kind: 'failed', error: 'the previous alert could not be looked for' };
        const after = await store.get(s.teamId, s.userId);
        if (!after) return { kind: 'idle' };
        s = after;
        held = (await store.held(s.teamId, s.userId)).length;
        if (settled === 'committed') return { kind: 'settled', items: open.items };
      }
    }

    const ctx = ctxOf(s, stored);
    let news: Todo[] = [];
    let mark = s.seenTodoId;
    const quiet = isQuiet(s.quiet, deps.now(), s.tz);
    try {
      const fresh = await deps.access.withClient(ctx, async (c) => {
        // Only the newest id is compared: the todo itself is decoded when it is new (readNew).
        const top = await c.todos.newestPendingId();
        if (top === null || top <= s.seenTodoId) return null;
        return readNew(c, s.seenTodoId);
      });
      if (fresh === null && (held === 0 || quiet)) return { kind: 'idle' };
      if (fresh) {
        for (const t of fresh) mark = Math.max(mark, t.id);
        news = fresh.filter((t) => (s.actions as string[]).includes(t.action_name));
      }
    } catch (err) {
      if (err instanceof TokenRevokedError || err instanceof NotConnectedError) return pauseForToken(s, err);
      const error =
        err instanceof BudgetExhaustedError ? 'rate limited' : err instanceof GitlabError ? err.code : 'unexpected';
      if (!(err instanceof GitlabError) && !(err instanceof BudgetExhaustedError)) {
        logger.error('unexpected error while reading todos for an alert', { user: s.userId, error: asError(err) });
      }
      return { kind: 'failed', error };
    }

    if (quiet) {
      if (news.length > 0) {
        const now = deps.now();
        await store.hold({
          teamId: s.teamId,
          userId: s.userId,
          todos: news.map((t) => ({ todoId: t.id, todo: JSON.stringify(t) })),
          seenTodoId: mark,
          now,
        });
        return { kind: 'held', items: news.length };
      }
      if (mark > s.seenTodoId) await store.advance(s.teamId, s.userId, mark);
      return { kind: 'idle' };
    }
    const waiting = held > 0 ? (await store.held(s.teamId, s.userId)).map((h) => JSON.parse(h.todo) as Todo) : [];
    const seen = new Set(waiting.map((t) => t.id));
    // Oldest first, as they arrived.
    const all = [...waiting, ...news.filter((t) => !seen.has(t.id)).reverse()];
    if (all.length === 0) {
      if (mark > s.seenTodoId) await store.advance(s.teamId, s.userId, mark);
      return { kind: 'idle' };
    }
    return deliver(s, claimed.leaseGen, {
      todos: all,
      mark,
      heldIds: waiting.map((t) => t.id),
      released: waiting.length > 0 && news.length === 0,
    });
  }

  return {
    /** `stored`: the person's token row as their batch read it (undefined: the poll reads it). */
    async poll(claimed: ClaimedAlert, stored?: StoredToken | null): Promise<PollOutcome> {
      try {
        return await pollOnce(claimed, stored);
      } catch (err) {
        logger.error('unexpected error in an alert poll', { user: claimed.setting.userId, error: asError(err) });
        return { kind: 'failed', error: 'unexpected' };
      }
    },
  };
}

export type Poller = ReturnType<typeof createPoller>;

const errorName = (err: unknown) =>
  err instanceof SlackRefusedError ? err.error : err instanceof Error ? err.name : 'unknown';

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
