import type { GitlabClient } from '../gitlab/client.js';
import type { Page } from '../gitlab/paginate.js';
import { type Project, projectOf } from '../gitlab/project.js';
import type { Todo } from '../gitlab/schemas.js';
import type { TodoAction } from '../gitlab/todos.js';
import type { ProjectRef } from '../grammar/index.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { about, refusing } from './subject.js';

export interface TodoListQuery {
  action?: TodoAction;
  authorId?: number;
  projectId?: number;
  state?: 'pending' | 'done';
  type?: 'Issue' | 'MergeRequest';
  page?: number;
  perPage?: number;
}

export function createTodoOperations(deps: { access: GitlabAccess }) {
  return {
    list(ctx: RequestContext, q: TodoListQuery): Promise<Page<Todo>> {
      return deps.access.withClient(ctx, (c) =>
        c.todos.list({
          ...(q.action ? { action: q.action } : {}),
          ...(q.authorId ? { author_id: q.authorId } : {}),
          ...(q.projectId ? { project_id: q.projectId } : {}),
          ...(q.state ? { state: q.state } : {}),
          ...(q.type ? { type: q.type } : {}),
          ...(q.page ? { page: q.page } : {}),
          ...(q.perPage ? { per_page: q.perPage } : {}),
        }),
      );
    },

    /** The todo filter takes a numeric project id: a path is looked up (as the person) first. */
    async projectId(ctx: RequestContext, ref: ProjectRef): Promise<number> {
      if (ref.kind === 'id') return ref.id;
      const project: Project = projectOf(ref.path);
      const found = await about(
        { kind: 'project', project },
        deps.access.withClient(ctx, (c) => c.projects.get(ref.path)),
      );
      return found.id;
    },

    /** Marks one of the person's todos done; the server answers 404 for anyone else's, or one already done. */
    markDone(ctx: RequestContext, id: number): Promise<Todo> {
      return refusing(
        'done',
        { kind: 'todo', id },
        { 404: 'not_pending' },
        deps.access.withClient(ctx, (c) => c.todos.markDone(id)),
      );
    },

    /**
     * Marks every pending todo of the person done and answers how many there were (the server does not say:
     * they are counted first). Nothing is sent when there are none; `null` when the server gave no count.
     */
    /** How many todos the person has pending (null when the server does not say), with one small read. */
    pendingCount(ctx: RequestContext): Promise<number | null> {
      return deps.access.withClient(ctx, (c) => countPending(c));
    },
    async markAllDone(ctx: RequestContext): Promise<number | null> {
      return deps.access.withClient(ctx, async (c) => {
        const count = await countPending(c);
        if (count === 0) return 0;
        await c.todos.markAllDone();
        return count;
      });
    },
  };
}

export type TodoOperations = ReturnType<typeof createTodoOperations>;

async function countPending(c: GitlabClient): Promise<number | null> {
  const pending = await c.todos.list({ per_page: 1 });
  return pending.total ?? (pending.nextPage === null ? pending.items.length : null);
}
