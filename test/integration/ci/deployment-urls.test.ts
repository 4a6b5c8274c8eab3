import { describe, expect, it } from 'vitest';
import { createTransport, type Transport } from '../../../src/gitlab/http.js';
import { useCiBot } from './harness.js';

// An environment's external_url is the server's word for where the environment lives: a link only when it names
// the configured host, escaped text inside code formatting otherwise (so neither the bot nor Slack links it).
// The demo's staging environment is moved onto the server's own host here; production stays on its own host.

const STAGING = 'https://staging.web.demo.example';
const PRODUCTION = 'https://web.demo.example';
const LOOKALIKE = 'https://web.demo.example/<!channel>|`x`';

/** The server's answers with staging's URL on the server's host and production's made hostile-looking. */
function movedEnvironments(inner: Transport, simUrl: string): Transport {
  const rewrite = (v: unknown): unknown => {
    if (v === STAGING) return `${simUrl}/environments/staging`;
    if (v === PRODUCTION) return LOOKALIKE;
    if (Array.isArray(v)) return v.map(rewrite);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rewrite(x)]));
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
  transport: (baseUrl) => movedEnvironments(createTransport({ baseUrl, sleep: async () => {} }), baseUrl),
});

describe("an environment's external URL", () => {
  it('is a link on the configured host and escaped code text on any other, in the list and on the card', async () => {
    const onHost = `${h.sim.url}/environments/staging`;
    const list = await h.ask('alice', 'deployments demo/web', /Deployments in demo\/web/);
    expect(list.text).toContain(`staging · <${onHost}|${onHost}> · `);
    expect(list.text).toContain("production · `https://web.demo.example/&lt;!channel&gt;|'x'` · ");
    expect(list.text).not.toContain('<https://web.demo.example');

    const staging = await h.ask('alice', 'deployment demo/web 1', /Deployment 1 /);
    expect(staging.text).toContain(`*Environment*\nstaging · <${onHost}|${onHost}>`);
    const production = await h.ask('alice', 'deployment demo/web 2', /Deployment 2 /);
    expect(production.text).toContain("*Environment*\nproduction · `https://web.demo.example/&lt;!channel&gt;|'x'`");
    expect(JSON.stringify(production.message)).not.toContain('<https://web.demo.example');
  });
});
