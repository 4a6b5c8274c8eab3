import {
  BotError,
  InvalidInputError,
  NotConnectedError,
  ProjectRequiredError,
  StaleActionError,
  TokenRevokedError,
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
  ResponseShapeError,
  UnauthorizedError,
  UnavailableError,
} from '../gitlab/errors.js';
import { buildConnectPrompt } from './account.js';
import { message, type SlackMessage, section } from './blocks.js';
import { code, esc } from './mrkdwn.js';

/** What the failed request was about, so that messages can name it ("Job 123 in demo/web"). */
export interface ErrorSubject {
  label: string;
}

export interface ErrorViewOptions {
  serverUrl: string;
  slashCommand: string;
  subject?: ErrorSubject;
}

const say = (emoji: string, text: string): SlackMessage => message(text, [section(`${emoji} ${text}`)]);

function serverSaid(err: GitlabError): string {
  const m = err.serverMessage?.trim();
  return m ? ` The server said: “${esc(m.slice(0, 300))}”.` : '';
}

/** A short message for every known error; null for anything unexpected (which gets a reference id instead). */
export function buildErrorMessage(err: unknown, o: ErrorViewOptions): SlackMessage | null {
  const what = o.subject ? esc(o.subject.label) : 'That';
  if (err instanceof NotConnectedError) {
    return buildConnectPrompt(
      err.reason === 'other_server' ? 'other_server' : 'not_connected',
      o.serverUrl,
      o.slashCommand,
    );
  }
  if (err instanceof TokenRevokedError) return buildConnectPrompt('token_revoked', o.serverUrl, o.slashCommand);
  if (err instanceof ProjectRequiredError) {
    return say(
      ':grey_question:',
      `Which project? Give ${code('group/project')} or set one with ${code(`${o.slashCommand} use group/project`)}.`,
    );
  }
  if (err instanceof StaleActionError) {
    return say(
      ':hourglass:',
      `This button is out of date (${esc(err.detail)}). Nothing was changed; run the command again for a fresh card.`,
    );
  }
  if (err instanceof InvalidInputError) return say(':warning:', err.userMessage);
  if (err instanceof BotError) return null;

  if (err instanceof NotFoundError) {
    return say(
      ':mag:',
      `${what} was not found, or you have no access to it (404). Check the name and your membership.`,
    );
  }
  if (err instanceof UnauthorizedError) {
    return say(':no_entry:', `The server says you are not allowed to do that (401).${serverSaid(err)}`);
  }
  if (err instanceof ForbiddenError) {
    return say(
      ':no_entry:',
      `You don't have permission for that (403), or it is not possible in its current state.${serverSaid(err)}`,
    );
  }
  if (err instanceof BadRequestError)
    return say(':warning:', `The server refused the request (400).${serverSaid(err)}`);
  if (err instanceof NotAllowedError)
    return say(':no_entry_sign:', `${what} cannot be done in its current state (405).${serverSaid(err)}`);
  if (err instanceof NotAcceptableError)
    return say(':no_entry_sign:', `${what} is not possible right now (406).${serverSaid(err)}`);
  if (err instanceof ConflictError) {
    return say(':twisted_rightwards_arrows:', 'The branch moved since you looked (409): refresh and try again.');
  }
  if (err instanceof RateLimitedError) {
    const wait = err.retryAfterSeconds ? ` Try again in ${err.retryAfterSeconds} s.` : ' Try again in a minute.';
    return say(':snail:', `The server is rate limiting requests (429); the bot retried and gave up.${wait}`);
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
    return say(':construction:', `The server at ${esc(o.serverUrl)} is unavailable: it ${why}. ${next}`);
  }
  if (err instanceof ResponseShapeError) {
    return say(
      ':jigsaw:',
      'The server answered with data this bot does not understand. Is GITLAB_URL pointing at the right server?',
    );
  }
  if (err instanceof GitlabError)
    return say(':warning:', `The server refused the request (${err.status}).${serverSaid(err)}`);
  return null;
}

export function buildUnexpectedErrorMessage(refId: string): SlackMessage {
  return say(
    ':boom:',
    `Something went wrong on the bot's side (reference ${code(refId)}). If it keeps happening, give this reference to whoever runs the bot.`,
  );
}
