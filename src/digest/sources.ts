import type { GitlabClient } from '../gitlab/client.js';
import type { EventAction, EventListOptions, EventTargetType } from '../gitlab/events.js';
import type { Page } from '../gitlab/paginate.js';
import type { Event, Todo } from '../gitlab/schemas.js';
import type { Digest, DigestCursor } from '../store/digest-store.js';
import { afterParam, reachedCursor } from './cursor.js';

// What a digest reads, with the owner's client. Events newest first from two days before the cursor, stopping at
// the first page that reaches it: a digest with nothing new costs one call. That first page is short, so that in
// a busy project a digest with nothing new does not parse a hundred old events every time; when it holds only new
// ones, the read goes on in pages of 100 (from the start: pages of another size do not line up).

const FIRST_PAGE = 20;
const PER_PAGE = 100;
/** A digest that was paused for long reads at most this many pages; what is older is summed up as "and more". */
const MAX_EVENT_PAGES = 10;
const MAX_TODO_PAGES = 3;

export interface Read<T> {
  items: T[];
  /** The read stopped at its page cap before reaching the cursor (or the end). */
  truncated: boolean;
  calls: number;
}

export async function readEvents(client: GitlabClient, d: Digest, cursor: DigestCursor): Promise<Read<Event>> {
  const options: EventListOptions = {
    sort: 'desc',
    after: afterParam(cursor),
    ...(d.action ? { action: d.action as EventAction } : {}),
    ...(d.targetType ? { target_type: d.targetType as EventTargetType } : {}),
  };
  const list = (perPage: number, page: number): Promise<Page<Event>> => {
    const o = { ...options, per_page: perPage, ...(page > 1 ? { page } : {}) };
    if (d.kind === 'project_events' && d.project) return client.events.listForProject(d.project.id, o);
    if (d.kind === 'user_events' && d.user) return client.events.listForUser(d.user.id, o);
    throw new Error(`digest ${d.id} has nothing to read events of`);
  };
  const done = (p: Page<Event>, page: number) =>
    reachedCursor(p.items, cursor) || p.nextPage === null || p.nextPage <= page;

  const first = await list(FIRST_PAGE, 1);
  if (done(first, 1)) return { items: first.items, truncated: false, calls: 1 };
  const items: Event[] = [];
  for (let page = 1; ; page++) {
    const p = await list(PER_PAGE, page);
    items.push(...p.items);
    if (done(p, page)) return { items, truncated: false, calls: page + 1 };
    if (page >= MAX_EVENT_PAGES) return { items, truncated: true, calls: page + 1 };
  }
}

export async function readTodos(client: GitlabClient): Promise<Read<Todo>> {
  const items: Todo[] = [];
  for (let page = 1; ; page++) {
    const p = await client.todos.list({ state: 'pending', per_page: PER_PAGE, ...(page > 1 ? { page } : {}) });
    items.push(...p.items);
    if (p.nextPage === null || p.nextPage <= page) return { items, truncated: false, calls: page };
    if (page >= MAX_TODO_PAGES) return { items, truncated: true, calls: page };
  }
}
