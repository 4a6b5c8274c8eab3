import { TodoButtons } from '../buttons/todo.js';
import { InvalidInputError, RefusedError } from '../errors.js';
import { createTodoOperations } from '../operations/todos.js';
import { audienceOf, todoFor } from '../views/audience.js';
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

const todoNoun = noun('todo', (deps) => createTodoOperations(deps));

/** Whether the clicker is the person whose todos a button's list shows (a button that does not say: yes). */
const isOwner = (owner: string | undefined, clicker: string) => owner === undefined || owner === clicker;

/** A list redrawn from its first page (Mark all done leaves no pending todo on any other). */
const firstPage = (place: ListPlace): ListPlace => ({ ...place, page: 1 });

export const todos = todoNoun.define({
  lists: {
    async 'todo.list'(command, ctx, platform, ops, place, notice) {
      const flags = command.flags;
      const perPage = pageSize(flags.perPage);
      const authorId = flags.author ? await platform.people.id(ctx, flags.author) : undefined;
      const projectId = flags.project ? await ops.projectId(ctx, flags.project) : undefined;
      const result = await ops.list(ctx, {
        ...(flags.action ? { action: flags.action } : {}),
        ...(authorId ? { authorId } : {}),
        ...(projectId ? { projectId } : {}),
        ...(flags.state ? { state: flags.state } : {}),
        ...(flags.type ? { type: flags.type } : {}),
        ...(flags.page ? { page: flags.page } : {}),
        ...(perPage ? { perPage } : {}),
      });
      const pending = (flags.state ?? 'pending') === 'pending';
      // Shown in a channel, "your" would read as everyone's: the title names whose todos they are.
      const username = command.share ? ((await ctx.session.connection())?.username ?? null) : null;
      const whose = username ? `Todos of @${username}` : 'Your todos';
      const audience = audienceOf(command.share);
      return buildTodoList(
        result.items.map((todo) => todoFor(audience, todo)),
        result,
        {
          title: pending ? whose : `${whose} (done)`,
          filters: describeFilters({
            action: flags.action,
            author: flags.author ? await platform.people.idOrUsername(ctx, flags.author) : undefined,
            project: flags.project,
            state: flags.state,
            type: flags.type,
          }),
          place,
          ctx: await cardContext(ctx, platform, { notice }),
          owner: ctx.actor.userId,
          pending,
          shared: command.share,
        },
      );
    },
  },
  commands: {
    async 'todo.done'(command, ctx, platform, ops) {
      const todo = await ops.markDone(ctx, command.args.id);
      return ephemeral(buildTodoDone(todo, ctx.actor.userId, platform.serverUrl));
    },
    async 'todo.done-all'(_command, ctx, platform, ops) {
      // Typed or clicked, marking everything done asks first (with nothing pending there is nothing to ask).
      const pending = await ops.pendingCount(ctx);
      if (pending === 0) return ephemeral(buildAllTodosDone(0, platform.slashCommand));
      return ephemeral(buildMarkAllDonePrompt({ owner: ctx.actor.userId, place: null }));
    },
  },
  buttons: [
    todoNoun.on(TodoButtons.done, async (value, ctx, platform, ops): Promise<Reply> => {
      const place = placeOf(value);
      const owner = isOwner(value.o, ctx.actor.userId);
      let todo: Awaited<ReturnType<typeof ops.markDone>>;
      try {
        // Asked even of someone else's list: the server, not the button, knows whose todo it is.
        todo = await ops.markDone(ctx, value.t);
      } catch (err) {
        if (!(err instanceof RefusedError)) throw err;
        if (!owner) throw new RefusedError({ ...err.refusal, reason: 'not_yours' }, err.cause);
        // The person's own list was out of date: the todo was done already.
        if (!place) throw err;
        const notice = stale(TODO_ALREADY_DONE);
        return { kind: 'update', message: await platform.redrawList(place, ctx, { expect: 'todo.list', notice }) };
      }
      if (!place) return ephemeral(buildTodoDone(todo, ctx.actor.userId, platform.serverUrl));
      const notice = done('done', {
        actorId: ctx.actor.userId,
        detail: todoSubject(todo, { serverUrl: platform.serverUrl }),
      });
      return {
        kind: 'update',
        message: await redrawListAfterWrite({ platform, ctx, place, options: { expect: 'todo.list', notice } }),
      };
    }),
    todoNoun.on(TodoButtons.doneAll, async (value, ctx, platform, ops): Promise<Reply> => {
      if (value.o && !isOwner(value.o, ctx.actor.userId)) {
        throw new InvalidInputError(notYourTodoList(value.o, 'done-all', platform.slashCommand));
      }
      const place = placeOf(value);
      // From a shared list: its owner is asked first, only they see the question.
      if (value.a) return ephemeral(buildMarkAllDonePrompt({ owner: value.o ?? null, place }));
      const count = await ops.markAllDone(ctx);
      if (!place) return ephemeral(buildAllTodosDone(count, platform.slashCommand));
      const notice = done('done-all', { actorId: ctx.actor.userId, detail: markedCount(count) });
      return {
        kind: 'update',
        message: await redrawListAfterWrite({
          platform,
          ctx,
          place: firstPage(place),
          options: { expect: 'todo.list', notice },
        }),
      };
    }),
    todoNoun.on(TodoButtons.page, async (value, ctx, platform): Promise<Reply> => {
      if (value.o && !isOwner(value.o, ctx.actor.userId)) {
        throw new InvalidInputError(notYourTodoList(value.o, 'page', platform.slashCommand));
      }
      return {
        kind: 'update',
        message: await platform.redrawList({ query: value.q, page: value.n }, ctx, { expect: 'todo.list' }),
      };
    }),
  ],
});
