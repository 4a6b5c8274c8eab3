import { describe, expect, it } from 'vitest';
import { type JobRun, judgeRuns } from '../../../src/failure/history.js';

let nextId = 100;
/** Runs oldest first, as written; the list the API gives is newest first. */
function history(...runs: [status: string, sha: string, ref?: string, name?: string][]): JobRun[] {
  return runs
    .map(([status, sha, ref = 'main', name = 'unit-tests']) => ({
      id: nextId++,
      name,
      ref,
      status,
      commit: { id: `${sha}${'0'.repeat(40 - sha.length)}`, title: `Commit ${sha}` },
    }))
    .reverse();
}

describe('flaky or broken', () => {
  it('a job that passed and failed on the same commit is flaky', () => {
    const runs = history(['success', 'aaa'], ['failed', 'bbb'], ['success', 'bbb']);
    const failed = runs[1] as JobRun;
    expect(judgeRuns(failed, runs)).toEqual({
      kind: 'flaky',
      failed: 1,
      runs: 3,
      name: 'unit-tests',
      ref: 'main',
      sameCommit: true,
    });
  });

  it('a job that keeps flipping between passing and failing is flaky, counted over the last ten runs', () => {
    const runs = history(
      ['failed', 'c0'],
      ['failed', 'c1'],
      ['success', 'c2'],
      ['failed', 'c3'],
      ['success', 'c4'],
      ['success', 'c5'],
      ['failed', 'c6'],
      ['success', 'c7'],
      ['success', 'c8'],
      ['success', 'c9'],
      ['success', 'ca'],
      ['failed', 'cb'],
    );
    const verdict = judgeRuns(runs[0] as JobRun, runs);
    expect(verdict).toMatchObject({ kind: 'flaky', failed: 3, runs: 10, sameCommit: false });
  });

  it('a job that failed every run since a commit names that commit', () => {
    const runs = history(['success', 'aaa'], ['success', 'bbb'], ['failed', '4f2a9c1e'], ['failed', 'ddd']);
    const verdict = judgeRuns(runs[0] as JobRun, runs);
    expect(verdict).toEqual({
      kind: 'broken',
      since: { sha: `4f2a9c1e${'0'.repeat(32)}`, title: 'Commit 4f2a9c1e' },
      failedRuns: 2,
      name: 'unit-tests',
      ref: 'main',
    });
  });

  it('a first failure right after a pass names its own commit', () => {
    const runs = history(['success', 'aaa'], ['failed', 'bbb']);
    expect(judgeRuns(runs[0] as JobRun, runs)).toMatchObject({ kind: 'broken', failedRuns: 1 });
  });

  it('other jobs, other refs and unfinished runs do not count', () => {
    const runs = history(
      ['success', 'aaa', 'feature'],
      ['success', 'bbb', 'main', 'lint'],
      ['running', 'ccc'],
      ['canceled', 'ccc'],
      ['failed', 'ccc'],
    );
    expect(judgeRuns(runs[0] as JobRun, runs)).toBeNull();
  });

  it('failing in every run read says nothing about since when', () => {
    const runs = history(['failed', 'a'], ['failed', 'b'], ['failed', 'c']);
    expect(judgeRuns(runs[0] as JobRun, runs)).toBeNull();
  });

  it('the job itself counts even when the list read has not got it yet', () => {
    const earlier = history(['success', 'aaa']);
    const job: JobRun = {
      id: 10_000,
      name: 'unit-tests',
      ref: 'main',
      status: 'failed',
      commit: { id: earlier[0]?.commit?.id ?? '' },
    };
    expect(judgeRuns(job, earlier)).toMatchObject({ kind: 'flaky', sameCommit: true, failed: 1, runs: 2 });
  });

  it('a break and its fix are not flaky', () => {
    const runs = history(['success', 'a'], ['failed', 'b'], ['failed', 'c'], ['success', 'd'], ['failed', 'e']);
    expect(judgeRuns(runs[0] as JobRun, runs)).toMatchObject({ kind: 'flaky' });
    const fixed = history(['success', 'a'], ['failed', 'b'], ['success', 'c']);
    expect(judgeRuns(fixed[1] as JobRun, fixed)).toBeNull();
  });
});
