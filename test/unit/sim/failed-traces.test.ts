import { describe, expect, it } from 'vitest';
import { explainFailure } from '../../../src/failure/excerpt.js';
import { finishedTrace } from '../../../src/sim/ci/trace.js';
import type { JobRecord } from '../../../src/sim/model.js';

// The simulator's failed jobs fail the way their kind does, so the demo shows why each failed; a job that passed
// says nothing of a failure.

const job = (name: string, status: JobRecord['status']): JobRecord => ({
  id: 41,
  project_id: 1,
  pipeline_id: 7,
  name,
  stage: 'test',
  stage_idx: 1,
  status,
  ref: 'main',
  tag: false,
  sha: '4f2a9c1e0b1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f',
  coverage: null,
  created_at: '2026-03-02T10:00:00Z',
  started_at: '2026-03-02T10:00:05Z',
  finished_at: '2026-03-02T10:03:05Z',
  erased_at: null,
  user_id: 1,
  runner_id: 1,
  manual: false,
  allow_failure: false,
  outcome: status === 'failed' ? 'failed' : 'success',
  makes_artifacts: false,
  artifacts: null,
  artifacts_kept: false,
  trace: null,
  retried: false,
});

const traceOf = (name: string, status: JobRecord['status']) =>
  finishedTrace({
    job: job(name, status),
    projectPath: 'demo/web',
    projectId: 1,
    commit: undefined,
    runner: undefined,
  });

describe("the simulator's failed traces", () => {
  it.each([
    ['compile', 'tsc', "TS2322: Type 'string' is not assignable to type 'number'."],
    ['build:docker', 'tsc', 'Found 2 errors in 2 files.'],
    ['lint', 'eslint', "'roundLine' is assigned a value but never used"],
    ['unit-tests', 'vitest', 'AssertionError: expected 59.96 to be 59.97 // Object.is equality'],
    ['deploy:staging', 'shell', 'Health check of https://staging.web.demo.example/healthz failed after 5 attempts'],
    ['package-audit', 'shell', 'package-audit: 1 check failed'],
  ])('a failed %s job fails as its kind does (%s)', (name, rule, line) => {
    const trace = traceOf(name, 'failed');
    expect(trace).toMatch(/ERROR: Job failed: exit code 1/);
    const excerpt = explainFailure(trace);
    expect(excerpt?.rule.id).toBe(rule);
    expect(excerpt?.lines.some((l) => l.includes(line))).toBe(true);
  });

  it.each(['compile', 'lint', 'unit-tests', 'deploy:production', 'package-audit'])(
    'a %s job that passed shows no error',
    (name) => {
      const trace = traceOf(name, 'success');
      expect(trace).toMatch(/Job succeeded/);
      expect(trace).not.toMatch(/error TS|✖ \d+ problems|Failed Tests|failed after|check failed/);
    },
  );
});
