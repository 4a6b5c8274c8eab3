import { createCaller } from './call.js';
import type { Transport } from './http.js';
import type { Page, PageOptions } from './paginate.js';
import { encodeProject, encodeSegment, type ProjectRef } from './paths.js';
import { type Project, projectLabel } from './project.js';
import { type AwardEmoji, AwardEmojiSchema } from './schemas.js';

/** What can carry award emoji: an issue or merge request (by iid) or a snippet (by id), or one of its notes. */
export interface Awardable {
  kind: 'issue' | 'merge_request' | 'snippet';
  project: ProjectRef;
  /** The issue/merge request iid, or the snippet id. */
  iid: number;
  /** Set to address the award emoji of this note of the awardable instead. */
  noteId?: number;
}

export interface AwardEmojiApi {
  list(awardable: Awardable, options?: PageOptions): Promise<Page<AwardEmoji>>;
  get(awardable: Awardable, awardId: number): Promise<AwardEmoji>;
  /** `name` without colons (`thumbsup`). */
  award(awardable: Awardable, name: string): Promise<AwardEmoji>;
  remove(awardable: Awardable, awardId: number): Promise<void>;
}

const COLLECTIONS: Record<Awardable['kind'], string> = {
  issue: 'issues',
  merge_request: 'merge_requests',
  snippet: 'snippets',
};

const SIGILS: Record<Awardable['kind'], string> = { issue: '#', merge_request: '!', snippet: '$' };

/** How people write an awardable: `demo/web#4`, `demo/web!2`, `demo/web$5` (a snippet by its id). */
export function awardableRef(kind: Awardable['kind'], projectLabel: string, iid: number): string {
  return `${projectLabel}${SIGILS[kind]}${iid}`;
}

/** An awardable as the bot knows it (its project with the path, for labels and links). */
export interface AwardTarget {
  kind: Awardable['kind'];
  project: Project;
  /** The issue or merge request iid, or the snippet id. */
  iid: number;
  noteId?: number;
}

/** Where the emoji are, as people refer to it: `demo/web#4`, or `note 305 of demo/web#4`. */
export function awardTargetRef(t: AwardTarget): string {
  const ref = awardableRef(t.kind, projectLabel(t.project), t.iid);
  return t.noteId === undefined ? ref : `note ${t.noteId} of ${ref}`;
}

function awardEmojiPath(awardable: Awardable): string {
  const owner = `projects/${encodeProject(awardable.project)}/${COLLECTIONS[awardable.kind]}/${encodeSegment(awardable.iid)}`;
  const note = awardable.noteId === undefined ? '' : `/notes/${encodeSegment(awardable.noteId)}`;
  return `${owner}${note}/award_emoji`;
}

export function createAwardEmojiApi(transport: Transport, token: string): AwardEmojiApi {
  const call = createCaller(transport, token);

  return {
    list: (awardable, options = {}) => call.list(awardEmojiPath(awardable), AwardEmojiSchema, { ...options }),
    get: (awardable, awardId) => call.get(`${awardEmojiPath(awardable)}/${encodeSegment(awardId)}`, AwardEmojiSchema),
    award: (awardable, name) => call.send('POST', awardEmojiPath(awardable), AwardEmojiSchema, { name }),
    remove: (awardable, awardId) => call.sendVoid('DELETE', `${awardEmojiPath(awardable)}/${encodeSegment(awardId)}`),
  };
}
