import { createCaller } from './call.js';
import type { Transport } from './http.js';
import type { Page, PageOptions } from './paginate.js';
import { encodeProject, encodeSegment, type ProjectRef } from './paths.js';
import { type Deployment, DeploymentSchema } from './schemas.js';

export interface DeploymentListOptions extends PageOptions {
  order_by?: 'id' | 'iid' | 'created_at' | 'ref';
  sort?: 'asc' | 'desc';
}

export interface DeploymentsApi {
  list(project: ProjectRef, options?: DeploymentListOptions): Promise<Page<Deployment>>;
  get(project: ProjectRef, deploymentId: number): Promise<Deployment>;
}

export function createDeploymentsApi(transport: Transport, token: string): DeploymentsApi {
  const call = createCaller(transport, token);
  const base = (project: ProjectRef) => `projects/${encodeProject(project)}/deployments`;

  return {
    list: (project, options = {}) => call.list(base(project), DeploymentSchema, { ...options }),
    get: (project, deploymentId) => call.get(`${base(project)}/${encodeSegment(deploymentId)}`, DeploymentSchema),
  };
}
