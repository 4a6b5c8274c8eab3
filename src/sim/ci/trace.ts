// Realistic CI output for the fake runner's jobs: the runner preamble, the
// job's own script by its name, and the result line, colours included as a
// real runner prints them. A failed job fails the way its kind does: a build
// with a compiler error, lint with ESLint's errors, tests with a failing test,
// a deploy at its health check, anything else at its script's last command.

import type { CommitRecord, JobRecord, RunnerRecord } from '../model.js';

const GREEN = '\u001b[32;1m';
const RED = '\u001b[31;1m';
const RESET = '\u001b[0;m';
const RED_TEXT = '\u001b[31m';
const YELLOW = '\u001b[33m';
const CYAN = '\u001b[36m';
const GREY = '\u001b[90m';

export interface TraceInput {
  job: JobRecord;
  projectPath: string;
  projectId: number;
  commit: CommitRecord | undefined;
  runner: RunnerRecord | undefined;
}

function preamble({ job, projectPath, projectId, commit, runner }: TraceInput): string[] {
  const short = commit?.short_id ?? job.sha.slice(0, 8);
  const runnerName = runner?.description ?? 'shared-runner';
  return [
    `Running with gitlab-runner 10.0.2 (a9a76a50)`,
    `  on ${runnerName} (${(runner?.id ?? 0).toString(16).padStart(8, '0')})`,
    `Using Docker executor with image node:20-alpine ...`,
    `Using docker image sha256:4b5b9e1c2e0a61b0d1c7e6c2a8e3f6d1d2c1b0a9 for predefined container...`,
    `Pulling docker image node:20-alpine ...`,
    `Using docker image node:20-alpine ID=sha256:91f5c2e4d3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8 for build container...`,
    `Running on runner-${projectId}-project-${projectId}-concurrent-0 via ${runnerName}...`,
    `${GREEN}Fetching changes...${RESET}`,
    `Removing node_modules/`,
    `HEAD is now at ${short} ${commit?.title ?? ''}`.trimEnd(),
    `From ${projectPath}`,
    ` * [new ref]         refs/pipelines/${job.pipeline_id} -> refs/pipelines/${job.pipeline_id}`,
    `${GREEN}Checking out ${short} as ${job.ref}...${RESET}`,
    `${GREEN}Skipping Git submodules setup${RESET}`,
    `${GREEN}Checking cache for ${job.ref}-node-modules...${RESET}`,
    `Successfully extracted cache`,
    `${GREEN}$ node --version${RESET}`,
    `v20.11.1`,
    `${GREEN}$ npm ci --prefer-offline --no-audit${RESET}`,
    `added 812 packages in 14s`,
    ``,
    `148 packages are looking for funding`,
    `  run \`npm fund\` for details`,
  ];
}

function compileScript(failed: boolean): string[] {
  const lines = [
    `${GREEN}$ npm run build${RESET}`,
    ``,
    `> web@1.4.0 build`,
    `> tsc -p tsconfig.build.json && vite build`,
    ``,
  ];
  if (failed) {
    return lines.concat([
      `${CYAN}src/cart/totals.ts${RESET}:${YELLOW}42${RESET}:${YELLOW}7${RESET} - ${RED_TEXT}error${RESET}${GREY} TS2322: ${RESET}Type 'string' is not assignable to type 'number'.`,
      ``,
      `42   grand = formatMoney(sum);`,
      `     ~~~~~`,
      ``,
      `${CYAN}src/cart/checkout.ts${RESET}:${YELLOW}17${RESET}:${YELLOW}24${RESET} - ${RED_TEXT}error${RESET}${GREY} TS2339: ${RESET}Property 'grandTotal' does not exist on type 'Totals'.`,
      ``,
      `17   return charge(totals.grandTotal);`,
      `                          ~~~~~~~~~~`,
      ``,
      ``,
      `Found 2 errors in 2 files.`,
      ``,
      `Errors  Files`,
      `     1  src/cart/checkout.ts:17`,
      `     1  src/cart/totals.ts:42`,
    ]);
  }
  return lines.concat([
    `vite v5.1.4 building for production...`,
    `transforming...`,
    `✓ 412 modules transformed.`,
    `rendering chunks...`,
    `computing gzip size...`,
    `dist/index.html                    0.46 kB │ gzip:  0.30 kB`,
    `dist/assets/index-4f2a9c1e.css    18.92 kB │ gzip:  4.71 kB`,
    `dist/assets/vendor-8b1d3e77.js   141.33 kB │ gzip: 45.46 kB`,
    `dist/assets/index-c0ffee42.js     96.18 kB │ gzip: 31.02 kB`,
    `✓ built in 6.84s`,
  ]);
}

