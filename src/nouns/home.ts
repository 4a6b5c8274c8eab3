import type { HomeView } from '@slack/types';
import { type ConnectionProblem, connectionProblem } from '../connection.js';
import { NotConnectedError, TokenRevokedError, TokenUnreadableError } from '../errors.js';
import type { RequestContext } from '../operations/context.js';
import { createHomeOperations, type HomeOperations, type HomeReads } from '../operations/home.js';
import { buildConnectHome, buildHomeView } from '../views/home.js';
import { type HomeRedraw, noun, type Platform } from './types.js';

// The Home tab: published when the person opens it, and again after anything they do from it (the app turns the
// answer of any button clicked there into the Home drawn again). Its buttons are those of the cards it borrows
// from: Done and Mark all done of todos, Merge of merge requests (the same modal pinned to the head sha), the
// digests' Pause/Resume and Run now, Connect and Disconnect.

const n = noun('home', (d) => createHomeOperations(d));

/** A section that met a token the server refused (or that did not open): the person has to connect again. */
function lostConnection(reads: HomeReads): ConnectionProblem | null {
  for (const r of [reads.todos, reads.mergeRequests, reads.issues, reads.digests]) {
    if (r.ok) continue;
    if (r.error instanceof TokenRevokedError) return 'token_revoked';
    if (r.error instanceof TokenUnreadableError) return 'token_unreadable';
    if (r.error instanceof NotConnectedError)
      return r.error.reason === 'other_server' ? 'other_server' : 'not_connected';
  }
  return null;
}

async function drawHome(ctx: RequestContext, s: Platform, ops: HomeOperations, o: HomeRedraw): Promise<HomeView> {
  const said = { serverUrl: s.serverUrl, slashCommand: s.slashCommand, notice: o.notice, shown: o.shown };
  const connection = await ctx.session.connection();
  const problem = connectionProblem(connection, s.gitlabUrl);
  if (problem !== null || !connection) return buildConnectHome({ ...said, problem: problem ?? 'not_connected' });
  const [reads, timeZone, alerts] = await Promise.all([
    ops.read(ctx, { cached: o.cached === true }),
    s.timeZoneOf(ctx.actor.userId),
    ops.alertSetting(ctx),
  ]);
  const lost = lostConnection(reads);
  if (lost) return buildConnectHome({ ...said, problem: lost });
  return buildHomeView({ ...said, userId: ctx.actor.userId, now: ctx.now, timeZone, connection, reads, alerts });
}

export const home = n.define({
  events: [
    // The Messages and About tabs are Slack's own.
    n.event('app_home_opened', async (e, ctx, s, ops) =>
      e.tab === 'home' ? { kind: 'home', view: await drawHome(ctx, s, ops, { cached: true }) } : { kind: 'none' },
    ),
  ],
  home: {
    render: drawHome,
    forget: (actor, ops) => ops.forget(actor),
  },
});
