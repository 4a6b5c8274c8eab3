import { type RefusalReason, RefusedError } from '../errors.js';
import { type Awardable, type AwardTarget, awardableRef, awardTargetRef } from '../gitlab/award-emoji.js';
import { NotFoundError } from '../gitlab/errors.js';
import type { Page } from '../gitlab/paginate.js';
import { projectLabel, type Resource } from '../gitlab/project.js';
import type { AwardEmoji } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { about, refusing } from './subject.js';

/** An award made, or the person's own award of that emoji that was there already (real servers answer 404). */
export type AwardOutcome = { awarded: true; award: AwardEmoji } | { awarded: false; existing: AwardEmoji | null };

const apiTarget = (t: AwardTarget): Awardable => ({
  kind: t.kind,
  project: t.project.key,
  iid: t.iid,
  ...(t.noteId !== undefined ? { noteId: t.noteId } : {}),
});

/** What a failed read of the emoji was about: the issue (merge request, snippet), or its note. */
function targetSubject(t: AwardTarget): Resource {
  if (t.noteId === undefined) return { kind: t.kind, project: t.project, iid: t.iid };
  return { kind: 'note', id: `${t.noteId} of ${awardableRef(t.kind, projectLabel(t.project), t.iid)}` };
}

const awardSubject = (t: AwardTarget, award: number | string): Resource => ({
  kind: 'award',
  id: `${award} on ${awardTargetRef(t)}`,
});

/** 9.5 refuses an emoji it does not know with this validation message inside a 404. */
const UNKNOWN_NAME = /not included in the list/i;
const TAKEN = /already been taken/i;

export function createAwardOperations(deps: { access: GitlabAccess }) {
  const list = (ctx: RequestContext, t: AwardTarget, page: { page?: number; perPage?: number } = {}) =>
    about(
      targetSubject(t),
      deps.access.withClient(ctx, (c) =>
        c.awardEmoji.list(apiTarget(t), {
          ...(page.page ? { page: page.page } : {}),
          ...(page.perPage ? { per_page: page.perPage } : {}),
        }),
      ),
    );

  return {
    list(ctx: RequestContext, t: AwardTarget, page: { page?: number; perPage?: number }): Promise<Page<AwardEmoji>> {
      return list(ctx, t, page);
    },

    get(ctx: RequestContext, t: AwardTarget, awardId: number): Promise<AwardEmoji> {
      return about(
        awardSubject(t, awardId),
        deps.access.withClient(ctx, (c) => c.awardEmoji.get(apiTarget(t), awardId)),
      );
    },

    /**
     * Awards `name`. Real servers answer 404 to a second award of the same emoji, to an unknown emoji and to a
     * thumb on one's own issue alike: the server's words, or a look at the emoji there, tell which.
     */
    async award(ctx: RequestContext, t: AwardTarget, name: string): Promise<AwardOutcome> {
      try {
        const award = await about(
          targetSubject(t),
          deps.access.withClient(ctx, (c) => c.awardEmoji.award(apiTarget(t), name)),
        );
        return { awarded: true, award };
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        const said = err.serverMessage ?? '';
        const refuse = (reason: RefusalReason) =>
          new RefusedError(
            { action: 'award', subject: awardSubject(t, `:${name}:`), status: 404, reason, serverMessage: said },
            err,
          );
        if (UNKNOWN_NAME.test(said)) throw refuse('unknown_emoji');
        // Reading the emoji tells "already yours" from "not there at all" (whose 404 then stands).
        const username = (await ctx.session.connection())?.username ?? null;
        const there = await list(ctx, t, { perPage: 100 });
        const existing =
          there.items.find((a) => a.name === name && username !== null && a.user.username === username) ?? null;
        if (existing || TAKEN.test(said)) return { awarded: false, existing };
        throw refuse('not_allowed');
      }
    },

    /** Takes an award back; only its author (or an administrator) may: 401/403 for anyone else. */
    remove(ctx: RequestContext, t: AwardTarget, awardId: number): Promise<void> {
      return refusing(
        'unaward',
        awardSubject(t, awardId),
        { 401: 'not_yours', 403: 'not_yours' },
        deps.access.withClient(ctx, (c) => c.awardEmoji.remove(apiTarget(t), awardId)),
      );
    },
  };
}

export type AwardOperations = ReturnType<typeof createAwardOperations>;
