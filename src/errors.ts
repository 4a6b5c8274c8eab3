import type { Resource } from './gitlab/project.js';

// The bot's own error classes. Each has a stable `code` that the error middleware maps
// to a short message; anything that is not one of these (or a GitlabError) is
// unexpected and reported with a reference id.

/**
 * Words for a person: plain text (escaped wherever it is shown) or markup a view made (an `Md` of
 * views/mrkdwn.ts, which views place as it is). Errors carry them without knowing how Slack reads them.
 */
export type Words = string | { readonly text: string };

export abstract class BotError extends Error {
  abstract readonly code: string;
}

/** The person has no stored token (or it was made for another server). */
export class NotConnectedError extends BotError {
  readonly code = 'not_connected';
  constructor(readonly reason: 'never' | 'other_server' = 'never') {
    super(reason === 'never' ? 'not connected' : 'connected to another server');
    this.name = 'NotConnectedError';
  }
}

/** The stored token was refused by the server (revoked, expired, or its scope removed). */
export class TokenRevokedError extends BotError {
  readonly code = 'token_revoked';
  constructor() {
    super('the stored token was refused by the server');
    this.name = 'TokenRevokedError';
  }
}

/** The stored token does not open (a damaged row, one copied from someone else, or a key that changed). */
export class TokenUnreadableError extends BotError {
  readonly code = 'token_unreadable';
  constructor() {
    super('the stored token cannot be read');
    this.name = 'TokenUnreadableError';
  }
}

/**
 * The server refused the stored token, but a second look did not confirm it (accepted later, or the server
 * was refusing others too): the connection is kept.
 */
export class TokenRefusalUnconfirmedError extends BotError {
  readonly code = 'token_refusal_unconfirmed';
  constructor() {
    super('the server refused the token once; a second check did not confirm it');
    this.name = 'TokenRefusalUnconfirmedError';
  }
}

/** A command needs a project and neither the command nor the channel names one. */
export class ProjectRequiredError extends BotError {
  readonly code = 'project_required';
  constructor() {
    super('which project?');
    this.name = 'ProjectRequiredError';
  }
}

/**
 * The command leaned on the channel's default project, one the channel was told is not public, and the person
 * cannot see it: they are told so without its name (`setBy` is who to ask).
 */
export class ChannelDefaultUnseenError extends BotError {
  readonly code = 'channel_default_unseen';
  constructor(readonly setBy: string) {
    super("the channel's default project is one the person cannot see");
  }
}

/** A button or modal payload that does not decode, or refers to something that is gone. */
export class StaleActionError extends BotError {
  readonly code = 'stale_action';
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'StaleActionError';
  }
}

/** Input that parsed but cannot be acted on (a path that resolves to nothing, a missing title…). */
export class InvalidInputError extends BotError {
  readonly code = 'invalid_input';
  /** What the person is told: plain words (escaped when shown) or markup made by a view. */
  constructor(readonly userMessage: Words) {
    super(typeof userMessage === 'string' ? userMessage : userMessage.text);
    this.name = 'InvalidInputError';
  }
}

/**
 * Why the server refused, finer than its status: a closed set, so that a reason no view has words for (or a typo
 * of one) does not compile. `role:<Role>` names the role a read needs.
 */
export type RefusalReason =
  | `role:${'Guest' | 'Reporter' | 'Developer' | 'Maintainer' | 'Owner'}`
  | 'not_manual'
  | 'no_artifacts'
  | 'no_ref'
  | 'move'
  | 'time'
  | 'merge_denied'
  | 'not_mergeable'
  | 'not_mergeable_now'
  | 'not_auto_merging'
  | 'not_open'
  | 'sha_moved'
  | 'exists'
  | 'not_yours'
  | 'not_pending'
  | 'admin'
  | 'admin_only'
  | 'owner_only'
  | 'no_agent'
  | 'no_key'
  | 'not_owner'
  | 'elsewhere'
  | 'gone'
  | 'unknown_emoji'
  | 'not_allowed'
  /** The project an issue was to move to, named as typed. */
  | `no_target:${string}`;

/**
 * The server refused an action for a reason a person can act on: what was refused, on what, the status, and
 * (when the operation knows it) why. Views turn it into a sentence.
 */
export interface Refusal {
  /** `retry`, `play`, `read`, `merge`… */
  action: string;
  subject: Resource;
  status: number | null;
  /** A finer reason than the status: `not_manual`, `no_artifacts`, `role:Reporter`… */
  reason?: RefusalReason;
  serverMessage?: string | null;
}

export class RefusedError extends BotError {
  readonly code = 'refused';
  constructor(
    readonly refusal: Refusal,
    /** The server's error, for the status message when the refusal has no words of its own. */
    override readonly cause?: unknown,
  ) {
    super(`${refusal.action} refused (${refusal.status ?? 'no status'})`);
    this.name = 'RefusedError';
  }
}

/** A person named in a command who could not be turned into a server user; nothing was sent. */
export class UnknownPersonError extends BotError {
  readonly code = 'unknown_person';
  constructor(
    /** `no_user`: no such username on the server; `not_connected` / `no_username`: a Slack mention the bot cannot map. */
    readonly reason: 'no_user' | 'not_connected' | 'no_username',
    /** The username, or the Slack user id of the mention. */
    readonly who: string,
  ) {
    super(`unknown person (${reason})`);
    this.name = 'UnknownPersonError';
  }
}

/** The bot's own database stayed locked by another process for longer than a request may wait. */
export class DatabaseBusyError extends BotError {
  readonly code = 'database_busy';
  constructor(readonly what: string) {
    super(`the database stayed busy (${what})`);
    this.name = 'DatabaseBusyError';
  }
}

/** The bot's database (PostgreSQL) does not answer right now: nothing was done, and trying again later works. */
export class DatabaseUnavailableError extends BotError {
  readonly code = 'database_unavailable';
  constructor(readonly reason: string) {
    super(`the database is unavailable (${reason})`);
    this.name = 'DatabaseUnavailableError';
  }
}

/** Wraps anything else, with the reference id the person is shown and the log carries. */
export class UnexpectedError extends BotError {
  readonly code = 'unexpected';
  constructor(
    readonly refId: string,
    override readonly cause: unknown,
  ) {
    super(`unexpected error (ref ${refId})`);
    this.name = 'UnexpectedError';
  }
}
