// Who acts and where: everything an operation needs to know about the request, without Slack.

export interface Actor {
  teamId: string;
  /** Slack user id of the person acting: for buttons, the one who clicked. */
  userId: string;
  userName: string;
}

export interface RequestContext {
  actor: Actor;
  /** The channel the command ran in, or the clicked message's channel; null for modals. */
  channelId: string | null;
  now: Date;
}
