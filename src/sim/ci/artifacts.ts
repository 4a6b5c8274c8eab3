// The artifacts archive a job leaves: a small real ZIP whose bytes depend only
// on the job, so the size listed on the job matches every download.

import type { ArtifactsRecord, CommitRecord, JobRecord } from '../model.js';
import { buildZip } from '../zip.js';

export const ARTIFACTS_FILENAME = 'artifacts.zip';

export function artifactsArchive(job: JobRecord, commit: CommitRecord | undefined): Buffer {
  const stamp = new Date(job.finished_at ?? job.created_at);
  const built = `web ${job.ref}@${commit?.short_id ?? job.sha.slice(0, 8)} (job ${job.id}, ${job.name})`;
  return buildZip(
    [
      { name: 'dist/BUILD_INFO.txt', content: `${built}\nbuilt at ${stamp.toISOString()}\n` },
      {
        name: 'dist/index.html',
        content:
          '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Demo Web</title></head>\n<body><div id="app"></div><script type="module" src="/assets/index.js"></script></body>\n</html>\n',
      },
      {
        name: 'coverage/coverage-summary.json',
        content: '{"total":{"lines":{"pct":84.21},"statements":{"pct":84.21},"branches":{"pct":78.93}}}\n',
      },
    ],
    stamp,
  );
}

export function artifactsRecordFor(
  job: JobRecord,
  commit: CommitRecord | undefined,
  expireAt: string | null,
): ArtifactsRecord {
  return { filename: ARTIFACTS_FILENAME, size: artifactsArchive(job, commit).length, expire_at: expireAt };
}
