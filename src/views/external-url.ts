import { truncate } from './limits.js';
import { code, link, type Md } from './mrkdwn.js';

// An address the server wrote that is not a GitLab resource (an environment's external_url): the bot cannot
// redraw it on the configured host, so it is a link only when it already names that host. Anywhere else it is
// shown, escaped, inside code formatting, where Slack does not turn it into a link either.

/** The longest address shown as text: enough to recognise, short enough for a list row. */
const SHOWN_CHARS = 200;

/** Whether `url` is an http(s) address on the configured server's host (scheme, host and port alike). */
export function onConfiguredHost(serverUrl: string, url: string): boolean {
  try {
    const given = new URL(url);
    if (given.protocol !== 'http:' && given.protocol !== 'https:') return false;
    if (given.username || given.password) return false;
    return given.origin === new URL(serverUrl).origin;
  } catch {
    return false;
  }
}

/** A link to `url` when it is on the configured host; otherwise the address as code text, never a link. */
export function externalUrl(serverUrl: string, url: string): Md {
  return onConfiguredHost(serverUrl, url) ? link(url, url) : code(truncate(url, SHOWN_CHARS));
}
