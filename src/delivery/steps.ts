import { NotConnectedError, TokenRefusalUnconfirmedError, TokenRevokedError, TokenUnreadableError } from '../errors.js';
import { ForbiddenError, GitlabError, NotFoundError, RateLimitedError, UnavailableError } from '../gitlab/errors.js';
import type { Logger } from '../log.js';
import type { HeldLease, LeaseStore } from '../store/delivery-lease-store.js';
import type { SlackMessage } from '../views/blocks.js';
import { BudgetExhaustedError, type ChannelQueue } from './pacing.js';
import { CHANNEL_ERRORS, type DeliverySlack, type PostMark, type SearchScope, SlackRefusedError } from './slack.js';

// The steps of a run that every kind shares, whichever loop runs it (the cron loop of scheduled.ts, the polled loop
// of polled.ts): a post fenced by the item's lease, the one search for a marked post made but not committed, a notice
// posted or DM'd on the channel's pace, and what a failed read means. A kind composes its run from these and from
// what is its own (what it reads, what it posts, the state it keeps); it never posts around them.

/** What the server's refusal of a read means for the item. */
export type ReadFailure =
  /** The owner's token was refused (`confirmed`: they have no token that works at all, and must connect). */
  | { kind: 'token'; confirmed: boolean }
  /** The server refused what the item reads (403) or does not find it (404). */
  | { kind: 'refused'; status: 403 | 404 }
  /**
   * The server is in trouble (5xx, 429, the token's budget spent): tried again later, the later the longer it lasts
   * (`retryAfterMs`: the server's Retry-After, or when the token's budget frees up).
   */
  | { kind: 'busy'; error: string; retryAfterMs: number | null }
  | { kind: 'failed'; error: string; unexpected: boolean };

/** What a failed read means: a pause (token, 403/404), a back-off, or a failure the next time tries again. */
export function readFailureOf(err: unknown): ReadFailure {
  if (err instanceof TokenRevokedError) return { kind: 'token', confirmed: false };
  if (err instanceof NotConnectedError || err instanceof TokenUnreadableError)
    return { kind: 'token', confirmed: true };
  if (err instanceof NotFoundError) return { kind: 'refused', status: 404 };
  if (err instanceof ForbiddenError) return { kind: 'refused', status: 403 };
  if (err instanceof BudgetExhaustedError) return { kind: 'busy', error: 'rate limited', retryAfterMs: err.waitMs };
  // A 401 a second check did not confirm: the server's trouble rather than the token's.
  if (err instanceof TokenRefusalUnconfirmedError) return { kind: 'busy', error: err.code, retryAfterMs: null };
  if (err instanceof RateLimitedError) {
    const retryAfterMs = err.retryAfterSeconds === null ? null : err.retryAfterSeconds * 1000;
    return { kind: 'busy', error: err.code, retryAfterMs };
  }
  if (err instanceof UnavailableError) return { kind: 'busy', error: err.code, retryAfterMs: null };
  if (err instanceof GitlabError) return { kind: 'failed', error: err.code, unexpected: false };
  return { kind: 'failed', error: 'unexpected', unexpected: true };
}

/** Whether a marked post is where it was made: found, not there (post it), or not to be told now (try later). */
export type Looked = { found: true; ts: string } | { found: false } | { found: 'later'; error: string };

/** Errors of a search that will not pass by themselves: the post is taken as not made (else it stops for ever). */
const SEARCH_FOR_GOOD = new Set([...CHANNEL_ERRORS, 'missing_scope', 'thread_not_found']);

export interface RunStepsDeps {
  slack: DeliverySlack;
  /** Slack's pace per channel, shared by replicas. */
  channels: ChannelQueue;
  /** The lease protocol over the kind's table (the fence of every post). */
  leases: LeaseStore;
  /** How long a lease renewed by a fence holds. */
  leaseMs: number;
  /** The kind's name in the log lines. */
  name: string;
  logger: Logger;
  now: () => Date;
}

