import type { GitlabClient } from '../gitlab/client.js';
import { type Project, projectOf } from '../gitlab/project.js';
import type { Issue, Job, MergeRequest, Pipeline, PipelineSchedule } from '../gitlab/schemas.js';
import type { UnfurlStore } from '../store/unfurl-store.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';

// What a link preview reads, as the person who posted the link: the project (is it public?) and the issue, merge
// request, job, pipeline or schedule, side by side. And the person's consent to previews of their non-public
// links in a channel.

export type LinkKind = 'issue' | 'merge_request' | 'job' | 'pipeline' | 'schedule';

interface Read<K extends LinkKind, T> {
  kind: K;
  item: T;
}

/** What a link points to, as the server answered. */
export type LinkItem =
  | Read<'issue', Issue>
  | Read<'merge_request', MergeRequest>
  | Read<'job', Job>
  | Read<'pipeline', Pipeline>
  | Read<'schedule', PipelineSchedule>;

/** A link as posted, what it points to, and whether its project is public. */
export type LinkPreview = LinkItem & {
  url: string;
  project: Project;
  /** Only a public project's resources are shown to a channel without asking. */
  isPublic: boolean;
};

/** A link as posted, and what it points to. */
export interface LinkTarget {
  url: string;
  kind: LinkKind;
  project: Project;
  /** The iid of an issue or merge request, the id of a job, pipeline or schedule. */
  id: number;
}

function readItem(c: GitlabClient, t: LinkTarget): Promise<LinkItem> {
  const key = t.project.key;
  switch (t.kind) {
    case 'issue':
      return c.issues.get(key, t.id).then((item) => ({ kind: 'issue', item }));
    case 'merge_request':
      return c.mergeRequests.get(key, t.id).then((item) => ({ kind: 'merge_request', item }));
    case 'job':
      return c.jobs.get(key, t.id).then((item) => ({ kind: 'job', item }));
    case 'pipeline':
      return c.pipelines.get(key, t.id).then((item) => ({ kind: 'pipeline', item }));
    case 'schedule':
      return c.schedules.get(key, t.id).then((item) => ({ kind: 'schedule', item }));
  }
}

export function createLinkOperations(deps: { access: GitlabAccess; unfurls: UnfurlStore }) {
  return {
    /** The project and the resource a link points to, read with the acting person's token. */
    preview(ctx: RequestContext, t: LinkTarget): Promise<LinkPreview> {
      return deps.access.withClient(ctx, async (c) => {
        const [project, read] = await Promise.all([c.projects.get(t.project.key), readItem(c, t)]);
        return {
          ...read,
          url: t.url,
          project: projectOf(project.path_with_namespace, project.path_with_namespace),
          isPublic: project.visibility === 'public',
        };
      });
    },
    allows: (ctx: RequestContext, channelId: string) =>
      deps.unfurls.allows(ctx.actor.teamId, ctx.actor.userId, channelId),
    allow: (ctx: RequestContext, channelId: string) =>
      deps.unfurls.allow(ctx.actor.teamId, ctx.actor.userId, channelId),
    revoke: (ctx: RequestContext, channelId: string) =>
      deps.unfurls.revoke(ctx.actor.teamId, ctx.actor.userId, channelId),
  };
}

export type LinkOperations = ReturnType<typeof createLinkOperations>;

/** The target of a link the grammar read, when it is one this bot previews. */
export function linkTargetOf(
  url: string,
  resource: { kind: string; project: { kind: 'path'; path: string } | { kind: 'id'; id: number }; id?: number },
): LinkTarget | null {
  const kinds: readonly string[] = ['issue', 'merge_request', 'job', 'pipeline', 'schedule'];
  if (!kinds.includes(resource.kind) || resource.id === undefined) return null;
  const key = resource.project.kind === 'path' ? resource.project.path : resource.project.id;
  return { url, kind: resource.kind as LinkKind, project: projectOf(key), id: resource.id };
}
