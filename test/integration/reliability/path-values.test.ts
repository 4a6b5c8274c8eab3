import { describe, expect, it } from 'vitest';
import { buttonOf, useCiBot } from '../ci/harness.js';

// Defect 11 of issue 17: project paths are checked wherever they are encoded, so `.` and `..` never climb
// out of an API route. On 1388a11 a Retry button carrying p: ".." sent POST /api/v4/jobs/1/retry, and a
// typed `../..` went to the server as a project.

const h = useCiBot();

describe('paths with . or .. segments', () => {
  it.each(['..', '.', 'demo/..', '../..'])(
    'in a button value (p: %j) reach no route: the click is refused and nothing is sent',
    async (p) => {
      const card = await h.ask('alice', 'job demo/web 8 --share', /Job #8 /);
      const from = h.calls().length;
      const forged = { ...buttonOf(card, /^Retry$/), value: JSON.stringify({ p, j: 1 }) };
      const seen = await h.press('alice', forged, /out of date/);
      expect(seen.text).toContain('This button is out of date (the button value does not have the expected shape)');
      expect(h.calls(from)).toEqual([]);
    },
  );

  it('typed as a project are refused with a sentence before anything is sent', async () => {
    const seen = await h.ask('alice', 'job ../.. 8', /not a project path/);
    expect(seen.text).toContain(
      'That is not a project path: none of its parts may be empty, "." or "..". Nothing was sent to the server.',
    );
    expect(seen.message).toMatchObject({ ephemeral: true, visibleTo: 'U0ALICE' });
    expect(h.calls()).toEqual([]);
  });
});
