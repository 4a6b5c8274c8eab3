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

const PROBE_QUERY = { state: 'pending', per_page: 1 } as const;

// A list whose first todo starts with its id, as GitLab writes todos: the id is read from the text, and the rest of
// the answer (a whole todo with its project, author and target) is never decoded. Anything else is parsed whole.
const EMPTY_LIST = /^\s*\[\s*\]\s*$/;
const FIRST_ID = /^\s*\[\s*\{\s*"id"\s*:\s*(0|[1-9]\d{0,14})\s*[,}]/;

/** The first todo's id read from the answer's text; null for an empty list; undefined when it cannot tell. */
function firstIdOf(text: string): number | null | undefined {
  if (!text.trimEnd().endsWith(']')) return undefined;
  const m = FIRST_ID.exec(text);
  if (m) return Number(m[1]);
  return EMPTY_LIST.test(text) ? null : undefined;
}

export function createTodosApi(transport: Transport, token: string): TodosApi {
  const call = createCaller(transport, token);

  return {
    list: (options = {}) => call.list('todos', TodoSchema, { ...options }),
    markDone: (todoId) => call.send('POST', `todos/${encodeSegment(todoId)}/mark_as_done`, TodoSchema),
    markAllDone: () => call.sendVoid('POST', 'todos/mark_as_done'),
    async newestPendingId() {
      const { body, status } = await transport.request({
        method: 'GET',
        path: 'todos',
        token,
        query: PROBE_QUERY,
        responseType: 'text',
      });
      const shapeError = (issue: { path: (string | number)[]; message: string }) =>
        new ResponseShapeError({ status, method: 'GET', path: toApiPath('todos'), issues: [issue] });
      const known = typeof body === 'string' ? firstIdOf(body) : undefined;
      if (known !== undefined) return known;
      let list: unknown = body;
      if (typeof body === 'string') {
        try {
          list = JSON.parse(body);
        } catch {
          throw shapeError({ path: [], message: 'the body is not JSON' });
        }
      }
      if (!Array.isArray(list)) throw shapeError({ path: [], message: 'not a list' });
      if (list.length === 0) return null;
      const id = (list[0] as { id?: unknown } | null)?.id;
      if (typeof id !== 'number' || !Number.isSafeInteger(id))
        throw shapeError({ path: [0, 'id'], message: 'not an id' });
      return id;
    },
  };
}
