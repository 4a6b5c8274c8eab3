import type { Page } from '../gitlab/paginate.js';
import type { Project } from '../gitlab/project.js';
import type { Deployment } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { refusing } from './subject.js';

/** Reads of deployments need the Reporter role: a 403 says so. */
const READ = { 403: 'role:Reporter' } as const;

export function createDeploymentOperations(deps: { access: GitlabAccess }) {
  return {
    list(
      ctx: RequestContext,
      project: Project,
      options: { page?: number; per_page?: number },
    ): Promise<Page<Deployment>> {
      return refusing(
        'list-deployments',
        { kind: 'project', project },
        READ,
        deps.access.withClient(ctx, (c) => c.deployments.list(project.key, options)),
      );
    },
    get(ctx: RequestContext, project: Project, id: number): Promise<Deployment> {
      return refusing(
        'read',
        { kind: 'deployment', project, id },
        READ,
        deps.access.withClient(ctx, (c) => c.deployments.get(project.key, id)),
      );
    },
  };
}

export type DeploymentOperations = ReturnType<typeof createDeploymentOperations>;
