import { createCaller } from './call.js';
import type { Transport } from './http.js';
import type { Page, PageOptions } from './paginate.js';
import { encodeProject, encodeSegment, type ProjectRef } from './paths.js';
import { type Pipeline, type PipelineBasic, PipelineBasicSchema, PipelineSchema } from './schemas.js';

export type PipelineScope = 'running' | 'pending' | 'finished' | 'branches' | 'tags';
export type PipelineStatus = 'running' | 'pending' | 'success' | 'failed' | 'canceled' | 'skipped';
export type SortOrder = 'asc' | 'desc';

export interface PipelineListOptions extends PageOptions {
  scope?: PipelineScope;
  status?: PipelineStatus;
  ref?: string;
  yaml_errors?: boolean;
  name?: string;
  username?: string;
  order_by?: 'id' | 'status' | 'ref' | 'user_id';
  sort?: SortOrder;
}

export interface PipelineCreateOptions {
  ref: string;
}

export interface PipelinesApi {
  list(project: ProjectRef, options?: PipelineListOptions): Promise<Page<PipelineBasic>>;
  get(project: ProjectRef, pipelineId: number): Promise<Pipeline>;
  /** POST /projects/:id/pipeline (singular, as the contract spells it). */
  create(project: ProjectRef, options: PipelineCreateOptions): Promise<Pipeline>;
  retry(project: ProjectRef, pipelineId: number): Promise<Pipeline>;
  cancel(project: ProjectRef, pipelineId: number): Promise<Pipeline>;
}

export function createPipelinesApi(transport: Transport, token: string): PipelinesApi {
  const call = createCaller(transport, token);
  const base = (project: ProjectRef) => `projects/${encodeProject(project)}`;
  const pipeline = (project: ProjectRef, pipelineId: number) =>
    `${base(project)}/pipelines/${encodeSegment(pipelineId)}`;

  return {
    list: (project, options = {}) => call.list(`${base(project)}/pipelines`, PipelineBasicSchema, { ...options }),
    get: (project, pipelineId) => call.get(pipeline(project, pipelineId), PipelineSchema),
    create: (project, options) => call.send('POST', `${base(project)}/pipeline`, PipelineSchema, { ref: options.ref }),
    retry: (project, pipelineId) => call.send('POST', `${pipeline(project, pipelineId)}/retry`, PipelineSchema),
    cancel: (project, pipelineId) => call.send('POST', `${pipeline(project, pipelineId)}/cancel`, PipelineSchema),
  };
}
