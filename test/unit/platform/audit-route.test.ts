import { describe, expect, it } from 'vitest';
import { routeOf } from '../../../src/gitlab/route-template.js';

describe('the route template and resource of an audited call', () => {
  it.each([
    ['projects/demo%2Fweb/jobs/8/retry', '/projects/:project/jobs/:job/retry', { project: 'demo/web', job: 8 }],
    ['projects/12/pipeline', '/projects/:project/pipeline', { project: 12 }],
    [
      'projects/a%2Fb/pipeline_schedules/7/take_ownership',
      '/projects/:project/pipeline_schedules/:schedule/take_ownership',
      { project: 'a/b', schedule: 7 },
    ],
    [
      'projects/a%2Fb/merge_requests/3/award_emoji/9',
      '/projects/:project/merge_requests/:merge_request/award_emoji/:award',
      { project: 'a/b', merge_request: 3, award: 9 },
    ],
    ['todos/mark_as_done', '/todos/mark_as_done', {}],
    ['todos/130/mark_as_done', '/todos/:todo/mark_as_done', { todo: 130 }],
  ])('%s', (path, route, resource) => {
    expect(routeOf(path)).toEqual({ route, resource });
  });
});
