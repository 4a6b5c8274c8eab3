// Award emoji on issues, merge requests and snippets, and on their notes.
// 9.5 refuses a duplicate or unknown emoji with a 404, and a removal by
// anyone but the award's author or an admin with a 401.

import { canReadIssue } from '../access.js';
import { EMOJI_NAMES } from '../emoji.js';
import { empty, type Handler, json, type RequestContext } from '../http/context.js';
import { notFound, unauthorized } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { requireStr } from '../http/params.js';
import type { Route } from '../http/router.js';
import { findProject } from '../lookup.js';
import type { AwardableType, AwardRecord, NoteRecord } from '../model.js';
import { nextId } from '../model.js';
import { presentAward } from '../present.js';

interface Awardable {
  type: AwardableType;
  id: number;
  /** thumbs are not for one's own issue or merge request */
  authorId: number | null;
}

type Parent = 'issues' | 'merge_requests' | 'snippets';

function findParent(ctx: RequestContext, parent: Parent): Awardable & { type: 'Issue' | 'MergeRequest' | 'Snippet' } {
  const project = findProject(ctx);
  const key = Number(ctx.route.awardable_id);
  if (parent === 'issues') {
    for (const i of ctx.state.issues.values()) {
      if (i.project_id === project.id && i.iid === key && canReadIssue(ctx.state, ctx.user, project, i)) {
        return { type: 'Issue', id: i.id, authorId: i.author_id };
      }
    }
    throw notFound('Issue');
  }
  if (parent === 'merge_requests') {
    for (const m of ctx.state.mergeRequests.values()) {
      if (m.project_id === project.id && m.iid === key && !m.deleted)
        return { type: 'MergeRequest', id: m.id, authorId: m.author_id };
    }
    throw notFound('Merge Request');
  }
  const s = ctx.state.snippets.get(key);
  if (!s || s.project_id !== project.id) throw notFound('Snippet');
  return { type: 'Snippet', id: s.id, authorId: null };
}

function findAwardable(ctx: RequestContext, parent: Parent, onNote: boolean): Awardable {
  const owner = findParent(ctx, parent);
  if (!onNote) return owner;
  const note: NoteRecord | undefined = ctx.state.notes.get(Number(ctx.route.note_id));
  if (!note || note.noteable_type !== owner.type || note.noteable_id !== owner.id) throw notFound('Note');
  return { type: 'Note', id: note.id, authorId: null };
}

function awardsOf(ctx: RequestContext, a: Awardable): AwardRecord[] {
  return [...ctx.state.awards.values()].filter((x) => x.awardable_type === a.type && x.awardable_id === a.id);
}

function findAward(ctx: RequestContext, a: Awardable): AwardRecord {
  const award = ctx.state.awards.get(Number(ctx.route.award_id));
  if (!award || award.awardable_type !== a.type || award.awardable_id !== a.id) throw notFound();
  return award;
}

function handlers(parent: Parent, onNote: boolean) {
  const list: Handler = (ctx) => {
    const a = findAwardable(ctx, parent, onNote);
    return paginate(ctx, awardsOf(ctx, a), (x) => presentAward(ctx, x));
  };
  const get: Handler = (ctx) => json(200, presentAward(ctx, findAward(ctx, findAwardable(ctx, parent, onNote))));
  const create: Handler = (ctx) => {
    const a = findAwardable(ctx, parent, onNote);
    const name = requireStr(ctx.params, 'name');
    if (!EMOJI_NAMES.has(name)) throw notFound('Award Emoji {:name=>["is not included in the list"]}');
    if ((name === 'thumbsup' || name === 'thumbsdown') && a.authorId === ctx.user.id) throw notFound('Award Emoji');
    if (awardsOf(ctx, a).some((x) => x.user_id === ctx.user.id && x.name === name)) {
      throw notFound('Award Emoji {:name=>["has already been taken"]}');
    }
    const award: AwardRecord = {
      id: nextId(ctx.state, 'awards'),
      name,
      user_id: ctx.user.id,
      created_at: ctx.now.toISOString(),
      updated_at: ctx.now.toISOString(),
      awardable_id: a.id,
      awardable_type: a.type,
    };
    ctx.state.awards.set(award.id, award);
    return json(201, presentAward(ctx, award));
  };
  const remove: Handler = (ctx) => {
    const award = findAward(ctx, findAwardable(ctx, parent, onNote));
    if (award.user_id !== ctx.user.id && !ctx.user.admin) throw unauthorized();
    ctx.state.awards.delete(award.id);
    return empty(204);
  };
  return { list, get, create, remove };
}

function routesFor(parent: Parent): Route[] {
  const out: Route[] = [];
  for (const onNote of [false, true]) {
    const base = `/projects/:id/${parent}/:awardable_id${onNote ? '/notes/:note_id' : ''}/award_emoji`;
    const h = handlers(parent, onNote);
    out.push(
      ['GET', base, h.list],
      ['POST', base, h.create],
      ['GET', `${base}/:award_id`, h.get],
      ['DELETE', `${base}/:award_id`, h.remove],
    );
  }
  return out;
}

export const awardEmojiRoutes: Route[] = [
  ...routesFor('issues'),
  ...routesFor('merge_requests'),
  ...routesFor('snippets'),
];
