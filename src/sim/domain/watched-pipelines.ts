// Something for a pipeline watch to tell, the same every time: at the first tick a branch of demo/web gets a
// pipeline whose unit tests fail, at the second a commit that fixes them gets one that passes. The runner then
// fails the first at the fifth tick and passes the second at the sixth, so a watch of demo/web posts the failure
// and then redraws it as fixed.

import { createPipeline, pipelineJobs } from '../ci/engine.js';
import type { State } from '../model.js';
import { projectPath } from '../present.js';
import { createCommit } from './commits.js';

export const FLAKY_BRANCH = 'fix/checkout-total';

export function failThenFix(state: State, at: Date): void {
  if (state.ticks !== 1 && state.ticks !== 2) return;
  const web = [...state.projects.values()].find((p) => projectPath(state, p) === 'demo/web');
  const alice = [...state.users.values()].find((u) => u.username === 'alice');
  const main = web?.branches[web.default_branch];
  if (!web || !alice || !main) return;
  if (state.ticks === 1) {
    web.branches[FLAKY_BRANCH] = main;
    const failing = createPipeline(state, web, { ref: FLAKY_BRANCH, sha: main, tag: false, user_id: alice.id }, at);
    for (const job of pipelineJobs(state, failing.id)) if (job.name === 'unit-tests') job.outcome = 'failed';
    return;
  }
  const before = web.branches[FLAKY_BRANCH] ?? main;
  const fix = createCommit(state, {
    message: 'Round the checkout total once, at the end',
    author: alice,
    parents: [before],
    at,
  });
  web.branches[FLAKY_BRANCH] = fix.id;
  createPipeline(state, web, { ref: FLAKY_BRANCH, sha: fix.id, tag: false, user_id: alice.id, before_sha: before }, at);
}
