import crypto from 'node:crypto';
import type { Polled, PolledKind } from '../delivery/polled.js';
import { SlackRefusedError } from '../delivery/slack.js';
import { asError, errorName, type RunSteps, readFailureOf } from '../delivery/steps.js';
import type { GitlabClient } from '../gitlab/client.js';
import type { Todo } from '../gitlab/schemas.js';
import type { Logger } from '../log.js';
import type { GitlabAccess } from '../operations/access.js';
import type { AlertPoint, PollOutcome } from '../operations/alert-service.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import type { FailureReader, Reading } from '../operations/failures.js';
import type { AlertDelivery, AlertStore, ClaimedAlert, PolledSetting, PollRecord } from '../store/alert-store.js';
import { readTokensByTeam } from '../store/batch-tokens.js';
import type { LoadedTokens, StoredToken, TokenStore } from '../store/token-store.js';
import { buildAlertDm, buildAlertsPausedDm, type WhyBuildFailed } from '../views/alerts.js';
import { isQuiet } from './quiet.js';
import { alertMark } from './slack.js';
import { nextSpreadPoll } from './spread.js';

// Todo alerts as a polled kind of the delivery kernel (src/delivery/): what only alerts know. Each person with alerts
// on is one item, polled once a minute at an offset of their own (spread.ts) with their own token: the newest pending
// todo's id is read (one call) and compared with the mark; what is new above it is read, held during quiet hours,
// and otherwise sent as one DM. The kernel claims, paces, fences the DM, finds a DM made but not committed, and
// writes the idle polls; the state kept is the mark (and the todos held for the quiet hours to end).

const PAGE = 20;
/** A DM explains the failed builds of this many of its todos (each costs a few reads). */
const BUILDS_EXPLAINED = 2;
/** Someone away for long is read at most this many pages back; older todos are not alerted. */
const MAX_PAGES = 5;

/** The token rows of a claimed batch, by team and person (undefined: the poll's session reads its own). */
type BatchTokens = Map<string, LoadedTokens>;
/** A finished poll as the batch writes it. */
type AlertRecord = readonly [teamId: string, userId: string, PollRecord];

export interface AlertKindDeps {
  store: AlertStore;
  steps: RunSteps;
  /** Reads as the person, through the paced transport (the app's access: one judgement of 401s). */
  access: GitlabAccess;
  sessionOf: (actor: Actor, stored?: StoredToken | null) => Session;
  /** Reads the token rows of a claimed batch with one statement. */
  tokens: Pick<TokenStore, 'loadMany'>;
  serverUrl: string;
  logger: Logger;
  now: () => Date;
  /** The time between two polls of a person. */
  intervalMs: number;
  /** Why a build failed, for a `build_failed` todo's DM (read as the person, kept once read). */
  failures?: FailureReader;
  at?: (point: AlertPoint) => void;
}

const personOf = (s: Pick<PolledSetting, 'teamId' | 'userId'>) => `${s.teamId}:${s.userId}`;

