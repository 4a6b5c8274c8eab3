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
  opennessOf,
} from '../views/unfurls.js';
import { ephemeral, noun, type Platform, type Reply, type Unfurls, type UnfurlTarget } from './types.js';

// Link previews (unfurls) of the configured server's issues, merge requests, jobs, pipelines and schedules, read
// with the token of the person who posted the link. A public project's are shown at once. Anything else would
// show the channel what only the poster may see: the poster is asked first (Show / Not now / Always in this
// channel), unless they said Always for that channel; a confidential issue is asked about every time. Someone who is not connected gets nothing, not even a
// word: posting a link must not nag.

const unfurlNoun = noun('unfurl', (deps) => createLinkOperations(deps));

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
    targets.map((target) =>
      ops.preview(ctx, target).catch((err: unknown) => {
        if (lostConnection(err)) throw err;
        if (err instanceof BotError || err instanceof GitlabError) return null;
        throw err;
      }),
    ),
  );
  return read.filter((preview): preview is LinkPreview => preview !== null);
}

/** Previews as the channel reads them: each time in each reader's zone (views/format.ts), nobody's in particular. */
async function unfurlsOf(previews: readonly LinkPreview[], ctx: RequestContext, platform: Platform): Promise<Unfurls> {
  const options = { serverUrl: platform.serverUrl, now: ctx.now };
  return Object.fromEntries(previews.map((preview) => [preview.url, buildUnfurlCard(preview, options)]));
}

/** Shows the previews a prompt asked about, as the person who pressed it (the poster), then says so on the prompt. */
async function showAsked({
  value,
  ctx,
  platform,
  ops,
  answer,
}: {
  value: PreviewButtonValue;
  ctx: RequestContext;
  platform: Platform;
  ops: LinkOperations;
  answer: (count: number) => SlackMessage;
}): Promise<Reply> {
  const previews = await previewsOf(ctx, ops, targetsOf(value.u, [platform.serverUrl, platform.gitlabUrl]));
  if (previews.length === 0) return { kind: 'update', message: buildPreviewGone(value.c) };
  return {
    kind: 'unfurl',
    target: { channel: value.c, ts: value.t },
    unfurls: await unfurlsOf(previews, ctx, platform),
    after: { kind: 'update', message: answer(previews.length) },
  };
}

function onlyThePoster(value: { o: string }, ctx: RequestContext): void {
  if (value.o !== ctx.actor.userId) throw new InvalidInputError(notYourPreview(value.o));
}

export const links = unfurlNoun.define({
  events: [
    unfurlNoun.event('link_shared', async (event, ctx, platform, ops): Promise<Reply> => {
      const none: Reply = { kind: 'none' };
      const targets = targetsOf(
        event.links.map((link) => link.url),
        [platform.serverUrl, platform.gitlabUrl],
      );
      if (targets.length === 0) return none;
      if (connectionProblem(await ctx.session.connection(), platform.gitlabUrl) !== null) return none;
      let previews: LinkPreview[];
      try {
        previews = await previewsOf(ctx, ops, targets);
      } catch (err) {
        if (lostConnection(err)) return none;
        throw err;
      }
      // A link still being typed has no channel to ask in yet: only public previews are shown there.
      const composing = event.source === 'composer' && event.unfurl_id !== undefined;
      const target: UnfurlTarget =
        composing && event.unfurl_id
          ? { unfurlId: event.unfurl_id, source: 'composer' }
          : { channel: event.channel, ts: event.message_ts };
      // What the channel may see decides it (audience.ts): public at once, a non-public project's after the
      // poster's Always for the channel, a confidential issue only each time its poster says Show.
      const members = previews.filter((preview) => opennessOf(preview) === 'members');
      const always = members.length > 0 && !composing && (await ops.allows(ctx, event.channel));
      const shown = previews.filter((p) => opennessOf(p) === 'public' || (always && opennessOf(p) === 'members'));
      const asked = composing ? [] : previews.filter((preview) => !shown.includes(preview));
      const prompt =
        asked.length > 0 && /^[A-Z][A-Z0-9]{1,30}$/.test(event.channel) && /^\d{1,12}\.\d{1,8}$/.test(event.message_ts)
          ? ephemeral(
              buildPreviewPrompt(asked, {
                c: event.channel,
                t: event.message_ts,
                o: ctx.actor.userId,
                u: asked.map((preview) => preview.url),
              }),
            )
          : null;
      if (shown.length === 0) return prompt ?? none;
      return {
        kind: 'unfurl',
        target,
        unfurls: await unfurlsOf(shown, ctx, platform),
        ...(prompt ? { after: prompt } : {}),
      };
    }),
  ],
  commands: {
    async 'unfurl.private'(command, ctx, platform, ops) {
      const channelId = ctx.channelId;
      if (!channelId) {
        throw new InvalidInputError(
          md`${code(`${platform.slashCommand} unfurl private`)} works in the channel it is about.`,
        );
      }
      const on = command.args.setting === 'on';
      const changed = on ? await ops.allow(ctx, channelId) : await ops.revoke(ctx, channelId);
      return ephemeral(buildPreviewSetting({ on, changed, channelId, slashCommand: platform.slashCommand }));
    },
  },
  buttons: [
    unfurlNoun.on(UnfurlButtons.show, async (value, ctx, platform, ops) => {
      onlyThePoster(value, ctx);
      return showAsked({ value, ctx, platform, ops, answer: (count) => buildPreviewShown(value.c, count) });
    }),
    unfurlNoun.on(UnfurlButtons.always, async (value, ctx, platform, ops) => {
      onlyThePoster(value, ctx);
      await ops.allow(ctx, value.c);
      return showAsked({
        value,
        ctx,
        platform,
        ops,
        answer: (count) => buildPreviewAlways(value.c, count, platform.slashCommand),
      });
    }),
    unfurlNoun.on(UnfurlButtons.skip, async (value, ctx): Promise<Reply> => {
      if (value.o !== undefined) onlyThePoster({ o: value.o }, ctx);
      return { kind: 'delete' };
    }),
  ],
});
