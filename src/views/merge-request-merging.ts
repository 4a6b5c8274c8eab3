import type { ModalView } from '@slack/types';
import type { OpenMergeButtonValue } from '../buttons/merge-requests.js';
import type { Refusal } from '../errors.js';
import { type Project, projectButtonKey } from '../gitlab/project.js';
import type { MergeRequest, PipelineBasic } from '../gitlab/schemas.js';
import { callbackIdFor } from '../ids.js';
import { MergeModalInput, MrModals } from '../modals/merge-requests.js';
import { type Confirmation, context, plain, section } from './blocks.js';
import { LIMITS, truncate } from './limits.js';
import { bold, code, joinMd, type Md, md, mention, type Text } from './mrkdwn.js';
import { shortSha } from './status.js';

// Merging, in words: what stands in the way, what a refused merge means as things are now, the question a
// merge asks (on the modal and the typed prompt alike) and the modal itself, pinned to the head sha shown.

/** Why a merge request cannot be merged as it is now, or null when nothing stands in the way. */
export function mergeBlocker(mr: MergeRequest, o: { whenPipelineSucceeds?: boolean } = {}): Md | null {
  if (mr.state === 'merged') return md`Already merged${mr.merged_by ? md` by @${mr.merged_by.username}` : ''}.`;
  if (mr.state !== 'opened') return md`It is ${mr.state}, so it cannot be merged (reopen it first).`;
  if (mr.work_in_progress) return md`It is marked as work in progress: remove the WIP prefix from its title first.`;
  if (mr.merge_status === 'cannot_be_merged') {
    return md`It has conflicts with ${code(mr.target_branch)}: resolve them before merging.`;
  }
  if (o.whenPipelineSucceeds && mr.merge_when_pipeline_succeeds) {
    return md`It is already set to merge when the pipeline succeeds.`;
  }
  return null;
}

/**
 * What is true now when a merge from a card (or a prompt) was refused: the merge request as it is now
 * explains it. `pinned` is the head the person confirmed.
 */
export function mergeRefusedText(current: MergeRequest, pinned: string, refusal: Refusal): Md {
  const status = refusal.status ?? '?';
  if (refusal.reason === 'merge_denied') {
    return md`You may not merge into ${code(current.target_branch)} of this project (${status}): that needs the right to push to it.`;
  }
  if (current.state === 'opened' && current.sha && current.sha !== pinned) {
    return md`New commits were pushed since this card was drawn: the head is now ${code(shortSha(current.sha))}, not ${code(shortSha(pinned))}. Here is the card as it is now; merge again if you still want to.`;
  }
  const blocker = mergeBlocker(current);
  if (blocker) return blocker;
  if (current.merge_status === 'unchecked') {
    return md`GitLab is still checking whether it can be merged: try again in a moment.`;
  }
  const said = refusal.serverMessage ? md` The server said: “${truncate(refusal.serverMessage, 200)}”.` : '';
  return md`GitLab would not merge it right now (${status}).${said}`;
}

/** What a second merge that waited for the first finds. */
export function mergeJoinedText(current: MergeRequest, by: string): Md | null {
  if (current.state === 'merged') return md`Already merged by ${mention(by)} a moment ago.`;
  if (current.merge_when_pipeline_succeeds) {
    return md`Already set to merge when the pipeline succeeds by ${mention(by)} a moment ago.`;
  }
  return null;
}

export function mergedDetail(mr: MergeRequest, o: { askedToWait?: boolean } = {}): Md {
  const commit = mr.merge_commit_sha ? md`merge commit ${code(shortSha(mr.merge_commit_sha))}` : md`merged`;
  return o.askedToWait ? md`${commit} (at once: no pipeline of its head was running)` : commit;
}

export function autoMergeDetail(sha: string, pipeline: PipelineBasic | null): Md {
  return md`at ${code(shortSha(sha))}${pipeline ? md` once pipeline #${pipeline.id} succeeds` : ''}`;
}

