import type { SectionBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { projectOf } from '../../../src/gitlab/project.js';
import type { Job } from '../../../src/gitlab/schemas.js';
import { formatDuration } from '../../../src/views/format.js';
import { jobActionsFor, jobRow, jobUrl } from '../../../src/views/jobs.js';
import { truncate } from '../../../src/views/limits.js';
import { bold, code, italic, linked, md } from '../../../src/views/mrkdwn.js';
import { statusEmoji } from '../../../src/views/status.js';

// A job row writes its text in one template rather than through the markup helpers: it must be the very text the
// helpers make, for hostile server text too (entities, links, backticks, bars, newlines, long titles, odd statuses).

const SERVER = 'https://gitlab.example.com';
const nasty = ['', 'plain', '<!here> & <@U1>', 'a|b`c`', 'x\ny', '*_~', '😀 \ud800', 'é · —', 'y'.repeat(150)];
const statuses = ['success', 'failed', 'canceled', 'manual', 'running', 'pending', 'created', 'skipped', '<b>&'];
const urls = [undefined, `${SERVER}/demo/web/-/jobs/7`, `${SERVER}/a b|c>`, 'https://elsewhere.example.com/x', 'junk'];

/** The row's text as the helpers write it. */
function helperText(job: Job, serverUrl: string): string {
  const url = jobUrl(serverUrl, projectOf('demo/web'), job);
  const seconds =
    typeof job.duration === 'number'
      ? job.duration
      : job.started_at && job.finished_at
        ? (Date.parse(job.finished_at) - Date.parse(job.started_at)) / 1000
        : null;
  const shown =
    seconds === null || !Number.isFinite(seconds)
      ? null
      : seconds >= 0 && seconds < 1
        ? '<1s'
        : formatDuration(seconds);
  const duration = shown !== null ? ` · ${shown}` : '';
  const by = job.user ? md` · ${job.user.username}` : '';
  const commit = job.commit ? md`\n${italic(truncate(job.commit.title, 100))}` : '';
  return md`${statusEmoji(job.status)} ${bold(linked(url, `#${job.id}`))} ${job.name} · ${job.stage} · ${code(job.ref)} · ${job.status}${duration}${by}${commit}`
    .text;
}

describe('a job row', () => {
  it('writes the text the markup helpers write, and the action jobActionsFor puts first', () => {
    let rows = 0;
    for (let i = 0; i < 600; i++) {
      const at = (list: readonly unknown[], k: number) => list[(i * k + (i >> 3)) % list.length];
      const job = {
        id: 1000 + i,
        name: at(nasty, 1),
        stage: at(nasty, 3),
        ref: at(nasty, 5),
        status: at(statuses, 7),
        web_url: at(urls, 11),
        duration: at([undefined, null, 0, 0.4, 59.6, 3601, -2], 13),
        started_at: at([null, '2026-03-03T11:00:00Z'], 17),
        finished_at: at([null, '2026-03-03T11:00:00.300Z', 'soon'], 19),
        user: at([null, { username: at(nasty, 23) }], 29),
        commit: at([null, { title: at(nasty, 31) }], 37),
        artifacts_file: null,
      } as unknown as Job;
      const row = jobRow(job, { project: projectOf('demo/web'), place: null, slot: i, serverUrl: SERVER });
      expect((row as SectionBlock).text?.text).toBe(helperText(job, SERVER));
      const primary = jobActionsFor(job).find((a) => a === 'retry' || a === 'play' || a === 'cancel');
      const label = (row as SectionBlock).accessory as { text: { text: string } };
      expect(label.text.text).toBe(primary ? { retry: 'Retry', play: 'Play', cancel: 'Cancel' }[primary] : 'Details');
      rows++;
    }
    expect(rows).toBe(600);
  });
});
