import { createCaller } from './call.js';
import type { Transport } from './http.js';
import type { Page, PageOptions } from './paginate.js';
import { encodeProject, encodeSegment, type ProjectRef } from './paths.js';
import { type Event, EventSchema } from './schemas.js';

export type EventAction =
  | 'created'
  | 'updated'
  | 'closed'
  | 'reopened'
  | 'pushed'
  | 'commented'
  | 'merged'
  | 'joined'
  | 'left'
  | 'destroyed'
  | 'expired';
export type EventTargetType = 'issue' | 'milestone' | 'merge_request' | 'note' | 'project' | 'snippet' | 'user';

export interface EventListOptions extends PageOptions {
  action?: EventAction;
  target_type?: EventTargetType;
  /** Dates `YYYY-MM-DD`; both bounds are exclusive. */
  before?: string;
  after?: string;
  sort?: 'asc' | 'desc';
}

export interface EventsApi {
  /** GET /events: the authenticated user's events. */
  listForCurrentUser(options?: EventListOptions): Promise<Page<Event>>;
  listForUser(idOrUsername: number | string, options?: EventListOptions): Promise<Page<Event>>;
  listForProject(project: ProjectRef, options?: EventListOptions): Promise<Page<Event>>;
}

export function createEventsApi(transport: Transport, token: string): EventsApi {
  const call = createCaller(transport, token);

  return {
    listForCurrentUser: (options = {}) => call.list('events', EventSchema, { ...options }),
    listForUser: (idOrUsername, options = {}) =>
      call.list(`users/${encodeSegment(idOrUsername)}/events`, EventSchema, { ...options }),
    listForProject: (project, options = {}) =>
      call.list(`projects/${encodeProject(project)}/events`, EventSchema, { ...options }),
  };
}
