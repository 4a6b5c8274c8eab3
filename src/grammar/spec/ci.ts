import type { NounSpec } from '../spec-types.js';
import { type RowSpec, rows } from './row.js';
import { DESCRIPTION, PAGING, SORT, TZ } from './shared.js';

const JOB_SCOPES = ['created', 'pending', 'running', 'failed', 'success', 'canceled', 'skipped', 'manual'] as const;
/** `--follow` on a read of one pipeline or job: its card keeps itself up to date until it finishes. */
const FOLLOW = {
  name: 'follow',
  type: 'bool',
  summary: 'keep the card up to date until it finishes (an hour at most); the result comes by DM',
} as const;

const PIPELINE_STATUSES = [
  'created',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
] as const;

export const CI_NOUNS = [
  {
    name: 'job',
    plural: 'jobs',
    group: 'ci',
    summary: 'CI jobs: list, show, retry, cancel, play, erase, keep artifacts, trace, artifacts',
    defaults: { plural: 'job.list', singular: 'job.list', singularTarget: 'job.show' },
  },
  {
    name: 'pipeline',
    plural: 'pipelines',
    group: 'ci',
    summary: 'CI pipelines: list, show with jobs by stage, run, retry, cancel',
    defaults: { plural: 'pipeline.list', singular: 'pipeline.list', singularTarget: 'pipeline.show' },
  },
  {
    name: 'schedule',
    plural: 'schedules',
    aliases: ['pipeline-schedule', 'pipeline-schedules'],
    group: 'ci',
    summary: 'pipeline schedules: list, show, create, edit, take ownership, activate, deactivate, delete',
    defaults: { plural: 'schedule.list', singular: 'schedule.list', singularTarget: 'schedule.show' },
  },
  {
    name: 'deployment',
    plural: 'deployments',
    aliases: ['deploy', 'deploys'],
    group: 'ci',
    summary: 'deployments: list, show',
    defaults: { plural: 'deployment.list', singular: 'deployment.list', singularTarget: 'deployment.show' },
  },
] as const satisfies readonly NounSpec[];

const JOB_ROWS = rows([
  {
    key: 'job.list',
    verbAliases: ['ls'],
    target: 'project',
    flags: [
      { name: 'scope', type: 'enum-list', values: JOB_SCOPES, summary: 'only jobs in these statuses' },
      { name: 'pipeline', type: 'int', min: 1, placeholder: '<id>', summary: 'only the jobs of this pipeline' },
      ...PAGING,
    ],
    access: 'read',
    summary: "a project's jobs, or one pipeline's",
    example: 'jobs demo/web --scope failed,manual',
  },
  {
    key: 'job.show',
    verbAliases: ['view', 'get'],
    target: 'job',
    flags: [FOLLOW],
    access: 'read',
    summary:
      'one job as a card with its buttons; a failed one says why (its trace’s explaining lines) and whether it is flaky',
    example: 'job demo/web 123',
  },
  {
    key: 'job.retry',
    target: 'job',
    access: 'write',
    summary: 'runs a finished job again',
    example: 'job retry demo/web 123',
  },
  {
    key: 'job.cancel',
    target: 'job',
    access: 'write',
    summary: 'cancels a created, pending or running job',
    example: 'job cancel 123',
  },
  {
    key: 'job.play',
    verbAliases: ['run', 'start'],
    target: 'job',
    access: 'write',
    summary: 'starts a manual job',
    example: 'job play demo/web 124',
  },
  {
    key: 'job.erase',
    target: 'job',
    access: 'write',
    summary: "erases a finished job's trace and artifacts",
    example: 'job erase demo/web 123',
  },
  {
    key: 'job.keep',
    verbAliases: ['keep-artifacts'],
    target: 'job',
    access: 'write',
    summary: "keeps a job's artifacts from expiring",
    example: 'job keep demo/web 123',
  },
  {
    key: 'job.trace',
    verbAliases: ['log', 'logs'],
    target: 'job',
    flags: [
      {
        name: 'lines',
        type: 'int',
        min: 1,
        max: 1000,
        default: 40,
        placeholder: '<n>',
        summary: 'how many last lines to show (default 40)',
      },
      { name: 'full', type: 'bool', summary: 'upload the whole trace as a file' },
    ],
    access: 'read',
    summary: "the last lines of a job's log (tokens, keys and passwords in it shown as [redacted])",
    example: 'job trace demo/web 123 --lines 80',
  },
  {
    key: 'job.artifacts',
    target: 'job',
    access: 'read',
    summary: "a job's artifacts archive: name, size and a download link",
    example: 'job artifacts demo/web 123',
  },
  {
    key: 'job.artifacts-by-ref',
    verb: 'artifacts',
    selectedBy: ['ref', 'job'],
    target: 'project',
    flags: [
      { name: 'ref', type: 'string', required: true, placeholder: '<ref>', summary: 'branch or tag' },
      { name: 'job', type: 'string', required: true, placeholder: '<name>', summary: 'job name' },
    ],
    access: 'read',
    summary: 'the artifacts of the latest successful job with that name on a ref',
    example: 'job artifacts demo/web --ref main --job compile',
  },
] as const satisfies readonly RowSpec[]);