function lintScript(failed: boolean): string[] {
  const lines = [`${GREEN}$ npm run lint${RESET}`, ``, `> web@1.4.0 lint`, `> eslint . --max-warnings=0`, ``];
  if (failed) {
    return lines.concat([
      `/builds/demo/web/src/cart/totals.ts`,
      `  12:7   ${RED_TEXT}error${RESET}  'roundLine' is assigned a value but never used  ${GREY}@typescript-eslint/no-unused-vars${RESET}`,
      `  40:15  ${RED_TEXT}error${RESET}  Unexpected any. Specify a different type       ${GREY}@typescript-eslint/no-explicit-any${RESET}`,
      ``,
      `/builds/demo/web/src/catalog/search.ts`,
      `  3:1  ${YELLOW}warning${RESET}  Unexpected console statement  ${GREY}no-console${RESET}`,
      ``,
      `${RED_TEXT}✖ 3 problems (2 errors, 1 warning)${RESET}`,
      ``,
    ]);
  }
  return lines.concat([`${GREEN}$ npm run typecheck${RESET}`, ``, `> web@1.4.0 typecheck`, `> tsc --noEmit`, ``]);
}

function testScript(failed: boolean): string[] {
  const lines = [
    `${GREEN}$ npm test -- --coverage${RESET}`,
    ``,
    `> web@1.4.0 test`,
    `> vitest run --coverage`,
    ``,
    ` RUN  v1.3.1 /builds/web`,
    `      Coverage enabled with v8`,
    ``,
    ` ✓ src/catalog/search.test.ts  (18 tests) 41ms`,
    ` ✓ src/catalog/product-card.test.tsx  (9 tests) 122ms`,
    ` ✓ src/checkout/address-form.test.tsx  (12 tests) 203ms`,
    ` ✓ src/checkout/payment.test.ts  (15 tests) 57ms`,
    ` ✓ src/account/order-history.test.tsx  (7 tests) 88ms`,
  ];
  if (failed) {
    return lines.concat([
      ` ❯ src/cart/totals.test.ts  (14 tests | 1 failed) 38ms`,
      `   ❯ src/cart/totals.test.ts > cart totals > rounds each line before summing`,
      `     → expected 59.96 to be 59.97 // Object.is equality`,
      ``,
      `⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯`,
      ``,
      ` FAIL  src/cart/totals.test.ts > cart totals > rounds each line before summing`,
      `AssertionError: expected 59.96 to be 59.97 // Object.is equality`,
      ``,
      `- Expected`,
      `+ Received`,
      ``,
      `- 59.97`,
      `+ 59.96`,
      ``,
      ` ❯ src/cart/totals.test.ts:42:31`,
      `     40|     const cart = buildCart([{ sku: 'MUG-01', price: 19.99, qty: 3 }]);`,
      `     41|     const totals = computeTotals(cart, { currency: 'EUR' });`,
      `     42|     expect(totals.grand).toBe(59.97);`,
      `       |                               ^`,
      `     43|   });`,
      ``,
      ` Test Files  1 failed | 22 passed (23)`,
      `      Tests  1 failed | 186 passed (187)`,
      `   Start at  09:41:07`,
      `   Duration  9.12s`,
      ``,
    ]);
  }
  return lines.concat([
    ` ✓ src/cart/totals.test.ts  (14 tests) 38ms`,
    ``,
    ` Test Files  23 passed (23)`,
    `      Tests  187 passed (187)`,
    `   Start at  09:41:07`,
    `   Duration  9.04s`,
    ``,
    ` % Coverage report from v8`,
    `-------------------|---------|----------|---------|---------|`,
    `File               | % Stmts | % Branch | % Funcs | % Lines |`,
    `-------------------|---------|----------|---------|---------|`,
    `All files          |   84.21 |    78.93 |   81.40 |   84.21 |`,
    `-------------------|---------|----------|---------|---------|`,
  ]);
}

