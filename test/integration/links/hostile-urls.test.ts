import { describe, expect, it } from 'vitest';
import { createTransport, type Transport } from '../../../src/gitlab/http.js';
import { PEOPLE } from '../../support/start-app.js';
import { useCiBot } from '../ci/harness.js';

// A hostile (or misconfigured) server through the whole app: every address it sends — web_url of issues, merge
// requests, jobs, pipelines, milestones, users (award rows, event authors, key owners), todo target_url, avatar
// urls — names another host (and environments' external URLs, on deployment lists and cards, name their own).
// No link in anything sent to Slack may point there: links are drawn on the
// configured hosts (GITLAB_PUBLIC_URL here, GITLAB_URL otherwise) from the resource's path.

const PUBLIC = 'https://git.example.org';
const HOSTILE = 'https://evil.example';

/** The server's answers with its own address replaced by the hostile one, wherever it appears. */
function hostile(inner: Transport, simUrl: string): Transport {
  const rewrite = (v: unknown): unknown => {
    if (typeof v === 'string') return v.split(simUrl).join(HOSTILE);
    if (Array.isArray(v)) return v.map(rewrite);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [k, k === 'avatar_url' ? `${HOSTILE}/avatar.png` : rewrite(x)]),
      );
    }
    return v;
  };
  return {
    async request(options) {
      const res = await inner.request(options);
      return options.responseType === undefined || options.responseType === 'json'
        ? { ...res, body: rewrite(res.body) as never }
        : res;
    },
    get lastRateLimit() {
      return inner.lastRateLimit;
    },
    close: () => inner.close(),
  };
}

const h = useCiBot({
  publicUrl: PUBLIC,
  transport: (baseUrl) => hostile(createTransport({ baseUrl, sleep: async () => {} }), baseUrl),
});

/** Every link target in a payload: `<url|label>` in texts and `url` of buttons, with its label when it has one. */
function linksOf(x: unknown): { url: string; label: string | null }[] {
  const json = JSON.stringify(x);
  const inText = [...json.matchAll(/<(https?:\/\/[^|>]+)(?:\|([^>]*))?>/g)].map((m) => ({
    url: m[1] as string,
    label: m[2] ?? null,
  }));
  const buttons = [...json.matchAll(/"url":"(https?:\/\/[^"]+)"/g)].map((m) => ({ url: m[1] as string, label: null }));
  return [...inText, ...buttons];
}

describe('a server whose web addresses name another host', () => {
  const asks: [string, RegExp][] = [
    ['issues demo/web', /Issues in demo\/web/],
    ['issues --scope all', /Issues/],
    ['issue demo/web#4', /Cart total is off/],
    ['mrs demo/web', /Merge requests in demo\/web/],
    ['mr demo/web!2', /Add search suggestions/],
    ['mr commits demo/web!2', /Commits of/],
    ['mr closes demo/web!3', /demo\/web!3/],
    ['pipelines demo/web', /Pipelines in demo\/web/],
    ['pipeline demo/web 1', /Pipeline #1/],
    ['jobs demo/web', /Jobs in demo\/web/],
    ['job demo/web 8', /Job #8/],
    ['schedules demo/web', /Schedules in demo\/web|schedules/i],
    ['schedule demo/web 1', /Schedule #1/],
    ['deployments demo/web', /Deployments in demo\/web/],
    ['deployment demo/web 1', /Deployment 1/],
    ['todos', /todos/i],
    ['events demo/web', /Events in demo\/web/],
    ['events --user bob', /Events/],
    ['events', /Your events/],
    ['awards demo/web#4', /Award emoji on demo\/web#4/],
    ['award show demo/web#4 1', /Award 1/],
  ];

  it('draws no link to it in any card, list or row', async () => {
    for (const [text, until] of asks) await h.ask('alice', text, until);
    await h.ask('root', 'key 1', /SSH key 1/);
    const { it: shared } = await h.bot.slack.shareLinks(PEOPLE.alice, 'C0TEST', [
      `${PUBLIC}/demo/web/-/issues/4`,
      `${PUBLIC}/demo/web/merge_requests/2`,
      `${PUBLIC}/demo/web/pipelines/1`,
    ]);
    await shared.waitFor((x) => x.method === 'chat.unfurl');

    const sent = h.bot.fake.records.map((r) => r.body);
    const links = linksOf(sent);
    expect(links.length).toBeGreaterThan(50);
    expect(JSON.stringify(sent)).not.toContain('evil.example');
    const allowed = new Set([new URL(PUBLIC).host, new URL(h.sim.url).host]);
    // Not even a link labelled with its own address: an environment's external URL on another host is text.
    const elsewhere = links.filter((l) => !allowed.has(new URL(l.url).host));
    expect(elsewhere).toEqual([]);
    expect(JSON.stringify(sent)).toContain('production · `https://web.demo.example`');
  });
});
