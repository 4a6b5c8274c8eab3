import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { call, useCiBot } from '../ci/harness.js';
import { MR } from './support.js';

// What a merge request is made of: changes (a large diff goes as a `.diff` file, never a message over
// Slack's limits), commits, diff versions, one version, and the issues it closes.

const h = useCiBot();

const FILES = Array.from({ length: 2500 }, (_, i) => `src/generated/module-${String(i).padStart(4, '0')}.ts`);

describe('mr changes', () => {
  it('lists the changed files with additions and deletions, the small diff inline', async () => {
    const seen = await h.ask('alice', 'mr diff demo/web!3', /Changes of demo\/web!3/);
    expect(h.calls()).toEqual([call('GET', `${MR(3)}/changes`, 'alice')]);
    expect(seen.text).toContain('*Changes of demo/web!3* · 2 files, +4 −1');
    expect(seen.text).toContain(
      'Fix currency rounding in cart totals · `fix/currency-rounding` → `main` at `3e47ce32`',
    );
    expect(seen.text).toContain('`src/cart/totals.ts` · +1 −1');
    expect(seen.text).toContain('```\ndiff --git a/src/cart/totals.ts b/src/cart/totals.ts\n--- a/src/cart/totals.ts');
    expect(h.bot.fake.calls('files.completeUploadExternal')).toHaveLength(0);
  });

  it('keeps a very large change inside Slack’s limits and uploads the whole diff as a .diff file', async () => {
    h.sim.push({ project: 'demo/web', branch: 'feature/order-history', username: 'alice', files: FILES, lines: 4 });
    const seen = await h.ask('bob', 'mr changes demo/web!7', /Changes of demo\/web!7/);
    expect(h.calls()).toEqual([call('GET', `${MR(7)}/changes`, 'bob')]);
    expect(seen.text).toContain('*Changes of demo/web!7* · 2502 files, +10006 −1');
    expect(seen.text).toMatch(
      /…and \d+ more files · <[^|]+\/demo\/web\/merge_requests\/7\/diffs\|see them all in GitLab>\./,
    );
    expect(seen.text).toContain('The whole diff (');
    expect(seen.text).toContain('is uploaded as `demo-web-mr-7.diff` in a direct message.');
    expect((seen.message.blocks ?? []).length).toBeLessThanOrEqual(50);
    expect(seen.message.ephemeral).toBe(true);
    const upload = h.bot.fake.calls('files.completeUploadExternal').at(-1);
    expect(upload?.body.channel_id).toBe('D0BOB');
    const file = [...h.bot.fake.files.values()].find((f) => f.filename === 'demo-web-mr-7.diff');
    expect(file?.title).toBe('Changes of demo/web!7');
    for (const path of [FILES[0], FILES[2499], 'src/routes.tsx']) {
      expect(file?.content).toContain(`diff --git a/${path} b/${path}`);
    }
    expect((file?.content ?? '').split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'))).toHaveLength(
      10006,
    );
    expectWithinLimits(seen.it);
  });

  it('uploads into the channel with --share', async () => {
    h.sim.push({ project: 'demo/web', branch: 'feature/order-history', username: 'alice', files: FILES, lines: 5 });
    const seen = await h.ask('alice', 'mr changes demo/web!7 --share', /Changes of demo\/web!7/);
    expect(seen.message.ephemeral).toBe(false);
    expect(seen.text).toContain('is uploaded as `demo-web-mr-7.diff` in this channel.');
    expect(h.bot.fake.calls('files.completeUploadExternal').at(-1)?.body.channel_id).toBe('C0TEST');
  });
});

