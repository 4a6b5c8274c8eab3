// Users (the caller, lookups by username), SSH keys (admin only) and single
// projects: what the bot needs to resolve names and check access.

import { accessLevel } from '../access.js';
import { type Handler, json } from '../http/context.js';
import { forbidden, notFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { str } from '../http/params.js';
import type { Route } from '../http/router.js';
import { findProject } from '../lookup.js';
import { presentKey, presentProject, presentUser, presentUserBasic, presentUserPublic } from '../present.js';
import { findUser } from './todos-events.js';

const currentUser: Handler = (ctx) => json(200, presentUserPublic(ctx, ctx.user));

const listUsers: Handler = (ctx) => {
  const username = str(ctx.params, 'username')?.toLowerCase();
  const search = str(ctx.params, 'search')?.toLowerCase();
  const users = [...ctx.state.users.values()].filter(
    (u) =>
      (username === undefined || u.username.toLowerCase() === username) &&
      (search === undefined ||
        u.username.toLowerCase().includes(search) ||
        u.name.toLowerCase().includes(search) ||
        u.email.toLowerCase() === search),
  );
  return paginate(ctx, users, (u) => presentUserBasic(ctx, u));
};

const getUser: Handler = (ctx) => {
  const user = findUser(ctx, ctx.route.user_id ?? '');
  return json(200, user.id === ctx.user.id ? presentUserPublic(ctx, user) : presentUser(ctx, user));
};

const getKey: Handler = (ctx) => {
  if (!ctx.user.admin) throw forbidden();
  const key = ctx.state.keys.get(Number(ctx.route.key_id));
  if (!key) throw notFound();
  return json(200, presentKey(ctx, key));
};

const getProject: Handler = (ctx) => {
  const project = findProject(ctx);
  return json(200, presentProject(ctx, project, accessLevel(ctx.state, ctx.user, project)));
};

export const userProjectRoutes: Route[] = [
  ['GET', '/user', currentUser],
  ['GET', '/users', listUsers],
  ['GET', '/users/:user_id', getUser],
  ['GET', '/keys/:key_id', getKey],
  ['GET', '/projects/:id', getProject],
];