/** The Merge button's value: what the modal shows, cut to fit Slack's 2000 characters whatever the names. */
export function openMergeValue(mr: MergeRequest, project: Project): OpenMergeButtonValue {
  const force = mr.force_remove_source_branch === true;
  const full: OpenMergeButtonValue = {
    p: projectButtonKey(project),
    i: mr.iid,
    s: mr.sha ?? '',
    t: truncate(mr.title, 150),
    sb: truncate(mr.source_branch ?? '', 200),
    tb: truncate(mr.target_branch, 200),
    r: force || mr.should_remove_source_branch === true,
    f: force,
  };
  if (JSON.stringify(full).length <= 1800) return full;
  return { ...full, t: truncate(mr.title, 40), sb: truncate(full.sb, 60), tb: truncate(full.tb, 60) };
}

/** The question a merge asks, on the modal and the typed prompt alike. */
export function mergeQuestion(v: { i: number; t: string; sb: string; tb: string; s: string }, auto: boolean): Md {
  const what = md`Merge !${v.i} ${bold(v.t)} — ${code(v.sb)} → ${code(v.tb)} at ${code(shortSha(v.s))}`;
  return auto ? md`${what} when its pipeline succeeds?` : md`${what}?`;
}

/** The card's Merge (or Merge when pipeline succeeds) opens this: the question, the pin, the source branch choice. */
export function buildMergeModal(v: OpenMergeButtonValue, auto: boolean, privateMetadata: string): ModalView {
  const pin = md`Only ${code(shortSha(v.s))} is merged: if commits were pushed after the card was drawn, nothing is merged and the card shows what changed.`;
  const wait = auto ? md` If its pipeline is no longer running, GitLab merges at once.` : '';
  const option = { text: plain(`Delete ${v.sb} once merged`, LIMITS.optionText), value: MergeModalInput.option };
  return {
    type: 'modal',
    callback_id: callbackIdFor(MrModals.merge),
    private_metadata: privateMetadata,
    title: plain(`Merge !${v.i}`, LIMITS.modalTitle),
    submit: plain(auto ? 'Merge when it passes' : 'Merge', LIMITS.modalButton),
    close: plain('Cancel', LIMITS.modalButton),
    blocks: [
      section(mergeQuestion(v, auto)),
      context([md`${pin}${wait}`]),
      {
        type: 'input',
        block_id: MergeModalInput.block,
        optional: true,
        label: plain('Source branch', LIMITS.inputLabel),
        ...(v.f
          ? {
              hint: plain(
                'Its author asked for this: GitLab deletes the branch even when this is left unticked.',
                2000,
              ),
            }
          : {}),
        element: {
          type: 'checkboxes',
          action_id: MergeModalInput.action,
          options: [option],
          ...(v.r ? { initial_options: [option] } : {}),
        },
      },
    ],
  };
}

/** What the typed `mr merge` asks before merging, naming what will be merged. */
export function mergeConfirmation(
  mr: MergeRequest,
  sha: string,
  o: { removeSourceBranch?: boolean; whenPipelineSucceeds?: boolean; message?: string },
): Confirmation {
  const question = mergeQuestion(
    { i: mr.iid, t: truncate(mr.title, 150), sb: mr.source_branch ?? '?', tb: mr.target_branch, s: sha },
    o.whenPipelineSucceeds === true,
  );
  const removes = o.removeSourceBranch || mr.force_remove_source_branch || mr.should_remove_source_branch;
  const after: Text[] = [];
  if (removes && mr.source_branch) after.push(md`${code(mr.source_branch)} is deleted once merged.`);
  if (o.message) after.push(md`Merge commit message: “${truncate(o.message, 300)}”.`);
  return {
    title: 'Merge this merge request?',
    question: after.length ? md`${question} ${joinMd(after, ' ')}` : question,
    confirm: 'Merge',
    yes: `Yes, merge !${mr.iid}`,
  };
}

/** A typed `--sha` that is not the head: nothing is sent, the card says what the head is. */
export function shaMismatchText(head: string, given: string): Md {
  return md`Its head is ${code(shortSha(head))}, not ${code(truncate(given, 64))}: new commits were pushed since that one, or it is another branch's. Look at the changes, then merge the head if that is what you want.`;
}
