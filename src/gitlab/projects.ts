import { createCaller } from './call.js';
import type { Transport } from './http.js';
import { encodeProject, type ProjectRef } from './paths.js';
import { type Project, ProjectSchema } from './schemas.js';

export interface ProjectsApi {
  /** GET /projects/:id: checks a project exists for this user and resolves a path to its numeric id. */
  get(idOrPath: ProjectRef): Promise<Project>;
}

export function createProjectsApi(transport: Transport, token: string): ProjectsApi {
  const call = createCaller(transport, token);
  return { get: (idOrPath) => call.get(`projects/${encodeProject(idOrPath)}`, ProjectSchema) };
}
