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

/**
 * Cheap: one transport (one connection pool, shared sockets) serves any number of per-user clients, and a
 * client builds the API of a resource only when it is first used (a command touches one or two of twelve).
 */
export function createGitlabClient(transport: Transport, token: string): GitlabClient {
  return new Client(transport, token);
}

class Client implements GitlabClient {
  #jobs?: JobsApi;
  #pipelines?: PipelinesApi;
  #schedules?: SchedulesApi;
  #deployments?: DeploymentsApi;
  #issues?: IssuesApi;
  #mergeRequests?: MergeRequestsApi;
  #awardEmoji?: AwardEmojiApi;
  #todos?: TodosApi;
  #events?: EventsApi;
  #keys?: KeysApi;
  #projects?: ProjectsApi;
  #users?: UsersApi;

  // Truly private, so that no log line or inspection of a client can show the token.
  readonly #transport: Transport;
  readonly #token: string;

  constructor(transport: Transport, token: string) {
    this.#transport = transport;
    this.#token = token;
  }

  get jobs() {
    this.#jobs ??= createJobsApi(this.#transport, this.#token);
    return this.#jobs;
  }
  get pipelines() {
    this.#pipelines ??= createPipelinesApi(this.#transport, this.#token);
    return this.#pipelines;
  }
  get schedules() {
    this.#schedules ??= createSchedulesApi(this.#transport, this.#token);
    return this.#schedules;
  }
  get deployments() {
    this.#deployments ??= createDeploymentsApi(this.#transport, this.#token);
    return this.#deployments;
  }
  get issues() {
    this.#issues ??= createIssuesApi(this.#transport, this.#token);
    return this.#issues;
  }
  get mergeRequests() {
    this.#mergeRequests ??= createMergeRequestsApi(this.#transport, this.#token);
    return this.#mergeRequests;
  }
  get awardEmoji() {
    this.#awardEmoji ??= createAwardEmojiApi(this.#transport, this.#token);
    return this.#awardEmoji;
  }
  get todos() {
    this.#todos ??= createTodosApi(this.#transport, this.#token);
    return this.#todos;
  }
  get events() {
    this.#events ??= createEventsApi(this.#transport, this.#token);
    return this.#events;
  }
  get keys() {
    this.#keys ??= createKeysApi(this.#transport, this.#token);
    return this.#keys;
  }
  get projects() {
    this.#projects ??= createProjectsApi(this.#transport, this.#token);
    return this.#projects;
  }
  get users() {
    this.#users ??= createUsersApi(this.#transport, this.#token);
    return this.#users;
  }
}
