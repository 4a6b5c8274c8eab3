import { describe, expect, it } from 'vitest';
import { PEOPLE } from '../../support/start-app.js';
import { useCiBot } from '../ci/harness.js';

// GITLAB_PUBLIC_URL through the whole app: the bot reaches the simulator at its own address, people open
// another; every link drawn points at the public one, and links of either address are read.

const PUBLIC = 'https://git.example.org';
const h = useCiBot({ publicUrl: PUBLIC });

const linksOf = (x: unknown) => JSON.stringify(x).match(/https?:\/\/[^|>"\s\\]+/g) ?? [];

describe('GITLAB_PUBLIC_URL', () => {
  it('draws a card’s links on the public host', async () => {
    const seen = await h.ask('alice', 'issue demo/web#4', /Cart total is off by one cent/);
    const links = linksOf(seen.message);
    expect(links).toContain(`${PUBLIC}/demo/web/issues/4`);
    expect(links.filter((l) => !l.startsWith(`${PUBLIC}/`))).toEqual([]);
  });

  it('reads a pasted link of the public host, and one of the address the bot uses', async () => {
    await h.ask('alice', `issue ${PUBLIC}/demo/web/-/issues/4`, /Cart total is off by one cent/);
    await h.ask('alice', `issue ${h.sim.url}/demo/web/-/issues/4`, /Cart total is off by one cent/);
  });

  it('unfurls a link of the public host', async () => {
    const link = `${PUBLIC}/demo/web/-/issues/4`;
    const { it: shared } = await h.bot.slack.shareLinks(PEOPLE.alice, 'C0TEST', [link]);
    const unfurl = await shared.waitFor((x) => x.method === 'chat.unfurl');
    expect(Object.keys((unfurl?.body.unfurls as object) ?? {})).toEqual([link]);
    expect(JSON.stringify(unfurl?.body)).toMatch(/Cart total is off by one cent/);
  });
});