/**
 * A post is not made within this share of the lease (at most a second) before the lease's end, read by this
 * process's clock: what may pass between that check and the post reaching Slack.
 */
const fenceMarginMs = (leaseMs: number) => Math.min(1000, leaseMs / 4);

export function createRunSteps(d: RunStepsDeps) {
  const { slack, logger } = d;

  /**
   * Runs `act` (a post, a redraw) in the channel's lane if the item's lease still holds (renewed by this very check);
   * null when it ran out or was taken over, or when this process stalled past it since: nothing is done then, and
   * the replica that holds the item now does it once.
   */
  async function fenced<T>(
    channel: string,
    item: { key: string | number; held: HeldLease },
    act: () => Promise<T>,
    after?: () => void,
  ): Promise<T | null> {
    return d.channels.run(channel, async () => {
      const fencedAt = d.now();
      const until = new Date(fencedAt.getTime() + d.leaseMs);
      if (!(await d.leases.fence(item.key, item.held, { now: fencedAt, until }))) return null;
      after?.();
      if (d.now().getTime() >= until.getTime() - fenceMarginMs(d.leaseMs)) return null;
      return act();
    });
  }

  /** A post that must happen once: with its mark, fenced by the item's lease (null: the lease went, nothing posted). */
  function postOnce(
    channel: string,
    message: SlackMessage,
    o: { key: string | number; held: HeldLease; mark: PostMark; threadTs?: string; afterFence?: () => void },
  ): Promise<{ ts: string } | null> {
    const post = () => slack.post(channel, message, { mark: o.mark, ...(o.threadTs ? { threadTs: o.threadTs } : {}) });
    return fenced(channel, o, post, o.afterFence);
  }

  /**
   * The one search for a marked post made but not committed. A history that cannot be read for good (no scope, not
   * in the channel) counts as not posted, so the item does not stop for ever; so does a post deeper than a search
   * without a previous post to stop at reads (`afterTs`), which takes only the latest pages as the place to look.
   */
  async function lookFor(channel: string, mark: PostMark, scope: SearchScope = {}): Promise<Looked> {
    const found = await slack.findMarked(channel, mark, scope);
    if (found.found !== 'unknown') return found;
    const tooDeep = found.error === 'history_too_long' && !scope.afterTs;
    if (!SEARCH_FOR_GOOD.has(found.error) && !tooDeep) return { found: 'later', error: found.error };
    logger.warn(`could not look for an interrupted ${d.name} post; taken as not posted`, {
      event: mark.event,
      error: found.error,
    });
    return { found: false };
  }

  /** Posts a notice (no mark: said at most once by whoever made the change it tells); a failure is only logged. */
  async function notice(channel: string, message: SlackMessage, what: string): Promise<void> {
    try {
      await d.channels.run(channel, () => slack.post(channel, message));
    } catch (err) {
      logger.warn(`could not post a ${d.name} notice`, { what, error: errorName(err) });
    }
  }

  /** DMs a notice to a person (through `dmChannel` when it is known). */
  async function dm(userId: string, message: SlackMessage, what: string, dmChannel?: string | null): Promise<void> {
    try {
      const channel = dmChannel ?? (await slack.openDm(userId));
      await d.channels.run(channel, () => slack.post(channel, message));
    } catch (err) {
      logger.warn(`could not send a ${d.name} notice by DM`, { user: userId, what, error: errorName(err) });
    }
  }

  return {
    fenced,
    postOnce,
    lookFor,
    notice,
    dm,
    /** A redraw in place that may be repeated (what it shows is the same whoever draws it). */
    update: (channel: string, ts: string, message: SlackMessage) => slack.update(channel, ts, message),
    openDm: (userId: string) => slack.openDm(userId),
  };
}

export type RunSteps = ReturnType<typeof createRunSteps>;

export const errorName = (err: unknown) =>
  err instanceof SlackRefusedError ? err.error : err instanceof Error ? err.name : 'unknown';

export const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
