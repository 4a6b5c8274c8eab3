import type { Page } from '../gitlab/paginate.js';
import type { Deployment } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import type { ProjectKey } from './jobs.js';
import { projectLabel } from './projects.js';
import { about, projectSubject, readNeeding } from './subject.js';

export function createDeploymentOperations(o: { access: GitlabAccess }) {
  return {
    list(
      ctx: RequestContext,
      project: ProjectKey,
      options: { page?: number; per_page?: number },
    ): Promise<Page<Deployment>> {
      return readNeeding(
        'Reporter',
        `the deployments of ${projectLabel(project)}`,
        about(
          projectSubject(project),
          o.access.withClient(ctx.actor, (c) => c.deployments.list(project, options)),
        ),
      );
    },
    get(ctx: RequestContext, project: ProjectKey, id: number): Promise<Deployment> {
      return readNeeding(
        'Reporter',
        `deployment ${id} in ${projectLabel(project)}`,
        about(
          `Deployment ${id} in ${projectLabel(project)}`,
          o.access.withClient(ctx.actor, (c) => c.deployments.get(project, id)),
        ),
      );
    },
  };
}

export type DeploymentOperations = ReturnType<typeof createDeploymentOperations>;
