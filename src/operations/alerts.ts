import type { Todo } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { AlertInput, AlertService } from './alert-service.js';
import type { RequestContext } from './context.js';
import { refusing } from './subject.js';

// Todo alerts as a person asks for them: turning them on reads where their todos stand (with their token), so
// that what is pending then is not sent; Done marks one todo done as the clicker and reads the alert's todos again.

/** Enough of the newest pending todos to find the highest id among them. */
const MARK_PAGE = 20;
const REDRAW_PAGE = 100;

export function createAlertOperations(deps: { access: GitlabAccess; alerts: AlertService }) {
  return {
    get: (ctx: RequestContext) => deps.alerts.get(ctx.actor.teamId, ctx.actor.userId),
    async enable(ctx: RequestContext, input: Omit<AlertInput, 'teamId' | 'userId'>) {
      const page = await deps.access.withClient(ctx, (c) => c.todos.list({ state: 'pending', per_page: MARK_PAGE }));
      const mark = page.items.reduce((m, t) => Math.max(m, t.id), 0);
      return deps.alerts.enable({ ...input, teamId: ctx.actor.teamId, userId: ctx.actor.userId }, mark);
    },
    disable: (ctx: RequestContext) => deps.alerts.disable(ctx.actor.teamId, ctx.actor.userId),
    /** Marks one of the clicker's todos done (the server answers 404 for anyone else's, or one done already). */
    markDone(ctx: RequestContext, id: number): Promise<Todo> {
      return refusing(
        'done',
        { kind: 'todo', id },
        { 404: 'not_pending' },
        deps.access.withClient(ctx, (c) => c.todos.markDone(id)),
      );
    },
    /**
     * The todos of an alert message as they are now: pending ones from the clicker's pending list, the others from
     * their done list; ids found in neither are returned as gone.
     */
    async current(ctx: RequestContext, ids: readonly number[], known: readonly Todo[]) {
      const found = new Map<number, Todo>(known.map((t) => [t.id, t]));
      const missing = () => ids.filter((id) => !found.has(id));
      for (const state of ['pending', 'done'] as const) {
        if (missing().length === 0) break;
        const page = await deps.access.withClient(ctx, (c) => c.todos.list({ state, per_page: REDRAW_PAGE }));
        for (const t of page.items) if (ids.includes(t.id) && !found.has(t.id)) found.set(t.id, t);
      }
      return {
        todos: ids.flatMap((id) => {
          const t = found.get(id);
          return t ? [t] : [];
        }),
        gone: missing(),
      };
    },
  };
}

export type AlertOperations = ReturnType<typeof createAlertOperations>;
