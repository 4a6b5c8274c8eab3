import type { Metrics, SlackCallOutcome } from './metrics.js';

// Slack's Web API client takes a `fetch` of our choosing (its documented `fetch` option): this one counts every
// call it makes (each retry too) by method and outcome. Slack answers 200 with `"ok": false` for a refused call,
// so the outcome of a 200 is read from the body as the client reads it, with no second parse.

/** The part of WHATWG fetch's Response the Web API client reads. */
interface FetchAnswer {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null; entries(): Iterable<[string, string]> };
  arrayBuffer(): Promise<ArrayBuffer>;
  json(): Promise<unknown>;
  text(): Promise<string>;
}

type FetchLike<I> = (url: string | URL, init?: I) => Promise<FetchAnswer>;

/** Slack's method names are dotted words (`chat.postMessage`); anything else (an upload URL) is one bounded label. */
const METHOD = /^[a-zA-Z]+(\.[a-zA-Z]+)+$/;

export function methodOf(url: string, apiUrl: string): string {
  if (!url.startsWith(apiUrl)) return 'other';
  const name = url.slice(apiUrl.length).split('?')[0] ?? '';
  return METHOD.test(name) ? name : 'other';
}

/** Slack puts `ok` first; the first `"ok":` of the body is the answer's own. */
function outcomeOfBody(text: string): SlackCallOutcome {
  const m = /"ok"\s*:\s*(true|false)/.exec(text);
  return m?.[1] === 'true' ? 'ok' : 'error';
}

export function createMeteredFetch<I>(
  metrics: Metrics,
  apiUrl: string,
  base: FetchLike<I> = globalThis.fetch as unknown as FetchLike<I>,
): FetchLike<I> {
  return async (url, init) => {
    const method = methodOf(String(url), apiUrl);
    let answer: FetchAnswer;
    try {
      answer = await base(url, init);
    } catch (err) {
      metrics.slackCall(method, 'unreachable');
      throw err;
    }
    if (answer.status !== 200) {
      metrics.slackCall(method, answer.status === 429 ? 'rate_limited' : 'http_error');
      return answer;
    }
    return {
      ok: answer.ok,
      status: answer.status,
      statusText: answer.statusText,
      url: answer.url,
      headers: answer.headers,
      arrayBuffer: () => {
        metrics.slackCall(method, 'ok');
        return answer.arrayBuffer();
      },
      json: async () => {
        const body = (await answer.json()) as { ok?: unknown } | null;
        metrics.slackCall(method, body?.ok === true ? 'ok' : 'error');
        return body;
      },
      text: async () => {
        const text = await answer.text();
        metrics.slackCall(method, outcomeOfBody(text));
        return text;
      },
    };
  };
}
