import { describe, expect, it } from 'vitest';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';
import { useCiBot } from '../ci/harness.js';

// Defect 13 of issue 17 (the DATABASE_PATH part is in start-up.test.ts). On 1388a11 a list's fallback text
// counted what the server sent rather than the rows shown, and the connect modal said "could not reach …
// in time" when the server had answered 500.

const h = useCiBot();

describe('a list longer than a message', () => {
  it('says in its fallback text how many rows it shows, the same number as its footer and its rows', async () => {
    // demo/web has 35 jobs: three more pipelines, and a server that ignores per_page, make a page longer than
    // a message holds.
    for (let i = 0; i < 3; i++) {
      const made = await h.api('root', 'projects/demo%2Fweb/pipeline', { method: 'POST', form: { ref: 'main' } });
      expect(made.status).toBe(201);
    }
    h.sim.setFaults({ pageSize: 1000 });
    const seen = await h.ask('alice', 'jobs demo/web --per-page 100', /Jobs in demo\/web/);
    h.sim.setFaults({});
    const rows = (seen.message.blocks as { type: string; accessory?: unknown }[]).filter(
      (b) => b.type === 'section' && b.accessory,
    ).length;
    expect(rows).toBe(40);
    expect(seen.message.text).toBe('Jobs in demo/web: 40 shown');
    expect(seen.text).toMatch(/Page 1 · \d+ in all · 40 shown/);
    expect(JSON.stringify(seen.message)).not.toMatch(/\b4[1-9] shown|\b[5-9]\d shown/);
  });
});

describe('the connect form when the server answers 500', () => {
  it('says the server answered 500, not that it could not be reached, and stores nothing', async () => {
    h.sim.setFaults({ errorRate: 1, errorStatus: 500 });
    const { submission } = await h.bot.connect(PEOPLE.carol, TOKENS.alice);
    h.sim.setFaults({});
    const errors = (submission.ack.json as { errors?: Record<string, string> }).errors ?? {};
    expect(Object.values(errors)).toEqual([
      'The server answered 500 (an error on its side) while checking the token; try again later. Nothing was stored.',
    ]);
    expect(await h.bot.tokens.find('T0TEST', PEOPLE.carol.id)).toBeNull();
  });
});
