import { createCaller } from './call.js';
import type { Transport } from './http.js';
import type { Page, PageOptions } from './paginate.js';
import { encodeSegment } from './paths.js';
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
}

export function createTodosApi(transport: Transport, token: string): TodosApi {
  const call = createCaller(transport, token);

  return {
    list: (options = {}) => call.list('todos', TodoSchema, { ...options }),
    markDone: (todoId) => call.send('POST', `todos/${encodeSegment(todoId)}/mark_as_done`, TodoSchema),
    markAllDone: () => call.sendVoid('POST', 'todos/mark_as_done'),
  };
}
