import {
  BotError,
  ChannelDefaultUnseenError,
  DatabaseBusyError,
  DatabaseUnavailableError,
  InvalidInputError,
  NotConnectedError,
  ProjectRequiredError,
  type Refusal,
  RefusedError,
  StaleActionError,
  TokenRefusalUnconfirmedError,
  TokenRevokedError,
  TokenUnreadableError,
  UnknownPersonError,
  type Words,
} from '../errors.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GitlabError,
  NotAcceptableError,
  NotAllowedError,
  NotFoundError,
  RateLimitedError,
  RedirectedError,
  ResponseShapeError,
  UnauthorizedError,
  UnavailableError,
} from '../gitlab/errors.js';
import { InvalidPathError } from '../gitlab/paths.js';
import { projectLabel, type Resource } from '../gitlab/project.js';
import { buildConnectPrompt } from './account.js';
import { message, type SlackMessage, section } from './blocks.js';
import { code, Md, md, mention, type Text } from './mrkdwn.js';
import { unknownPerson } from './people.js';
import { refusalWords } from './refusals.js';

// Every failure a person can hit, in words: the bot's own errors, the server's refusals of an action,
// and the server's statuses, each naming what the request was about.

export interface ErrorViewOptions {
  serverUrl: string;
  slashCommand: string;
}

const say = (emoji: string, text: Text): SlackMessage => message(text, [section(md`${emoji} ${text}`)]);

/** An error's words as a view places them: markup only when a view made it, anything else as escaped text. */
const asText = (words: Words): Text => (typeof words === 'string' || words instanceof Md ? words : words.text);

/** What a request was about, as the subject of a sentence: "Job #8 in demo/web", "Issue demo/web#3". */
export function resourceLabel(r: Resource): string {
  switch (r.kind) {
    case 'project':
      return `Project ${r.project.path ?? r.project.key}`;
    case 'group':
      return `Group ${r.group}`;
    case 'job':
    case 'pipeline':
    case 'schedule':
      return `${r.kind[0]?.toUpperCase()}${r.kind.slice(1)} #${r.id} in ${projectLabel(r.project)}`;
    case 'deployment':
      return `Deployment ${r.id} in ${projectLabel(r.project)}`;
    case 'issue':
      return `Issue ${projectLabel(r.project)}#${r.iid}`;
    case 'merge_request':
      return `Merge request ${projectLabel(r.project)}!${r.iid}`;
    case 'snippet':
      return `Snippet ${projectLabel(r.project)}$${r.iid}`;
    case 'merge_request_version':
      return `Version ${r.id} of merge request ${projectLabel(r.project)}!${r.iid}`;
    case 'ref':
      return `Branch or tag ${r.ref} in ${projectLabel(r.project)}`;
    case 'artifacts':
      return `The latest successful “${r.job}” job on ${r.ref} in ${projectLabel(r.project)}`;
    default:
      return `${r.kind[0]?.toUpperCase()}${r.kind.slice(1)} ${r.id}`;
  }
}

function serverSaid(message: string | null | undefined): Md | '' {
  const m = message?.trim();
  return m ? md` The server said: “${m.slice(0, 300)}”.` : '';
}

/** A refusal as a sentence; null when there is nothing better to say than the status itself. */
export function refusalText(r: Refusal): Md | null {
  return refusalWords(r, resourceLabel(r.subject));
}

function gitlabErrorMessage(err: GitlabError, o: ErrorViewOptions): SlackMessage {
  const what = err.subject ? resourceLabel(err.subject) : 'That';
  if (err instanceof NotFoundError) {
    return say(
      ':mag:',
      md`${what} was not found, or you have no access to it (404). Check the name and your membership.`,
    );
  }
  if (err instanceof UnauthorizedError) {
    return say(':no_entry:', md`The server says you are not allowed to do that (401).${serverSaid(err.serverMessage)}`);
  }
  if (err instanceof ForbiddenError) {
    return say(
      ':no_entry:',
      md`You don't have permission for that (403), or it is not possible in its current state.${serverSaid(err.serverMessage)}`,
    );
  }
  if (err instanceof BadRequestError) {
    return say(':warning:', md`The server refused the request (400).${serverSaid(err.serverMessage)}`);
  }
  if (err instanceof NotAllowedError) {
    return say(
      ':no_entry_sign:',
      md`${what} cannot be done in its current state (405).${serverSaid(err.serverMessage)}`,
    );
  }
  if (err instanceof NotAcceptableError) {
    return say(':no_entry_sign:', md`${what} is not possible right now (406).${serverSaid(err.serverMessage)}`);
  }
  if (err instanceof ConflictError) {
    return say(':twisted_rightwards_arrows:', 'The branch moved since you looked (409): refresh and try again.');
  }
  if (err instanceof RateLimitedError) {
    const wait = err.retryAfterSeconds ? `${err.retryAfterSeconds} s` : 'a minute';
    const attempts = err.attempts;
    return say(
      ':snail:',
      attempts > 1
        ? `The server is rate limiting requests (429); the bot retried ${attempts - 1} time${attempts === 2 ? '' : 's'} and gave up. Try again in ${wait}.`
        : `The server is rate limiting requests (429) and asks for a longer wait than a command can take; nothing was done. Try again in ${wait}.`,
    );
  }
  if (err instanceof UnavailableError) {
    const why =
      err.reason === 'timeout'
        ? 'did not answer in time'
        : err.reason === 'network'
          ? 'could not be reached'
          : `answered ${err.status ?? 'with an error'}`;
    // A change that timed out may still have reached the server: trying again blindly could do it twice.
    const changeUnknown = err.reason === 'timeout' && err.method !== 'GET' && err.method !== 'HEAD';
    const next = changeUnknown
      ? 'The change may have been made anyway: look before you try again.'
      : 'Try again in a minute; if it lasts, tell whoever runs it.';
    return say(':construction:', md`The server at ${o.serverUrl} is unavailable: it ${why}. ${next}`);
  }
  if (err instanceof RedirectedError) {
    return say(
      ':twisted_rightwards_arrows:',
      md`The server at ${o.serverUrl} redirected the request to another host; nothing was sent there. Whoever runs the bot should check that GITLAB_URL is the server's own address.`,
    );
  }
  if (err instanceof ResponseShapeError) {
    return say(
      ':jigsaw:',
      'The server answered with data this bot does not understand. Is GITLAB_URL pointing at the right server?',
    );
  }
  return say(
    ':warning:',
    md`The server refused the request (${err.status ?? 'no answer'}).${serverSaid(err.serverMessage)}`,
  );
}