function deployScript(job: JobRecord, commit: CommitRecord | undefined, failed: boolean): string[] {
  const env = job.name.includes(':') ? (job.name.split(':')[1] ?? 'review') : 'review';
  const host = env === 'production' ? 'web.demo.example' : `${env}.web.demo.example`;
  const lines = [
    `${GREEN}$ ./scripts/deploy.sh ${env}${RESET}`,
    `Deploying web@${commit?.short_id ?? job.sha.slice(0, 8)} to ${env}`,
    `Syncing dist/ to s3://demo-web-${env}/ ...`,
    `upload: dist/index.html to s3://demo-web-${env}/index.html`,
    `upload: dist/assets/index-c0ffee42.js to s3://demo-web-${env}/assets/index-c0ffee42.js`,
    `upload: dist/assets/vendor-8b1d3e77.js to s3://demo-web-${env}/assets/vendor-8b1d3e77.js`,
    `upload: dist/assets/index-4f2a9c1e.css to s3://demo-web-${env}/assets/index-4f2a9c1e.css`,
    `Invalidating CDN cache for /* ...`,
  ];
  if (failed) {
    return lines.concat([
      `Waiting for https://${host}/healthz ...`,
      `curl: (22) The requested URL returned error: 503`,
      `Health check of https://${host}/healthz failed after 5 attempts`,
      `Rolling back ${env} to the previous release`,
    ]);
  }
  return lines.concat([
    `Waiting for https://${host}/healthz ... 200 OK`,
    `Environment ${env} is live at https://${host}`,
  ]);
}

function genericScript(job: JobRecord, failed: boolean): string[] {
  const name = job.name.replace(/[^\w-]+/g, '-');
  if (failed) {
    return [
      `${GREEN}$ ./scripts/ci/${name}.sh${RESET}`,
      `${job.name}: checking release notes, licences and bundle size`,
      `bundle size: dist/assets/index-c0ffee42.js is 312 kB, over the 250 kB budget`,
      `${job.name}: 1 check failed`,
    ];
  }
  return [`${GREEN}$ ./scripts/ci/${name}.sh${RESET}`, `${job.name}: all checks passed`];
}

function script(input: TraceInput, failed: boolean): string[] {
  const name = input.job.name;
  if (name === 'compile' || name.startsWith('build')) return compileScript(failed);
  if (name === 'lint') return lintScript(failed);
  if (name.includes('test')) return testScript(failed);
  if (name.startsWith('deploy') || name.startsWith('review') || name.startsWith('release'))
    return deployScript(input.job, input.commit, failed);
  return genericScript(input.job, failed);
}

/** The trace so far of a job that has started. */
export function runningTrace(input: TraceInput): string {
  return `${preamble(input).join('\n')}\n`;
}

/** The whole trace of a finished job (`success`, `failed` or `canceled`). */
export function finishedTrace(input: TraceInput): string {
  const { job } = input;
  const lines = preamble(input);
  if (job.status === 'canceled') {
    lines.push(...script(input, false).slice(0, 4), `${RED}ERROR: Job failed: canceled${RESET}`);
    return `${lines.join('\n')}\n`;
  }
  const failed = job.status === 'failed';
  lines.push(...script(input, failed));
  if (failed) {
    lines.push(`${RED}ERROR: Job failed: exit code 1${RESET}`);
    return `${lines.join('\n')}\n`;
  }
  if (job.makes_artifacts) {
    lines.push(
      `${GREEN}Creating cache ${job.ref}-node-modules...${RESET}`,
      `node_modules/: found 41234 matching files`,
      `Created cache`,
      `${GREEN}Uploading artifacts...${RESET}`,
      `dist/: found 6 matching files`,
      `coverage/: found 3 matching files`,
      `Uploading artifacts to coordinator... ok${RESET}        id=${job.id} responseStatus=201 Created`,
    );
  }
  lines.push(`${GREEN}Job succeeded${RESET}`);
  return `${lines.join('\n')}\n`;
}