const PIPELINE_ROWS = rows([
  {
    key: 'pipeline.list',
    verbAliases: ['ls'],
    target: 'project',
    flags: [
      { name: 'status', type: 'enum', values: PIPELINE_STATUSES, summary: 'only pipelines in this status' },
      {
        name: 'scope',
        type: 'enum',
        values: ['running', 'pending', 'finished', 'branches', 'tags'],
        summary: 'which pipelines',
      },
      { name: 'ref', type: 'string', placeholder: '<ref>', summary: 'only this branch or tag' },
      { name: 'yamlErrors', type: 'bool', summary: 'only pipelines with invalid configuration' },
      { name: 'name', type: 'string', placeholder: '<name>', summary: "the user's name who triggered them" },
      { name: 'username', type: 'string', placeholder: '<username>', summary: 'the username who triggered them' },
      { name: 'orderBy', type: 'enum', values: ['id', 'status', 'ref', 'user_id'], summary: 'sort field' },
      SORT,
      ...PAGING,
    ],
    access: 'read',
    summary: "a project's pipelines",
    example: 'pipelines demo/web --status failed --ref main',
  },
  {
    key: 'pipeline.show',
    verbAliases: ['view', 'get'],
    target: 'pipeline',
    flags: [FOLLOW],
    access: 'read',
    summary: 'one pipeline with its jobs by stage, and why its failed jobs failed (up to three)',
    example: 'pipeline demo/web 55',
  },
  {
    key: 'pipeline.run',
    verbAliases: ['create', 'new', 'trigger'],
    target: 'project',
    args: [{ name: 'ref', type: 'string', placeholder: '<ref>' }],
    access: 'write',
    shareable: true,
    summary: 'starts a pipeline on a branch or tag; its card keeps itself up to date until it finishes',
    example: 'pipeline run demo/web main',
  },
  {
    key: 'pipeline.retry',
    target: 'pipeline',
    access: 'write',
    shareable: true,
    summary: 'retries the failed jobs of a pipeline; its card keeps itself up to date until it finishes',
    example: 'pipeline retry demo/web 55',
  },
  {
    key: 'pipeline.cancel',
    target: 'pipeline',
    access: 'write',
    summary: 'cancels the running jobs of a pipeline',
    example: 'pipeline cancel 55',
  },
] as const satisfies readonly RowSpec[]);

const SCHEDULE_ROWS = rows([
  {
    key: 'schedule.list',
    verbAliases: ['ls'],
    target: 'project',
    flags: [{ name: 'scope', type: 'enum', values: ['active', 'inactive'], summary: 'which schedules' }, ...PAGING],
    access: 'read',
    summary: "a project's pipeline schedules",
    example: 'schedules demo/web --scope active',
  },
  {
    key: 'schedule.show',
    verbAliases: ['view', 'get'],
    target: 'schedule',
    access: 'read',
    summary: 'one schedule with its last pipeline',
    example: 'schedule demo/web 7',
  },
  {
    key: 'schedule.create',
    verbAliases: ['new', 'add'],
    target: 'project',
    args: [
      { name: 'description', type: 'string', placeholder: '"<description>"' },
      { name: 'ref', type: 'string', placeholder: '<ref>' },
      { name: 'cron', type: 'cron', placeholder: '"<cron>"', rest: true },
    ],
    flags: [
      { ...TZ, summary: 'IANA time zone of the cron (default: your Slack time zone)' },
      { name: 'inactive', type: 'bool', summary: 'create it switched off' },
    ],
    access: 'write',
    summary: 'creates a schedule that runs a pipeline on a ref (cron in 5 fields)',
    example: 'schedule create demo/web "Nightly build" main "0 2 * * *" --tz Europe/Berlin',
  },
  {
    key: 'schedule.edit',
    verbAliases: ['update'],
    target: 'schedule',
    flags: [
      DESCRIPTION,
      { name: 'ref', type: 'string', placeholder: '<ref>', summary: 'branch or tag' },
      { name: 'cron', type: 'cron', placeholder: '"<cron>"', summary: 'when it runs, 5-field cron' },
      TZ,
      { name: 'active', type: 'bool', explicit: true, summary: 'switch it on (`true`) or off (`false`)' },
    ],
    access: 'write',
    needsAFlag: true,
    summary: 'changes a schedule (give at least one flag)',
    example: 'schedule edit demo/web 7 --cron "0 3 * * *"',
  },
  {
    key: 'schedule.take',
    verbAliases: ['take-ownership'],
    target: 'schedule',
    access: 'write',
    summary: 'makes you the owner (its pipelines then run as you)',
    example: 'schedule take demo/web 7',
  },
  {
    key: 'schedule.activate',
    verbAliases: ['enable'],
    target: 'schedule',
    access: 'write',
    summary: 'switches a schedule on',
    example: 'schedule activate demo/web 7',
  },
  {
    key: 'schedule.deactivate',
    verbAliases: ['disable'],
    target: 'schedule',
    access: 'write',
    summary: 'switches a schedule off',
    example: 'schedule deactivate 7',
  },
  {
    key: 'schedule.delete',
    verbAliases: ['remove'],
    target: 'schedule',
    access: 'write',
    summary: 'deletes a schedule',
    example: 'schedule delete demo/web 7',
  },
] as const satisfies readonly RowSpec[]);

const DEPLOYMENT_ROWS = rows([
  {
    key: 'deployment.list',
    verbAliases: ['ls'],
    target: 'project',
    flags: [...PAGING],
    access: 'read',
    summary: "a project's deployments",
    example: 'deployments demo/web',
  },
  {
    key: 'deployment.show',
    verbAliases: ['view', 'get'],
    target: 'deployment',
    access: 'read',
    summary: 'one deployment with its job',
    example: 'deployment demo/web 1',
  },
] as const satisfies readonly RowSpec[]);

export const CI_ROWS = [...JOB_ROWS, ...PIPELINE_ROWS, ...SCHEDULE_ROWS, ...DEPLOYMENT_ROWS] as const;
