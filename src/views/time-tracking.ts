import { type Project, projectLabel, projectPageUrl } from '../gitlab/project.js';
import type { TimeStats } from '../gitlab/schemas.js';
import { formatSeconds } from '../grammar/duration.js';
import { type Block, context, fields, message, type SlackMessage, section } from './blocks.js';
import { bold, linked, md } from './mrkdwn.js';
import { type Notice, noticeBlocks } from './notice.js';

// Time tracking reads one way on issues and merge requests: the same card, the same line after a change.

export type Tracked = 'issue' | 'merge_request';

/** GitLab's human form when the server sends it, else the seconds written the same way; null for none. */
export function humanTime(human: string | null | undefined, seconds: number): string | null {
  if (human) return human;
  return seconds > 0 ? formatSeconds(seconds) : null;
}

/** `demo/web#3` or `demo/web!2`, as references are written. */
export function trackedRef(kind: Tracked, project: Project, iid: number): string {
  return `${projectLabel(project)}${kind === 'issue' ? '#' : '!'}${iid}`;
}

/** "3h on issue demo/web#4": what a time-tracking notice says was done, and on what. */
export function trackedDetail(kind: Tracked, project: Project, iid: number, duration?: string): string {
  const what = `${kind === 'issue' ? 'issue' : 'merge request'} ${trackedRef(kind, project, iid)}`;
  return duration ? `${duration} on ${what}` : what;
}

export function buildTimeTracking(
  { kind, project, iid }: { kind: Tracked; project: Project; iid: number },
  stats: TimeStats,
  options: { serverUrl: string; notice?: Notice | undefined },
): SlackMessage {
  const ref = trackedRef(kind, project, iid);
  const url = projectPageUrl(options.serverUrl, project, `${kind === 'issue' ? 'issues' : 'merge_requests'}/${iid}`);
  const estimate = humanTime(stats.human_time_estimate, stats.time_estimate);
  const spent = humanTime(stats.human_total_time_spent, stats.total_time_spent);
  const blocks: Block[] = [
    section(md`:stopwatch: ${bold(md`Time tracking of ${linked(url, ref)}`)}`),
    fields([md`*Estimate*\n${estimate ?? 'none'}`, md`*Spent*\n${spent ?? 'nothing yet'}`]),
  ];
  const over = stats.time_estimate > 0 && stats.total_time_spent > stats.time_estimate;
  if (over) blocks.push(context([md`:warning: More time spent than estimated.`]));
  blocks.push(...noticeBlocks(options.notice));
  const noun = kind === 'issue' ? 'Issue' : 'Merge request';
  return message(md`${noun} ${ref}: estimate ${estimate ?? 'none'}, spent ${spent ?? 'nothing'}`, blocks);
}
