import { type AwardEmojiApi, createAwardEmojiApi } from './award-emoji.js';
import { createDeploymentsApi, type DeploymentsApi } from './deployments.js';
import { createEventsApi, type EventsApi } from './events.js';
import type { Transport } from './http.js';
import { createIssuesApi, type IssuesApi } from './issues.js';
import { createJobsApi, type JobsApi } from './jobs.js';
import { createKeysApi, type KeysApi } from './keys.js';
import { createMergeRequestsApi, type MergeRequestsApi } from './merge-requests.js';
import { createPipelinesApi, type PipelinesApi } from './pipelines.js';
import { createProjectsApi, type ProjectsApi } from './projects.js';
import { createSchedulesApi, type SchedulesApi } from './schedules.js';
import { createTodosApi, type TodosApi } from './todos.js';
import { createUsersApi, type UsersApi } from './users.js';

/** Every endpoint of the Delivery Service, acting as the owner of one token. */
export interface GitlabClient {
  jobs: JobsApi;
  pipelines: PipelinesApi;
  schedules: SchedulesApi;
  deployments: DeploymentsApi;
  issues: IssuesApi;
  mergeRequests: MergeRequestsApi;
  awardEmoji: AwardEmojiApi;
  todos: TodosApi;
  events: EventsApi;
  keys: KeysApi;
  projects: ProjectsApi;
  users: UsersApi;
}

/** Cheap: one transport (one got instance, shared sockets) serves any number of per-user clients. */
export function createGitlabClient(transport: Transport, token: string): GitlabClient {
  return {
    jobs: createJobsApi(transport, token),
    pipelines: createPipelinesApi(transport, token),
    schedules: createSchedulesApi(transport, token),
    deployments: createDeploymentsApi(transport, token),
    issues: createIssuesApi(transport, token),
    mergeRequests: createMergeRequestsApi(transport, token),
    awardEmoji: createAwardEmojiApi(transport, token),
    todos: createTodosApi(transport, token),
    events: createEventsApi(transport, token),
    keys: createKeysApi(transport, token),
    projects: createProjectsApi(transport, token),
    users: createUsersApi(transport, token),
  };
}
export type { Changed } from './call.js';
