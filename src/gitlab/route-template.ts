// A call's path as a route template and the resource it names: `projects/demo%2Fweb/jobs/8/retry` is the route
// `/projects/:project/jobs/:job/retry` on `{ project: 'demo/web', job: 8 }`. The audit line and the metrics of
// GitLab calls both use it, so neither ever carries a raw path (a project path, a username) where a template does.

/** What a route's path parameters are called in the resource field, by the collection they follow. */
const NAMES: Record<string, string> = {
  projects: 'project',
  groups: 'group',
  jobs: 'job',
  pipelines: 'pipeline',
  pipeline_schedules: 'schedule',
  variables: 'variable',
  deployments: 'deployment',
  environments: 'environment',
  issues: 'issue',
  merge_requests: 'merge_request',
  notes: 'note',
  award_emoji: 'award',
  todos: 'todo',
  users: 'user',
  keys: 'key',
  snippets: 'snippet',
};

/** Collections named by path (a project's `group/app`, a username); the others only by number. */
const BY_NAME = new Set(['projects', 'groups', 'users']);

/**
 * `projects/demo%2Fweb/jobs/8/retry` → route `/projects/:project/jobs/:job/retry`, resource
 * `{ project: 'demo/web', job: 8 }`. A segment is a parameter when it follows a known collection and is a
 * number (or any name, after projects, groups and users).
 */
export function routeOf(path: string): { route: string; resource: Record<string, string | number> } {
  const segments = path.split('?')[0]?.replace(/^\/+/, '').split('/') ?? [];
  const route: string[] = [];
  const resource: Record<string, string | number> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const collection = i > 0 ? (segments[i - 1] as string) : '';
    const name = NAMES[collection];
    const isParameter = /^\d+$/.test(segment) || (BY_NAME.has(collection) && segment !== '' && !NAMES[segment]);
    if (name && isParameter) {
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        value = segment;
      }
      resource[name] = /^\d+$/.test(value) ? Number(value) : value;
      route.push(`:${name}`);
    } else {
      route.push(segment);
    }
  }
  return { route: `/${route.join('/')}`, resource };
}
