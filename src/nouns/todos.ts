import { TodoButtons } from '../buttons/todo.js';
import { InvalidInputError, RefusedError } from '../errors.js';
import { createTodoOperations } from '../operations/todos.js';
import { describeFilters, type ListPlace, pageSize } from '../views/lists.js';
import { done, stale } from '../views/notice.js';
import {
  buildAllTodosDone,
  buildMarkAllDonePrompt,
  buildTodoDone,
  buildTodoList,
  markedCount,
  notYourTodoList,
  TODO_ALREADY_DONE,
  todoSubject,
} from '../views/todos.js';
import { cardContext, placeOf, redrawListAfterWrite } from './support.js';
import { ephemeral, noun, type Reply } from './types.js';

const n = noun('todo', (d) => createTodoOperations(d));

/** Whether the clicker is the person whose todos a button's list shows (a button that does not say: yes). */
const isOwner = (owner: string | undefined, clicker: string) => owner === undefined || owner === clicker;

/** A list redrawn from its first page (Mark all done leaves no pending todo on any other). */
const firstPage = (place: ListPlace): ListPlace => ({ ...place, page: 1 });

export const todos = n.define({
  lists: {
    async 'todo.list'(cmd, ctx, s, ops, place, notice) {
      const f = cmd.flags;
      const perPage = pageSize(f.perPage);
      const authorId = f.author ? await s.people.id(ctx, f.author) : undefined;
      const projectId = f.project ? await ops.projectId(ctx, f.project) : undefined;
      const result = await ops.list(ctx, {
        ...(f.action ? { action: f.action } : {}),
        ...(authorId ? { authorId } : {}),
        ...(projectId ? { projectId } : {}),
        ...(f.state ? { state: f.state } : {}),
        ...(f.type ? { type: f.type } : {}),
        ...(f.page ? { page: f.page } : {}),
        ...(perPage ? { perPage } : {}),
      });
      const pending = (f.state ?? 'pending') === 'pending';
      // Shown in a channel, "your" would read as everyone's: the title names whose todos they are.
      const username = cmd.share ? ((await ctx.session.connection())?.username ?? null) : null;
      const whose = username ? `Todos of @${username}` : 'Your todos';
      return buildTodoList(result.items, result, {
        title: pending ? whose : `${whose} (done)`,
        filters: describeFilters({
          action: f.action,
          author: f.author ? await s.people.idOrUsername(ctx, f.author) : undefined,
          project: f.project,
          state: f.state,
          type: f.type,
        }),
        place,
        ctx: await cardContext(ctx, s, { notice }),
        owner: ctx.actor.userId,
        pending,
        shared: cmd.share,
      });
    },
  },
  commands: {
    async 'todo.done'(cmd, ctx, s, ops) {
      const todo = await ops.markDone(ctx, cmd.args.id);
      return ephemeral(buildTodoDone(todo, ctx.actor.userId, s.serverUrl));
    },
    async 'todo.done-all'(_cmd, ctx, s, ops) {
      return ephemeral(buildAllTodosDone(await ops.markAllDone(ctx), s.slashCommand));
    },
  },
  buttons: [
    n.on(TodoButtons.done, async (v, ctx, s, ops): Promise<Reply> => {
      const place = placeOf(v);
      const owner = isOwner(v.o, ctx.actor.userId);
      let todo: Awaited<ReturnType<typeof ops.markDone>>;
      try {
        // Asked even of someone else's list: the server, not the button, knows whose todo it is.
        todo = await ops.markDone(ctx, v.t);
      } catch (err) {
        if (!(err instanceof RefusedError)) throw err;
        if (!owner) throw new RefusedError({ ...err.refusal, reason: 'not_yours' }, err.cause);
        // The person's own list was out of date: the todo was done already.
        if (!place) throw err;
        const notice = stale(TODO_ALREADY_DONE);
        return { kind: 'update', message: await s.redrawList(place, ctx, { expect: 'todo.list', notice }) };
      }
      if (!place) return ephemeral(buildTodoDone(todo, ctx.actor.userId, s.serverUrl));
      const notice = done('done', ctx.actor.userId, todoSubject(todo, { serverUrl: s.serverUrl }));
      return { kind: 'update', message: await redrawListAfterWrite(s, ctx, place, { expect: 'todo.list', notice }) };
    }),
    n.on(TodoButtons.doneAll, async (v, ctx, s, ops): Promise<Reply> => {
      if (v.o && !isOwner(v.o, ctx.actor.userId)) {
        throw new InvalidInputError(notYourTodoList(v.o, 'done-all', s.slashCommand));
      }
      const place = placeOf(v);
      // From a shared list: its owner is asked first, only they see the question.
      if (v.a) return ephemeral(buildMarkAllDonePrompt({ owner: v.o ?? null, place }));
      const count = await ops.markAllDone(ctx);
      if (!place) return ephemeral(buildAllTodosDone(count, s.slashCommand));
      const notice = done('done-all', ctx.actor.userId, markedCount(count));
      return {
        kind: 'update',
        message: await redrawListAfterWrite(s, ctx, firstPage(place), { expect: 'todo.list', notice }),
      };
    }),
    n.on(TodoButtons.page, async (v, ctx, s): Promise<Reply> => {
      if (v.o && !isOwner(v.o, ctx.actor.userId)) {
        throw new InvalidInputError(notYourTodoList(v.o, 'page', s.slashCommand));
      }
      return { kind: 'update', message: await s.redrawList({ query: v.q, page: v.n }, ctx, { expect: 'todo.list' }) };
    }),
  ],
});
