import type { Connection } from '../store/token-store.js';

// Who acts and where: everything an operation needs to know about the request, without Slack.

export interface Actor {
  teamId: string;
  /** Slack user id of the person acting: for buttons, the one who clicked. */
  userId: string;
  userName: string;
}

/** The acting person's stored connection, read once per request; the token is opened at most once. */
export interface Session {
  connection(): Promise<Connection | null>;
  /** The plaintext token; throws NotConnectedError / TokenRevokedError when there is no usable one. */
  token(): Promise<string>;
  /**
   * True when this session asks the server again about a token the bot marked revoked before it says so (see
   * GitlabAccess.recheck); a session without it is checked again by GitlabAccess.withClient.
   */
  readonly rechecksRevoked?: boolean;
}

export interface RequestContext {
  actor: Actor;
  /** The channel the command ran in, or the clicked message's channel; null for modals and the Home tab. */
  channelId: string | null;
  now: Date;
  session: Session;
  /**
   * The answer is read by many: the command was shared (`--share`), or the click was on a message in a channel,
   * which anyone there may click and have redrawn. Its times are then drawn for every reader (views/format.ts).
   */
  shared?: boolean;
}
