import { createCaller } from './call.js';
import { ResponseShapeError } from './errors.js';
import type { Transport } from './http.js';
import type { Page, PageOptions } from './paginate.js';
import { encodeSegment, toApiPath } from './paths.js';
import { type Todo, TodoSchema } from './schemas.js';

/** Why something is a todo (`action_name`); 9.5 filters by each of these. */
export type TodoAction =
  | 'assigned'
  | 'mentioned'
  | 'build_failed'
  | 'marked'
  | 'approval_required'
  | 'unmergeable'
  | 'directly_addressed';

export interface TodoListOptions extends PageOptions {
  action?: TodoAction;
  author_id?: number;
  project_id?: number;
  state?: 'pending' | 'done';
  type?: 'Issue' | 'MergeRequest';
}

export interface TodosApi {
  list(options?: TodoListOptions): Promise<Page<Todo>>;
  markDone(todoId: number): Promise<Todo>;
  markAllDone(): Promise<void>;
  /**
   * The id of the newest pending todo (null: none), read with `per_page=1` and nothing else of the answer decoded:
   * an alert poll's probe, which only compares that id with what it has seen (what is new is read with `list`).
   */
  newestPendingId(): Promise<number | null>;
}

export function createTodosApi(transport: Transport, token: string): TodosApi {
  const call = createCaller(transport, token);

  return {
    list: (options = {}) => call.list('todos', TodoSchema, { ...options }),
    markDone: (todoId) => call.send('POST', `todos/${encodeSegment(todoId)}/mark_as_done`, TodoSchema),
    markAllDone: () => call.sendVoid('POST', 'todos/mark_as_done'),
    async newestPendingId() {
      const query = { state: 'pending', per_page: 1 };
      const { body, status } = await transport.request({ method: 'GET', path: 'todos', token, query });
      if (!Array.isArray(body)) {
        throw new ResponseShapeError({
          status,
          method: 'GET',
          path: toApiPath('todos'),
          issues: [{ path: [], message: 'not a list' }],
        });
      }
      if (body.length === 0) return null;
      const id = (body[0] as { id?: unknown } | null)?.id;
      if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
        throw new ResponseShapeError({
          status,
          method: 'GET',
          path: toApiPath('todos'),
          issues: [{ path: [0, 'id'], message: 'not an id' }],
        });
      }
      return id;
    },
  };
}
