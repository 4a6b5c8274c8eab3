// What Slack's Web API error codes mean to the bot, in one place: the code of a refusal (an answer with `ok: false`)
// read off the Web API client's error by its documented fields (`code`, `data.error`), and the codes that say a
// token itself is no good rather than this one call. Plain data, so every layer that meets a refusal reads it here.

/** @slack/web-api's `ErrorCode.PlatformError`: Slack answered, with `ok: false`. */
const PLATFORM_ERROR = 'slack_webapi_platform_error';
/** @slack/web-api's `ErrorCode.RequestError`: the request got no answer (the network, a timeout). */
const REQUEST_ERROR = 'slack_webapi_request_error';

/** The `error` of a Slack refusal (`ok: false`), or null for anything else (network, timeouts, a bug of ours). */
export function slackErrorCode(err: unknown): string | null {
  const e = err as { code?: unknown; data?: { error?: unknown } } | null;
  return e?.code === PLATFORM_ERROR && typeof e.data?.error === 'string' ? e.data.error : null;
}

/** Whether a Web API call never got an answer from Slack (as opposed to a refusal). */
export function neverAnswered(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === REQUEST_ERROR;
}

/** Slack's answers that mean the token itself is no good: another token, or an operator, must take over. */
const TOKEN_REFUSALS: ReadonlySet<string> = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
]);

/** Whether a refusal's code (from `slackErrorCode`) says the token itself is refused. */
export function refusesToken(code: string | null): boolean {
  return code !== null && TOKEN_REFUSALS.has(code);
}
