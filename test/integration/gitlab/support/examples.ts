import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** The conformance data sits beside the project: `../shared/conformance/gitlab-api-v4/examples`. */
export const examplesDir = path.resolve(projectRoot, '..', 'shared', 'conformance', 'gitlab-api-v4', 'examples');

/** A real 9.5 response body, e.g. `example('jobs/03-get-single-job')`. */
export function example(name: string): unknown {
  return JSON.parse(readFileSync(path.join(examplesDir, `${name}.json`), 'utf8'));
}
