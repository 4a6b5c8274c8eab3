import { describe, expect, it } from 'vitest';
import { JobButtons } from '../../../src/buttons/ci.js';
import { projectOf } from '../../../src/gitlab/project.js';
import { encodeButtonValue } from '../../../src/ids.js';
import { jobButtonValues } from '../../../src/views/jobs.js';

// A list's job buttons carry values made from text prepared once per list: they must be the very text
// `encodeButtonValue` writes for the same value, whatever the project, the list's command text and the job id.

const keys: (string | number)[] = ['demo/web', 'a/b c', 'grp/"quoted"\\slash', 'ünï/😀', '\u2028/\ud800', 42, 0];
const queries = ['jobs demo/web', 'jobs x --scope "a"\n\t', `jobs ${'y'.repeat(1190)}`, '\u0001<&>|`', '😀\udc00'];
const ids = [1, 7, 2 ** 53 - 1, 0, -3, 1.5, Number.NaN, 1e21];

describe('jobButtonValues', () => {
  it('writes exactly what encodeButtonValue writes, with and without the list place', () => {
    let compared = 0;
    for (const key of keys) {
      const project = typeof key === 'number' ? projectOf(key, null) : projectOf(key);
      for (const place of [null, ...queries.flatMap((query) => [1, 3, 10_000].map((page) => ({ query, page })))]) {
        const values = jobButtonValues(project, place);
        const p = project.path ?? project.key;
        for (const j of ids) {
          const withPlace = place ? { p, j, q: place.query, n: place.page } : { p, j };
          expect(values.withPlace(j)).toBe(encodeButtonValue(JobButtons.retry, withPlace));
          expect(values.bare(j)).toBe(encodeButtonValue(JobButtons.show, { p, j }));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('refuses a value longer than Slack takes, as encodeButtonValue does', () => {
    const values = jobButtonValues(projectOf('demo/web'), { query: 'q'.repeat(1990), page: 1 });
    expect(() => values.withPlace(8)).toThrow(/Slack allows 2000/);
  });
});