/** A short message for every known error; null for anything unexpected (which gets a reference id instead). */
export function buildErrorMessage(err: unknown, o: ErrorViewOptions): SlackMessage | null {
  if (err instanceof NotConnectedError) {
    return buildConnectPrompt(
      err.reason === 'other_server' ? 'other_server' : 'not_connected',
      o.serverUrl,
      o.slashCommand,
    );
  }
  if (err instanceof TokenRevokedError) return buildConnectPrompt('token_revoked', o.serverUrl, o.slashCommand);
  if (err instanceof TokenUnreadableError) return buildConnectPrompt('token_unreadable', o.serverUrl, o.slashCommand);
  if (err instanceof DatabaseBusyError) return say(':hourglass:', DATABASE_BUSY);
  if (err instanceof DatabaseUnavailableError) return say(':hourglass:', DATABASE_UNAVAILABLE);
  if (err instanceof InvalidPathError) return say(':warning:', `${err.message} Nothing was sent to the server.`);
  if (err instanceof TokenRefusalUnconfirmedError) {
    return say(
      ':warning:',
      md`${o.serverUrl} refused your token just now (401), but a second check did not confirm it, so your connection is kept. The server may be having trouble: try again in a minute.`,
    );
  }
  if (err instanceof ChannelDefaultUnseenError) {
    return say(
      ':grey_question:',
      md`This channel's default project is one you can't see; give a project (${code('group/project')}) or ask ${mention(err.setBy)}.`,
    );
  }
  if (err instanceof ProjectRequiredError) {
    return say(
      ':grey_question:',
      md`Which project? Give ${code('group/project')} or set one with ${code(`${o.slashCommand} use group/project`)}.`,
    );
  }
  if (err instanceof StaleActionError) {
    return say(
      ':hourglass:',
      md`This button is out of date (${err.detail}). Nothing was changed; run the command again for a fresh card.`,
    );
  }
  if (err instanceof InvalidInputError) return say(':warning:', asText(err.userMessage));
  if (err instanceof UnknownPersonError) return say(':bust_in_silhouette:', unknownPerson(err, o.serverUrl));
  if (err instanceof RefusedError) {
    const text = refusalText(err.refusal);
    if (text) return say(':no_entry:', text);
    if (err.cause instanceof GitlabError) return gitlabErrorMessage(err.cause, o);
  }
  if (err instanceof BotError) return null;
  if (err instanceof GitlabError) return gitlabErrorMessage(err, o);
  return null;
}

/** Another program kept the bot's database locked for longer than a request may wait. */
export const DATABASE_BUSY =
  "The bot's database is busy right now (another program is writing to it), so this could not be done. Try again in a moment.";

/** The bot's database (PostgreSQL) did not answer; the person tries again once it is back. */
export const DATABASE_UNAVAILABLE = "The bot's database is unavailable, try again in a moment.";

export function buildUnexpectedErrorMessage(refId: string): SlackMessage {
  return say(
    ':boom:',
    md`Something went wrong on the bot's side (reference ${code(refId)}). If it keeps happening, give this reference to whoever runs the bot.`,
  );
}

/** What a person asked for, as a shutdown notice names it. */
export type InterruptedRequest =
  | { kind: 'command'; text: string }
  | { kind: 'button'; label: string }
  | { kind: 'form' };

/** Told to each person whose request was still running when the bot had to stop. */
export function buildInterrupted(asked: InterruptedRequest): SlackMessage {
  const what =
    asked.kind === 'command'
      ? code(asked.text)
      : asked.kind === 'button'
        ? md`your click of ${asked.label}`
        : 'your form';
  return say(
    ':warning:',
    md`The bot had to restart before it finished ${what}: it may not have completed. Look before you try again.`,
  );
}