describe('mr commits, versions, version and closes', () => {
  it('lists the commits, newest first, each linked', async () => {
    const seen = await h.ask('alice', 'mr commits demo/web!2', /Commits of demo\/web!2/);
    expect(h.calls()).toEqual([call('GET', `${MR(2)}/commits`, 'alice', { query: { per_page: '100' } })]);
    expect(seen.text).toContain('*Commits of demo/web!2* · 2 commits, newest first');
    expect(seen.text).toMatch(
      /<[^|]+\/demo\/web\/commit\/7d9ad57d[0-9a-f]{32}\|`7d9ad57d`> Show suggestions dropdown under the search box — Bob Brown, 2 Mar 2026, 09:30 · 2 hours ago\n<[^|]+\|`5ad75957`> Add search suggestions API client — Bob Brown, 2 Mar 2026, 05:00 · 6 hours ago/,
    );
  });

  it('lists the diff versions and shows one with its commits and diff', async () => {
    const versions = await h.ask('alice', 'mr versions demo/web!2', /Diff versions of demo\/web!2/);
    const one = await h.ask('alice', 'mr version demo/web!2 3', /Version #3 of demo\/web!2/);
    expect(h.calls()).toEqual([
      call('GET', `${MR(2)}/versions`, 'alice', { query: { per_page: '100' } }),
      call('GET', `${MR(2)}/versions/3`, 'alice'),
    ]);
    expect(versions.text).toContain(
      '*#4* · head `7d9ad57d` on base `25ef7aa1` · collected · 2 files · 2 Mar 2026, 09:30 · 2 hours ago',
    );
    expect(versions.text).toContain(
      '*#3* · head `5ad75957` on base `25ef7aa1` · collected · 1 file · 2 Mar 2026, 05:00 · 6 hours ago',
    );
    expect(versions.text).toContain('One version with its commits and diff: `/gl mr version demo/web!2 4`');
    expect(one.text).toContain('*Version #3 of demo/web!2* · 1 file, +4 −0');
    expect(one.text).toContain(
      'head `5ad75957` · base `25ef7aa1` · start `25ef7aa1` · collected · 2 Mar 2026, 05:00 · 6 hours ago',
    );
    expect(one.text).toContain('*1 commit*');
    expect(one.text).toContain('`src/search/suggest.ts` (new) · +4 −0');
  });

  it('uploads a large version as its own .diff, and says which versions exist when one is not', async () => {
    h.sim.push({ project: 'demo/web', branch: 'feature/order-history', username: 'alice', files: FILES, lines: 10 });
    const versions = (await (await h.api('alice', 'projects/demo%2Fweb/merge_requests/7/versions')).json()) as {
      id: number;
    }[];
    const newest = versions[0]?.id as number;
    const from = h.calls().length;
    const seen = await h.ask('alice', `mr version demo/web!7 ${newest}`, /Version #\d+ of demo\/web!7/);
    const missing = await h.ask('alice', 'mr version demo/web!7 999', /not found/);
    expect(h.calls(from)).toEqual([
      call('GET', `${MR(7)}/versions/${newest}`, 'alice'),
      call('GET', `${MR(7)}/versions/999`, 'alice', { status: 404 }),
      // The merge request is there: it is the version that is not (issue 29).
      call('GET', MR(7), 'alice'),
    ]);
    expect(seen.text).toContain(`is uploaded as \`demo-web-mr-7-v${newest}.diff\` in a direct message.`);
    expect(missing.text).toContain(
      'Version 999 of merge request demo/web!7 was not found, or you have no access to it (404).',
    );
  });

  it('lists the issues a merge closes when merged, or says it closes none', async () => {
    const closes = await h.ask('alice', 'mr closes demo/web!3', /closes when merged/);
    const none = await h.ask('alice', 'mr closes-issues demo/web!4', /closes when merged/);
    expect(h.calls()).toEqual([
      call('GET', `${MR(3)}/closes_issues`, 'alice', { query: { per_page: '100' } }),
      call('GET', `${MR(4)}/closes_issues`, 'alice', { query: { per_page: '100' } }),
    ]);
    expect(closes.text).toMatch(/:large_green_circle: open <[^|]+\/demo\/web\/issues\/4\|#4> /);
    expect(none.text).toContain('Merging demo/web!4 closes no issues');
  });
});
