import { expect, it } from 'vitest';
import { useCiBot } from '../ci/harness.js';

// Issue 47: rows of a project that could not be read asked the server about it again for every row.

const h = useCiBot();

it('asks about a project once per answer, even when it cannot be read, and names its rows by id', async () => {
  h.sim.setFaults({ errorRate: 1, errorStatus: 404, only: '^GET /api/v4/projects/1$' });
  const seen = await h.ask('alice', 'events --user bob --per-page 5', /Events of @bob/);
  h.sim.setFaults({});
  const reads = h.calls().filter((c) => c.path === '/api/v4/projects/1');
  expect(reads).toHaveLength(1);
  expect(seen.text).toContain('pushed new branch feature/i18n-de in project 1');
});
