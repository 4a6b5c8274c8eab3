import type { Todo } from '../gitlab/schemas.js';
import { channelMention, type Md, md } from './mrkdwn.js';

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
