import { createAwardEmojiApi } from './award-emoji.js';
import { createDeploymentsApi } from './deployments.js';
import { createEventsApi } from './events.js';
import type { Transport } from './http.js';
import { createIssuesApi } from './issues.js';
import { createJobsApi } from './jobs.js';
import { createKeysApi } from './keys.js';
import { createMergeRequestsApi } from './merge-requests.js';
import { createPipelinesApi } from './pipelines.js';
import { createProjectsApi } from './projects.js';
import { createSchedulesApi } from './schedules.js';
import { createTodosApi } from './todos.js';
import { createUsersApi } from './users.js';

/** Every resource of the Delivery Service, by the name a client serves it under: one line per resource. */
const RESOURCES = {
  jobs: createJobsApi,
  pipelines: createPipelinesApi,
  schedules: createSchedulesApi,
  deployments: createDeploymentsApi,
  issues: createIssuesApi,
  mergeRequests: createMergeRequestsApi,
  awardEmoji: createAwardEmojiApi,
  todos: createTodosApi,
  events: createEventsApi,
  keys: createKeysApi,
  projects: createProjectsApi,
  users: createUsersApi,
} satisfies Record<string, (transport: Transport, token: string) => object>;

type ResourceName = keyof typeof RESOURCES;

/** Every endpoint of the Delivery Service, acting as the owner of one token. */
export type GitlabClient = { readonly [K in ResourceName]: ReturnType<(typeof RESOURCES)[K]> };

/**
 * Cheap: one transport (one connection pool, shared sockets) serves any number of per-user clients, and a
 * client builds the API of a resource only when it is first used (a command touches one or two of twelve).
 */
export function createGitlabClient(transport: Transport, token: string): GitlabClient {
  return new Client(transport, token) as unknown as GitlabClient;
}

class Client {
  // Truly private, so that no log line or inspection of a client can show the token.
  readonly #transport: Transport;
  readonly #token: string;
  readonly #built: Partial<Record<ResourceName, object>> = {};

  constructor(transport: Transport, token: string) {
    this.#transport = transport;
    this.#token = token;
  }

  static {
    // One getter per resource on the prototype, each building its API on first use.
    for (const name of Object.keys(RESOURCES) as ResourceName[]) {
      Object.defineProperty(Client.prototype, name, {
        get(this: Client) {
          this.#built[name] ??= RESOURCES[name](this.#transport, this.#token);
          return this.#built[name];
        },
      });
    }
  }
}
