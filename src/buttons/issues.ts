import { z } from 'zod';
import { defineButtons, Id, ProjectKeySchema } from '../ids.js';

// The buttons of issue cards and list rows: the project (`p`) and the issue's iid (`i`). Short keys keep
// values far below Slack's 2000 characters.

const IssueValue = z.object({ p: ProjectKeySchema, i: Id }).strict();

export const IssueButtons = defineButtons('issue', {
  show: IssueValue,
  close: IssueValue,
  reopen: IssueValue,
  subscribe: IssueValue,
  unsubscribe: IssueValue,
  todo: IssueValue,
  /** 👍: awards `thumbsup` as the person who clicks. */
  thumbsup: IssueValue,
  delete: IssueValue,
  /** Posts an ephemeral card (a new issue's) into the channel for everyone; a confidential one asks first. */
  share: IssueValue,
  /** "Yes, share it": the person's answer to the question before a confidential issue is shared. */
  shareConfidential: IssueValue,
});
