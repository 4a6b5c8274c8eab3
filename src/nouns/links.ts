import { PREVIEW_LINKS_MAX, PREVIEW_URL_MAX, type PreviewButtonValue, UnfurlButtons } from '../buttons/links.js';
import { connectionProblem } from '../connection.js';
import { BotError, InvalidInputError, NotConnectedError, TokenRevokedError, TokenUnreadableError } from '../errors.js';
import { GitlabError } from '../gitlab/errors.js';
import { parseWebUrl, type ServerUrls } from '../grammar/references.js';
import type { RequestContext } from '../operations/context.js';
import {
  createLinkOperations,
  type LinkOperations,
  type LinkPreview,
  type LinkTarget,
  linkTargetOf,
} from '../operations/links.js';
import type { SlackMessage } from '../views/blocks.js';
import { code, md } from '../views/mrkdwn.js';
import {
  buildPreviewAlways,
  buildPreviewGone,
  buildPreviewPrompt,
  buildPreviewSetting,
  buildPreviewShown,
  buildUnfurlCard,
  notYourPreview,
} from '../views/unfurls.js';
import { ephemeral, noun, type Platform, type Reply, type Unfurls, type UnfurlTarget } from './types.js';

// Link previews (unfurls) of the configured server's issues, merge requests, jobs, pipelines and schedules, read
// with the token of the person who posted the link. A public project's are shown at once. Anything else would
// show the channel what only the poster may see: the poster is asked first (Show / Not now / Always in this
// channel), unless they said Always for that channel. Someone who is not connected gets nothing, not even a
// word: posting a link must not nag.

const n = noun('unfurl', (d) => createLinkOperations(d));

/** The links of a message that this bot previews, each once, in the order posted. */
function targetsOf(urls: readonly string[], serverUrl: ServerUrls): LinkTarget[] {
  const out: LinkTarget[] = [];
  for (const url of new Set(urls)) {
    if (url.length > PREVIEW_URL_MAX) continue;
    const parsed = parseWebUrl(url, serverUrl);
    const target = parsed.ok ? linkTargetOf(url, parsed.value) : null;
    if (target) out.push(target);
    if (out.length === PREVIEW_LINKS_MAX) break;
  }
  return out;
}

const lostConnection = (err: unknown) =>
  err instanceof NotConnectedError || err instanceof TokenRevokedError || err instanceof TokenUnreadableError;

/** The previews the person can read; a link they cannot (gone, no access, the server failing) is left out. */
async function previewsOf(ctx: RequestContext, ops: LinkOperations, targets: LinkTarget[]): Promise<LinkPreview[]> {
  const read = await Promise.all(
    targets.map((t) =>
      ops.preview(ctx, t).catch((err: unknown) => {
        if (lostConnection(err)) throw err;
        if (err instanceof BotError || err instanceof GitlabError) return null;
        throw err;
      }),
    ),
  );
  return read.filter((p): p is LinkPreview => p !== null);
}

/** Previews in the zone of the person who posted the links (a channel has no one zone). */
async function unfurlsOf(previews: readonly LinkPreview[], ctx: RequestContext, s: Platform): Promise<Unfurls> {
  const timeZone = await s.timeZoneOf(ctx.actor.userId);
  const o = { serverUrl: s.serverUrl, now: ctx.now, timeZone };
  return Object.fromEntries(previews.map((p) => [p.url, buildUnfurlCard(p, o)]));
}

/** Shows the previews a prompt asked about, as the person who pressed it (the poster), then says so on the prompt. */
async function showAsked(
  v: PreviewButtonValue,
  ctx: RequestContext,
  s: Platform,
  ops: LinkOperations,
  answer: (count: number) => SlackMessage,
): Promise<Reply> {
  const previews = await previewsOf(ctx, ops, targetsOf(v.u, [s.serverUrl, s.gitlabUrl]));
  if (previews.length === 0) return { kind: 'update', message: buildPreviewGone(v.c) };
  return {
    kind: 'unfurl',
    target: { channel: v.c, ts: v.t },
    unfurls: await unfurlsOf(previews, ctx, s),
    after: { kind: 'update', message: answer(previews.length) },
  };
}

function onlyThePoster(v: PreviewButtonValue, ctx: RequestContext): void {
  if (v.o !== ctx.actor.userId) throw new InvalidInputError(notYourPreview(v.o));
}

export const links = n.define({
  events: [
    n.event('link_shared', async (e, ctx, s, ops): Promise<Reply> => {
      const none: Reply = { kind: 'none' };
      const targets = targetsOf(
        e.links.map((l) => l.url),
        [s.serverUrl, s.gitlabUrl],
      );
      if (targets.length === 0) return none;
      if (connectionProblem(await ctx.session.connection(), s.gitlabUrl) !== null) return none;
      let previews: LinkPreview[];
      try {
        previews = await previewsOf(ctx, ops, targets);
      } catch (err) {
        if (lostConnection(err)) return none;
        throw err;
      }
      // A link still being typed has no channel to ask in yet: only public previews are shown there.
      const composing = e.source === 'composer' && e.unfurl_id !== undefined;
      const target: UnfurlTarget =
        composing && e.unfurl_id
          ? { unfurlId: e.unfurl_id, source: 'composer' }
          : { channel: e.channel, ts: e.message_ts };
      const closed = previews.filter((p) => !p.isPublic);
      const always = closed.length > 0 && !composing && (await ops.allows(ctx, e.channel));
      const shown = always ? previews : previews.filter((p) => p.isPublic);
      const asked = always || composing ? [] : closed;
      const prompt =
        asked.length > 0 && /^[A-Z][A-Z0-9]{1,30}$/.test(e.channel) && /^\d{1,12}\.\d{1,8}$/.test(e.message_ts)
          ? ephemeral(
              buildPreviewPrompt(asked, {
                c: e.channel,
                t: e.message_ts,
                o: ctx.actor.userId,
                u: asked.map((p) => p.url),
              }),
            )
          : null;
      if (shown.length === 0) return prompt ?? none;
      return { kind: 'unfurl', target, unfurls: await unfurlsOf(shown, ctx, s), ...(prompt ? { after: prompt } : {}) };
    }),
  ],
  commands: {
    async 'unfurl.private'(cmd, ctx, s, ops) {
      const channelId = ctx.channelId;
      if (!channelId) {
        throw new InvalidInputError(md`${code(`${s.slashCommand} unfurl private`)} works in the channel it is about.`);
      }
      const on = cmd.args.setting === 'on';
      const changed = on ? await ops.allow(ctx, channelId) : await ops.revoke(ctx, channelId);
      return ephemeral(buildPreviewSetting(on, changed, channelId, s.slashCommand));
    },
  },
  buttons: [
    n.on(UnfurlButtons.show, async (v, ctx, s, ops) => {
      onlyThePoster(v, ctx);
      return showAsked(v, ctx, s, ops, (count) => buildPreviewShown(v.c, count));
    }),
    n.on(UnfurlButtons.always, async (v, ctx, s, ops) => {
      onlyThePoster(v, ctx);
      await ops.allow(ctx, v.c);
      return showAsked(v, ctx, s, ops, (count) => buildPreviewAlways(v.c, count, s.slashCommand));
    }),
    n.on(UnfurlButtons.skip, async (): Promise<Reply> => ({ kind: 'delete' })),
  ],
});
