import type { ModalView } from '@slack/types';
import { ProjectRequiredError, UnknownPersonError } from '../errors.js';
import { NotFoundError } from '../gitlab/errors.js';
import { type Project, projectButtonKey, projectLabel, projectOf } from '../gitlab/project.js';
import { callbackIdFor, encodeModalMetadata, type ModalValue } from '../ids.js';
import { IssueFormFields, IssueModals } from '../modals/issues.js';
import type { RequestContext } from '../operations/context.js';
import type { IssueOperations } from '../operations/issues.js';
import { draftIssue, type MessageForIssue } from '../views/issue-draft.js';
import { buildIssueForm, readIssueForm, readProjectField, unknownAssignee } from '../views/issue-form.js';
import { buildIssueCreatedFromMessage } from '../views/issues.js';
import { mentionedUsers } from '../views/slack-markup.js';
import { refOf } from './support.js';
import type { ModalAnswer, ModalContext, Platform } from './types.js';

// "Create issue" on a Slack message: the issue form of `/gl issue create`, filled in from the message, for the
// channel's default project (or with a Project field when the channel has none); submitted, the issue is created
// as the person and the answer goes into the message's thread.

/** Mentions looked up for one message; more are written with the name the mention carries. */
const MENTIONS_LOOKED_UP = 20;

/** The message the shortcut was used on, as the listener read it from Slack. */
export interface ShortcutMessage extends MessageForIssue {
  /** The thread the answer goes to: the message's own thread, or the one it starts. */
  threadTs: string;
  /** The shortcut's response_url: the person's private answers when the bot cannot post in the channel. */
  responseUrl: string | null;
}

/**
 * How a mentioned person is written in the issue: `@username` when they connected their account (the server then
 * links them), else their Slack name in code, so that it cannot mention someone else who has that username there.
 */
async function mentionWriter(
  ctx: RequestContext,
  platform: Platform,
  text: string,
  slackName: (userId: string) => Promise<string | null>,
): Promise<(userId: string, given: string | null) => string> {
  const ids = mentionedUsers(text).slice(0, MENTIONS_LOOKED_UP);
  const written = new Map<string, string>();
  await Promise.all(
    ids.map(async (id) => {
      try {
        written.set(id, `@${await platform.people.idOrUsername(ctx, { kind: 'slack', userId: id })}`);
      } catch (err) {
        if (!(err instanceof UnknownPersonError)) throw err;
        const name = await slackName(id);
        if (name) written.set(id, `\`@${name.replace(/`/g, "'")}\``);
      }
    }),
  );
  return (id, given) => written.get(id) ?? `\`@${(given ?? 'someone').replace(/`/g, "'")}\``;
}

/** The project the channel uses by default, as the server knows it; null when the channel has none. */
async function channelProject(
  ctx: RequestContext,
  platform: Platform,
  ops: IssueOperations,
): Promise<{ project: Project; isPublic: boolean } | null> {
  let project: Project;
  try {
    project = await platform.resolveProject(ctx, null);
  } catch (err) {
    if (err instanceof ProjectRequiredError) return null;
    throw err;
  }
  return ops.projectSeen(ctx, project);
}

/** The prefilled form for a message; throws (not connected, no such project) before any form is opened. */
export async function openIssueFromMessage(
  ctx: RequestContext,
  platform: Platform,
  ops: IssueOperations,
  { message, slackName }: { message: ShortcutMessage; slackName: (userId: string) => Promise<string | null> },
): Promise<ModalView> {
  // Not connected: the Connect prompt, and no form.
  await ctx.session.token();
  const [seen, writeMention] = await Promise.all([
    channelProject(ctx, platform, ops),
    mentionWriter(ctx, platform, message.text, slackName),
  ]);
  const draft = draftIssue(message, writeMention);
  const project = seen?.project ?? null;
  const metadata = encodeModalMetadata(
    IssueModals.fromMessage,
    ctx.channelId,
    {
      ...(project ? { p: projectButtonKey(project) } : {}),
      ...(seen && !seen.isPublic ? { h: 1 as const } : {}),
      th: message.threadTs,
    },
    { responseUrl: message.responseUrl, at: ctx.now },
  );
  return buildIssueForm({
    projectLabel: project ? projectLabel(project) : null,
    metadata,
    callbackId: callbackIdFor(IssueModals.fromMessage),
    initial: {
      ...(draft.title ? { title: draft.title } : {}),
      ...(draft.description ? { description: draft.description } : {}),
    },
  });
}

/** The form submitted: checked (the project too, when it was typed), then the issue, answered in the thread. */
export async function submitIssueFromMessage(
  value: ModalValue<typeof IssueModals.fromMessage>,
  ctx: ModalContext,
  platform: Platform,
  ops: IssueOperations,
): Promise<ModalAnswer> {
  const read = readIssueForm(ctx.values);
  const errors: Record<string, string> = {};
  if (!read.ok)
    for (const [field, error] of Object.entries(read.errors)) if (error !== undefined) errors[field] = error;
  let typed: Project | null = null;
  let hidden = value.h === 1;
  if (value.p === undefined) {
    const field = readProjectField(ctx.values);
    if (!field.ok) errors[IssueFormFields.project] = field.error;
    else {
      try {
        const seen = await ops.projectSeen(ctx, projectOf(field.path));
        typed = seen.project;
        hidden = !seen.isPublic;
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        errors[IssueFormFields.project] = `There is no project ${field.path}, or you have no access to it.`;
      }
    }
  }
  if (!read.ok || Object.keys(errors).length > 0) return { kind: 'errors', errors };
  const form = read.form;
  let assigneeIds: number[];
  try {
    assigneeIds = await platform.people.ids(ctx, form.assignees);
  } catch (err) {
    if (!(err instanceof UnknownPersonError)) throw err;
    return { kind: 'errors', errors: { [IssueFormFields.assignees]: unknownAssignee(err.reason, err.who) } };
  }
  return {
    kind: 'accept',
    reply: async () => {
      const project = typed ?? (await platform.resolveProject(ctx, refOf(value.p as string | number)));
      const issue = await ops.create(ctx, project, {
        title: form.title,
        ...(form.description !== undefined ? { description: form.description } : {}),
        ...(form.labels.length ? { labels: form.labels } : {}),
        ...(assigneeIds.length ? { assignee_ids: assigneeIds } : {}),
        ...(form.due ? { due_date: form.due } : {}),
        ...(form.confidential ? { confidential: true } : {}),
      });
      return {
        kind: 'thread',
        threadTs: value.th,
        message: buildIssueCreatedFromMessage(project, issue, {
          actorId: ctx.actor.userId,
          serverUrl: platform.serverUrl,
          projectIsPublic: !hidden,
        }),
      };
    },
  };
}