export function createAlertKind(deps: AlertKindDeps): PolledKind<ClaimedAlert, BatchTokens, AlertRecord, PollOutcome> {
  const { store, steps, logger } = deps;

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
    const dm = await steps.openDm(s.userId);
    await store.setDmChannel(s.teamId, s.userId, dm);
    return dm;
  }

  /**
   * The person's token was refused (or is gone): the alerts pause, with one DM. A refusal may be the server's
   * trouble, so they wait for the server to accept the token again (the delivery kernel re-checks it with back-off);
   * only a person with no token at all is asked to connect.
   */
  async function pauseForToken(s: PolledSetting, confirmed: boolean): Promise<PollOutcome> {
    if (await store.pauseForToken(s.teamId, s.userId, deps.now())) {
      await steps.dm(s.userId, buildAlertsPausedDm(deps.serverUrl, confirmed), 'token', s.dmChannel);
    }
    return { kind: 'paused' };
  }

  /** An earlier delivery's intent: committed when its post exists, dropped when it does not. */
  async function settle(s: PolledSetting, d: AlertDelivery): Promise<'committed' | 'dropped' | 'unknown'> {
    if (d.state === 'pending') {
      const found = await steps.lookFor(d.channelId, alertMark(personOf(s), d.runKey), { afterTs: s.lastDeliveryTs });
      if (found.found === 'later') return 'unknown';
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

  async function deliver(
    setting: PolledSetting,
    held: { owner: string; gen: number },
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
      const message = buildAlertDm(todos, { serverUrl: deps.serverUrl, now, released, timeZone: setting.tz, why });
      posted = await steps.postOnce(channel, message, {
        key: personOf(setting),
        held,
        mark: alertMark(personOf(setting), runKey),
      });
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

  async function pollOnce(
    claimed: ClaimedAlert,
    stored: StoredToken | null | undefined,
    owner: string,
  ): Promise<PollOutcome> {
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
      const failure = readFailureOf(err);
      if (failure.kind === 'token') return pauseForToken(s, failure.confirmed);
      if (failure.kind === 'refused') return { kind: 'failed', error: `refused ${failure.status}` };
      if (failure.kind === 'busy') {
        return { kind: 'failed', error: failure.error, busy: { retryAfterMs: failure.retryAfterMs } };
      }
      if (failure.unexpected) {
        logger.error('unexpected error while reading todos for an alert', { user: s.userId, error: asError(err) });
      }
      return { kind: 'failed', error: failure.error };
    }

    if (quiet) {
      if (news.length > 0) {
        await store.hold({
          teamId: s.teamId,
          userId: s.userId,
          todos: news.map((t) => ({ todoId: t.id, todo: JSON.stringify(t) })),
          seenTodoId: mark,
          now: deps.now(),
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
    return deliver(
      s,
      { owner, gen: claimed.leaseGen },
      { todos: all, mark, heldIds: waiting.map((t) => t.id), released: waiting.length > 0 && news.length === 0 },
    );
  }

  return {
    behindLine: 'todo alert polls are behind: everyone is polled in turn, less often than each minute',
    claimDue: ({ owner, now, until, limit }) => store.claimDue(owner, now, until, limit),
    keyOf: (c) => personOf(c.setting),
    dueAt: (c) => c.setting.nextPollAt,
    claimOf: (c) => ({ gen: c.leaseGen, busyPolls: c.busyPolls }),
    intervalMs: deps.intervalMs,
    // The batch's token rows, one read per team (a row this replica changes meanwhile is read again by its poll).
    prepare: (claimed) =>
      readTokensByTeam(
        deps.tokens,
        claimed.map((c) => c.setting),
        (err) => logger.warn('could not read the tokens of an alert batch', { error: String(err) }),
      ),
    async poll(c, tokens, owner): Promise<Polled<AlertRecord, PollOutcome>> {
      const { teamId, userId } = c.setting;
      let outcome: PollOutcome;
      try {
        outcome = await pollOnce(c, tokens?.get(teamId)?.get(userId), owner);
      } catch (err) {
        // Written as failed, so that the person is polled again at their next minute, not at the next look.
        logger.error('unexpected error in an alert poll', { user: userId, error: asError(err) });
        outcome = { kind: 'failed', error: 'unexpected' };
      }
      const at = deps.now();
      const nextPollAt = nextSpreadPoll(personOf(c.setting), c.setting.nextPollAt, at, deps.intervalMs);
      return {
        outcome,
        // The server was in trouble: the kernel backs the person's polls off until it answers again.
        ...(outcome.kind === 'failed' && outcome.busy ? { busy: outcome.busy } : {}),
        // A poll that lost its lease writes nothing: the row is the new holder's.
        ...(outcome.kind !== 'lost'
          ? { record: [teamId, userId, { at, nextPollAt, result: outcome.kind }] as const }
          : {}),
        ...(outcome.kind !== 'idle'
          ? {
              log: {
                user: userId,
                ...('items' in outcome ? { items: outcome.items } : {}),
                ...(outcome.kind === 'failed' ? { error: outcome.error } : {}),
              },
            }
          : {}),
      };
    },
    recordMany: (owner, done) => store.recordPolls(owner, done),
    async backlog(now) {
      const b = await store.backlog(new Date(now.getTime() - deps.intervalMs));
      return {
        overdue: b.overdue,
        polling: b.polling,
        longestWaitS: b.oldest ? Math.round((now.getTime() - b.oldest.getTime()) / 1000) : 0,
      };
    },
  };
}
