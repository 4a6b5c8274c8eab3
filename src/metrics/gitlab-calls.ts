import type { AttemptEnded } from '../gitlab/http.js';
import { routeOf } from '../gitlab/route-template.js';
import { createTtlCache } from '../ttl-cache.js';
import type { Metrics } from './metrics.js';

// The transport's attempts (gitlab/http.ts, onAttempt) as metrics, by route template, never the raw path. A path's
// template is worked out once and kept a while: the same few paths come back on every command and poll.

export function recordGitlabAttempts(
  metrics: Metrics,
  o: { projectLabel: boolean },
): ((attempt: AttemptEnded) => void) | undefined {
  if (!metrics.registry) return undefined;
  const templates = createTtlCache<{ route: string; project: string }>({ ttlMs: 10 * 60_000, maxEntries: 5000 });
  return (a) => {
    const now = Date.now();
    let known = templates.get(a.path, now);
    if (!known) {
      const { route, resource } = routeOf(a.path);
      known = { route, project: String(resource.project ?? '') };
      templates.set(a.path, known, now);
    }
    const project = o.projectLabel ? known.project : undefined;
    metrics.gitlabCall({ method: a.method, route: known.route, status: a.status, seconds: a.ms / 1000, project });
  };
}
