import type { Event, Todo } from '../gitlab/schemas.js';
import { channelMention, code, type Md, md } from './mrkdwn.js';

// Who reads a message decides what it may say, and it is decided here, once, for every view. A person reads
// what their own token let the bot read (an ephemeral answer, a DM, their Home). A channel is read by people the
// bot cannot check one by one, so it reads only what any of them may: a confidential issue keeps its number, its
// state and its link (which GitLab guards), but not its title, description or labels. Surfaces that post where
// others read (a shared card or list, a digest posted in a channel, a thread reply, a link preview) say which
// audience they draw for and pass what they show through here; the person who asks to share something
// confidential is asked first (`askBeforeSharing`), with No as the default.

export type Audience = 'person' | 'channel';

/** The audience of an answer: the channel when it is posted there (`--share`, Share, `--here`), else its person. */
export function audienceOf(inChannel: boolean | undefined): Audience {
  return inChannel ? 'channel' : 'person';
}

/** What a channel reads instead of a confidential issue's title. */
export const CONFIDENTIAL_TITLE = 'Confidential issue';

interface IssueLike {
  title: string;
  confidential?: boolean | null | undefined;
  description?: string | null | undefined;
  labels?: readonly string[] | undefined;
}

/** Whether the audience may read the issue's title, description and labels. */
export function mayRead(audience: Audience, issue: { confidential?: boolean | null | undefined }): boolean {
  return audience === 'person' || issue.confidential !== true;
}

/** The issue as the audience may read it: a channel reads a confidential one by its number and state alone. */
export function issueFor<T extends IssueLike>(audience: Audience, issue: T): T {
  if (mayRead(audience, issue)) return issue;
  return {
    ...issue,
    title: CONFIDENTIAL_TITLE,
    ...('description' in issue ? { description: null } : {}),
    ...('labels' in issue ? { labels: [] } : {}),
  };
}

/** A todo as the audience may read it: one about a confidential issue loses the issue's words and the comment. */
export function todoFor(audience: Audience, todo: Todo): Todo {
  if (todo.target_type !== 'Issue' || mayRead(audience, todo.target)) return todo;
  return { ...todo, body: '', target: issueFor(audience, todo.target) };
}

/**
 * How a link preview may reach a channel: `public` at once; `members` (a non-public project) once its poster says
 * Show, or at once after they said Always for the channel; `confidential` only each time its poster says Show.
 */
export type PreviewOpenness = 'public' | 'members' | 'confidential';

export function previewOpenness(p: { isPublic: boolean; confidential: boolean }): PreviewOpenness {
  if (p.confidential) return 'confidential';
  return p.isPublic ? 'public' : 'members';
}

/** The question before something confidential is shared: "#7 is confidential: share its title in #demo?" */
export function askBeforeSharing(what: string, channelId: string | null): Md {
  const where = channelId ? channelMention(channelId) : 'this channel';
  return md`${what} is confidential: share its title and description in ${where}? Everyone there will read them.`;
}

/** Commands whose answers go on being posted into the channel they were typed in (watch cards). */
const POSTS_IN_CHANNEL: ReadonlySet<string> = new Set(['watch.pipelines']);

/**
 * Whether a command would post into the channel what it reads from the channel's default project, leaning on that
 * default (no project given) when the channel was told the default is not public: the channel would then read
 * the name it was never told. Such a command is refused with `hiddenDefaultNotShared`, before anything is read.
 */
export function sharesHiddenDefault(
  command: { key: string; share?: boolean; target?: unknown },
  channelDefault: { hidden: boolean } | null,
): boolean {
  if (!channelDefault?.hidden) return false;
  if (!command.share && !POSTS_IN_CHANNEL.has(command.key)) return false;
  const target = command.target as { project?: unknown } | undefined;
  return typeof target === 'object' && target !== null && 'project' in target && target.project === null;
}

export function hiddenDefaultNotShared(slashCommand: string): Md {
  return md`This channel's default project is not public, so the channel was never told its name, and this would post it here. Name the project to do it anyway (${code(`${slashCommand} jobs group/project --share`)}), or leave out ${code('--share')} to see it alone.`;
}

/** The issue an event is about (`project:iid`), when it is about one: opened, closed, or a comment on it. */
export function issueOfEvent(e: Event): string | null {
  if (e.project_id === null) return null;
  if (e.note)
    return e.note.noteable_type === 'Issue' && e.note.noteable_iid != null
      ? `${e.project_id}:${e.note.noteable_iid}`
      : null;
  return e.target_type === 'Issue' && e.target_iid != null ? `${e.project_id}:${e.target_iid}` : null;
}

/**
 * An event as the audience may read it: for a channel, one about a confidential issue (`confidential` holds the
 * `issueOfEvent` keys of those) keeps who did what to which number, without the issue's title or the comment.
 */
export function eventFor(audience: Audience, e: Event, confidential: ReadonlySet<string>): Event {
  const issue = audience === 'channel' ? issueOfEvent(e) : null;
  if (issue === null || !confidential.has(issue)) return e;
  return {
    ...e,
    target_title: CONFIDENTIAL_TITLE,
    ...(e.note ? { note: { ...e.note, body: '(a comment on a confidential issue)' } } : {}),
  };
}
