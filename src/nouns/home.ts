import type { HomeView } from '@slack/types';
import { type ConnectionProblem, connectionProblem } from '../connection.js';
import { NotConnectedError, TokenRevokedError, TokenUnreadableError } from '../errors.js';
import type { RequestContext } from '../operations/context.js';
import { createHomeOperations, type HomeOperations, type HomeReads } from '../operations/home.js';
import type { StepConsent } from '../store/step-store.js';
import { buildConnectHome, buildHomeView } from '../views/home.js';
import { type HomeRedraw, noun, type Platform } from './types.js';

// The Home tab: published when the person opens it, and again after anything they do from it (the app turns the
// answer of any button clicked there into the Home drawn again). Its buttons are those of the cards it borrows
// from: Done and Mark all done of todos, Merge of merge requests (the same modal pinned to the head sha), the
// digests' Pause/Resume and Run now, Connect and Disconnect.

/** The Home's reads, and the Workflow Builder steps the person always allows (listed with Revoke). */
type HomeOps = HomeOperations & { stepConsents(actor: RequestContext['actor']): Promise<StepConsent[]> };

const homeNoun = noun(
  'home',
  (deps): HomeOps =>
    Object.assign(createHomeOperations(deps), {
      stepConsents: (actor: RequestContext['actor']) => deps.steps.consents(actor.teamId, actor.userId),
    }),
);

/** A section that met a token the server refused (or that did not open): the person has to connect again. */
function lostConnection(reads: HomeReads): ConnectionProblem | null {
  for (const result of [reads.todos, reads.mergeRequests, reads.issues, reads.digests]) {
    if (result.ok) continue;
    if (result.error instanceof TokenRevokedError) return 'token_revoked';
    if (result.error instanceof TokenUnreadableError) return 'token_unreadable';
    if (result.error instanceof NotConnectedError)
      return result.error.reason === 'other_server' ? 'other_server' : 'not_connected';
  }
  return null;
}

async function drawHome(ctx: RequestContext, platform: Platform, ops: HomeOps, redraw: HomeRedraw): Promise<HomeView> {
  const said = {
    serverUrl: platform.serverUrl,
    slashCommand: platform.slashCommand,
    notice: redraw.notice,
    shown: redraw.shown,
  };
  const connection = await ctx.session.connection();
  const problem = connectionProblem(connection, platform.gitlabUrl);
  if (problem !== null || !connection) return buildConnectHome({ ...said, problem: problem ?? 'not_connected' });
  const [reads, timeZone, stepConsents, alerts] = await Promise.all([
    ops.read(ctx, { cached: redraw.cached === true }),
    platform.timeZoneOf(ctx.actor.userId),
    ops.stepConsents(ctx.actor),
    ops.alertSetting(ctx),
  ]);
  const lost = lostConnection(reads);
  if (lost) return buildConnectHome({ ...said, problem: lost });
  return buildHomeView({
    ...said,
    userId: ctx.actor.userId,
    now: ctx.now,
    timeZone,
    connection,
    reads,
    stepConsents,
    alerts,
  });
}

export const home = homeNoun.define({
  events: [
    // The Messages and About tabs are Slack's own.
    homeNoun.event('app_home_opened', async (event, ctx, platform, ops) =>
      event.tab === 'home'
        ? { kind: 'home', view: await drawHome(ctx, platform, ops, { cached: true }) }
        : { kind: 'none' },
    ),
  ],
  home: {
    render: drawHome,
    forget: (actor, ops) => ops.forget(actor),
  },
});
