import type { WebClient } from '@slack/web-api';
import { refusesToken, slackErrorCode } from '../../slack-errors.js';
import type { StepSlack } from '../../steps/service.js';

// The Web API side of Workflow Builder steps. A step's calls carry the execution's workflow token (Slack revokes
// it once the step completes, and it lasts about a quarter of an hour): the question is posted with it, so that
// the person's click comes back with a fresh one; completing tries the tokens it is given in order, and the bot's
// own token last (Slack documents functions.completeSuccess/completeError as needing no scope). No token is ever
// put into an error or a log line.

export function createStepSlack(client: WebClient): StepSlack {
  /** Runs `call` with each token in turn, then with the bot's own; the first that Slack takes answers. */
  const withTokens = async (tokens: readonly string[], call: (token: string | undefined) => Promise<unknown>) => {
    const tries: (string | undefined)[] = [...tokens, undefined];
    let last: string | null = null;
    for (const token of tries) {
      try {
        await call(token);
        return;
      } catch (err) {
        last = slackErrorCode(err);
        // A token Slack refuses: the next one is tried.
        if (!refusesToken(last)) throw new Error(`Slack answered ${last ?? 'with an error'}`);
      }
    }
    throw new Error(`Slack refused every token (${last ?? 'no answer'})`);
  };

  return {
    async ask(token, userId, m) {
      const res = await client.chat.postMessage({
        token,
        channel: userId,
        text: m.text,
        ...(m.blocks ? { blocks: m.blocks } : {}),
      });
      return { channel: String(res.channel ?? ''), ts: String(res.ts ?? '') };
    },
    async tell(userId, m) {
      await client.chat.postMessage({
        channel: userId,
        text: m.text,
        ...(m.blocks ? { blocks: m.blocks } : {}),
        unfurl_links: false,
        unfurl_media: false,
      });
    },
    async redraw(dm, m) {
      await client.chat.update({
        channel: dm.channel,
        ts: dm.ts,
        text: m.text,
        ...(m.blocks ? { blocks: m.blocks } : {}),
      });
    },
    complete: (executionId, outputs, tokens) =>
      withTokens(tokens, (token) =>
        client.functions.completeSuccess({ ...(token ? { token } : {}), function_execution_id: executionId, outputs }),
      ),
    fail: (executionId, error, tokens) =>
      withTokens(tokens, (token) =>
        client.functions.completeError({ ...(token ? { token } : {}), function_execution_id: executionId, error }),
      ),
    async nameOf(userId) {
      const res = await client.users.info({ user: userId });
      const u = res.user as { name?: string; profile?: { display_name?: string } } | undefined;
      const name = u?.profile?.display_name || u?.name;
      return name ? `@${name}` : `<@${userId}>`;
    },
  };
}
