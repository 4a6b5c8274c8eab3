import { describe, expect, it } from 'vitest';
import { type Command, SPEC } from '../../../src/grammar/index.js';
import { accepted, command, issue, mr, none, parse, problem, project, resource, SERVER, snippet } from './support.js';

/**
 * One row per command row of COMMANDS.md: forms that must parse to exactly this Command, and malformed forms with
 * the first line of the message they must get (the usage of the command follows it).
 */
type Row = { row: string; accepts: Array<[string, Command]>; refuses: Array<[string, string]> };

const ROWS: Row[] = [
  // ── account and channel ──────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl help [noun]',
    accepts: [
      ['help', command('help', none, { needsToken: false })],
      ['help jobs', command('help', none, { args: { topic: 'job' }, needsToken: false })],
      ['help merge-requests', command('help', none, { args: { topic: 'mr' }, needsToken: false })],
      ['jobs --help', command('help', none, { args: { topic: 'job' }, needsToken: false })],
      ['mr help', command('help', none, { args: { topic: 'mr' }, needsToken: false })],
      ['', command('help', none, { needsToken: false })],
    ],
    refuses: [
      ['help jbos', '`jbos` is not a command I know. Did you mean `jobs`?'],
      ['help foo', '`foo` is not a command I know: `/gl help` lists the commands.'],
      ['help jobs pipelines', 'Too many words: `pipelines`. Put text with spaces in quotes.'],
    ],
  },
  {
    row: '/gl connect',
    accepts: [
      ['connect', command('connect', none, { needsToken: false })],
      ['CONNECT', command('connect', none, { needsToken: false })],
    ],
    refuses: [
      ['connect now', 'Too many words: `now`. Put text with spaces in quotes.'],
      ['conect', "I don't know `conect`. Did you mean `connect`?"],
    ],
  },
  {
    row: '/gl disconnect',
    accepts: [['disconnect', command('disconnect', none, { needsToken: false })]],
    refuses: [
      ['disconnect --share', '`--share` only goes with commands that read: `/gl disconnect` changes something.'],
    ],
  },
  {
    row: '/gl whoami',
    accepts: [
      ['whoami', command('whoami', none, { needsToken: false })],
      ['whoami --share', command('whoami', none, { share: true, needsToken: false })],
    ],
    refuses: [['whoami alice', 'Too many words: `alice`. Put text with spaces in quotes.']],
  },
  {
    row: '/gl use <project> / /gl use --clear',
    accepts: [
      ['use demo/web', command('use', project('demo/web'))],
      ['use group/sub/project', command('use', project('group/sub/project'))],
      ['use 42', command('use', project(42))],
      ['use --clear', command('use', project(), { flags: { clear: true } })],
    ],
    refuses: [
      ['use', 'Missing `<project>`: give `group/project` or its numeric id.'],
      ['use demo', '`demo` is not a project: give `group/project` or its numeric id.'],
      ['use demo/web --clear', '`--clear` and a project do not go together: give one of them.'],
    ],
  },

  // ── CI ──────────────────────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl jobs [<project>] [--scope failed,manual]',
    accepts: [
      [
        'jobs demo/web --scope failed,manual',
        command('job.list', project('demo/web'), { flags: { scope: ['failed', 'manual'] } }),
      ],
      [
        'jobs demo/web --scope failed --scope manual',
        command('job.list', project('demo/web'), { flags: { scope: ['failed', 'manual'] } }),
      ],
      ['jobs', command('job.list', project())],
      ['job', command('job.list', project())],
      [
        'jobs --scope=Failed --page 2 --per_page 50',
        command('job.list', project(), { flags: { scope: ['failed'], page: 2, perPage: 50 } }),
      ],
    ],
    refuses: [
      [
        'jobs demo/web --scope faild',
        '`--scope faild` has `faild`, but each value must be one of created, pending, running, failed, success, canceled, skipped, manual. Did you mean `failed`?',
      ],
      ['jobs --scpe failed', '`--scpe` is not a flag of `/gl jobs`. Did you mean `--scope`?'],
      ['jobs --per-page 500', '`--per-page 500` must be a whole number from 1 to 100, e.g. `--per-page 20`.'],
    ],
  },
  {
    row: '/gl jobs [<project>] --pipeline <id> [--scope …]',
    accepts: [
      ['jobs demo/web --pipeline 55', command('job.list', project('demo/web'), { flags: { pipeline: 55 } })],
      [
        'jobs --pipeline=55 --scope running',
        command('job.list', project(), { flags: { pipeline: 55, scope: ['running'] } }),
      ],
    ],
    refuses: [
      ['jobs --pipeline', '`--pipeline` needs a value, e.g. `--pipeline 12`.'],
      ['jobs --pipeline abc', '`--pipeline abc` must be a whole number from 1, e.g. `--pipeline 12`.'],
    ],
  },
  {
    row: '/gl job [<project>] <id>',
    accepts: [
      ['job demo/web 123', command('job.show', resource('job', 123, 'demo/web'))],
      ['job 123', command('job.show', resource('job', 123))],
      ['job 42 123', command('job.show', resource('job', 123, 42))],
      ['job show demo/web 123', command('job.show', resource('job', 123, 'demo/web'))],
      [`job ${SERVER}/group/sub/project/-/jobs/123`, command('job.show', resource('job', 123, 'group/sub/project'))],
      [`${SERVER}/demo/web/-/jobs/123/`, command('job.show', resource('job', 123, 'demo/web'))],
    ],
    refuses: [
      ['job demo/web#3', '`demo/web#3` is an issue; a job is named by its number: `demo/web 123` or `123`.'],
      [
        'job https://github.com/demo/web/-/jobs/3',
        '`https://github.com/demo/web/-/jobs/3` points to `github.com`, but I only work with `gitlab.example.com/sub`: paste a link from there.',
      ],
    ],
  },
  {
    row: '/gl job retry|cancel|play|erase|keep [<project>] <id>',
    accepts: [
      ['job retry demo/web 123', command('job.retry', resource('job', 123, 'demo/web'))],
      ['job cancel 123', command('job.cancel', resource('job', 123))],
      ['job play demo/web 124', command('job.play', resource('job', 124, 'demo/web'))],
      ['job erase demo/web 123', command('job.erase', resource('job', 123, 'demo/web'))],
      ['job keep demo/web 123', command('job.keep', resource('job', 123, 'demo/web'))],
      ['Job RETRY 123', command('job.retry', resource('job', 123))],
      ['job keep_artifacts 123', command('job.keep', resource('job', 123))],
    ],
    refuses: [
      ['job retyr 123', "I don't know `retyr` after `/gl job`. Did you mean `retry`?"],
      ['job retry', 'Missing the job id: `<id>` or `group/project <id>`.'],
      ['job erase demo/web', 'Missing the job id after `demo/web`.'],
      ['job retry 123 --share', '`--share` only goes with commands that read: `/gl job retry` changes something.'],
    ],
  },
  {
    row: '/gl job trace [<project>] <id> [--lines 40] [--full]',
    accepts: [
      ['job trace demo/web 123', command('job.trace', resource('job', 123, 'demo/web'), { flags: { lines: 40 } })],
      ['job trace 123 --lines 80', command('job.trace', resource('job', 123), { flags: { lines: 80 } })],
      [
        'job trace 123 --full --share',
        command('job.trace', resource('job', 123), { flags: { lines: 40, full: true }, share: true }),
      ],
    ],
    refuses: [
      ['job trace 123 --lines 0', '`--lines 0` must be a whole number from 1 to 1000, e.g. `--lines 40`.'],
      ['job trace 123 --lines', '`--lines` needs a value, e.g. `--lines 40`.'],
    ],
  },
  {
    row: '/gl job artifacts [<project>] <id>',
    accepts: [['job artifacts demo/web 123', command('job.artifacts', resource('job', 123, 'demo/web'))]],
    refuses: [['job artifacts', 'Missing the job id: `<id>` or `group/project <id>`.']],
  },
  {
    row: '/gl job artifacts [<project>] --ref <ref> --job <name>',
    accepts: [
      [
        'job artifacts demo/web --ref main --job build',
        command('job.artifacts-by-ref', project('demo/web'), { flags: { ref: 'main', job: 'build' } }),
      ],
      [
        'job artifacts --job "unit tests" --ref=release/1.0',
        command('job.artifacts-by-ref', project(), { flags: { ref: 'release/1.0', job: 'unit tests' } }),
      ],
    ],
    refuses: [['job artifacts demo/web --ref main', 'Missing `--job <name>`.']],
  },
  {
    row: '/gl pipelines [<project>] [--status s] [--scope s] [--ref r] [--yaml-errors] [--name n] [--username u] [--order-by f] [--sort asc|desc]',
    accepts: [
      ['pipelines demo/web', command('pipeline.list', project('demo/web'))],
      [
        'pipelines demo/web --status failed --scope finished --ref main --yaml-errors --name "Alice Example" --username alice --order-by user_id --sort asc',
        command('pipeline.list', project('demo/web'), {
          flags: {
            status: 'failed',
            scope: 'finished',
            ref: 'main',
            yamlErrors: true,
            name: 'Alice Example',
            username: 'alice',
            orderBy: 'user_id',
            sort: 'asc',
          },
        }),
      ],
      [
        'pipelines --order_by=id --yaml_errors=false',
        command('pipeline.list', project(), { flags: { orderBy: 'id', yamlErrors: false } }),
      ],
    ],
    refuses: [
      ['pipelines --sort up', '`--sort up` must be one of asc, desc, e.g. `--sort asc`.'],
      ['pipelnes demo/web', "I don't know `pipelnes`. Did you mean `pipelines`?"],
      ['pipelines --ref main --ref dev', '`--ref` is given twice: give it once.'],
    ],
  },
  {
    row: '/gl pipeline [<project>] <id>',
    accepts: [
      ['pipeline demo/web 55', command('pipeline.show', resource('pipeline', 55, 'demo/web'))],
      [`pipeline ${SERVER}/demo/web/pipelines/55`, command('pipeline.show', resource('pipeline', 55, 'demo/web'))],
    ],
    refuses: [['pipeline !5', '`!5` is a merge request; a pipeline is named by its number: `demo/web 123` or `123`.']],
  },
  {
    row: '/gl pipeline run [<project>] <ref>',
    accepts: [
      ['pipeline run demo/web main', command('pipeline.run', project('demo/web'), { args: { ref: 'main' } })],
      ['pipeline run feature/login', command('pipeline.run', project(), { args: { ref: 'feature/login' } })],
    ],
    refuses: [
      ['pipeline run', 'Missing `<ref>`.'],
      ['pipeline run demo/web main extra', 'Too many words: `extra`. Put text with spaces in quotes.'],
    ],
  },
  {
    row: '/gl pipeline retry|cancel [<project>] <id>',
    accepts: [
      ['pipeline retry demo/web 55', command('pipeline.retry', resource('pipeline', 55, 'demo/web'))],
      ['pipeline cancel 55', command('pipeline.cancel', resource('pipeline', 55))],
    ],
    refuses: [['pipeline cancel demo/web', 'Missing the pipeline id after `demo/web`.']],
  },
  {
    row: '/gl schedules [<project>] [--scope active|inactive]',
    accepts: [
      [
        'schedules demo/web --scope active',
        command('schedule.list', project('demo/web'), { flags: { scope: 'active' } }),
      ],
      ['schedules', command('schedule.list', project())],
    ],
    refuses: [['schedules --scope paused', '`--scope paused` must be one of active, inactive, e.g. `--scope active`.']],
  },
  {
    row: '/gl schedule [<project>] <id>',
    accepts: [
      ['schedule demo/web 7', command('schedule.show', resource('schedule', 7, 'demo/web'))],
      [
        `schedule ${SERVER}/demo/web/-/pipeline_schedules/7/edit`,
        command('schedule.show', resource('schedule', 7, 'demo/web')),
      ],
    ],
    refuses: [['schedule $7', '`$7` is a snippet; a schedule is named by its number: `demo/web 123` or `123`.']],
  },
  {
    row: '/gl schedule create [<project>] "<description>" <ref> "<cron>" [--tz <zone>] [--inactive]',
    accepts: [
      [
        'schedule create demo/web "Nightly build" main "0 2 * * *" --tz europe/berlin',
        command('schedule.create', project('demo/web'), {
          args: { description: 'Nightly build', ref: 'main', cron: '0 2 * * *' },
          flags: { tz: 'Europe/Berlin' },
        }),
      ],
      [
        'schedule create “Nightly” main 0 2 * * 1-5 --inactive',
        command('schedule.create', project(), {
          args: { description: 'Nightly', ref: 'main', cron: '0 2 * * 1-5' },
          flags: { inactive: true },
        }),
      ],
    ],
    refuses: [
      [
        'schedule create "Nightly" main "0 25 * * *"',
        '`0 25 * * *` must have its hour from 0 to 23, not 25, e.g. `"0 9 * * 1-5"`.',
      ],
      ['schedule create "Nightly"', 'Missing `<ref>`.'],
      [
        'schedule create "Nightly" main "0 2 * * *" --tz Mars/Base',
        '`--tz Mars/Base` must be an IANA time zone, e.g. `--tz Europe/Berlin`.',
      ],
    ],
  },
  {
    row: '/gl schedule edit [<project>] <id> [--description d] [--ref r] [--cron c] [--tz z] [--active true|false]',
    accepts: [
      [
        'schedule edit demo/web 7 --description "Nightly" --ref main --cron "0 3 * * *" --tz UTC --active false',
        command('schedule.edit', resource('schedule', 7, 'demo/web'), {
          flags: { description: 'Nightly', ref: 'main', cron: '0 3 * * *', tz: 'UTC', active: false },
        }),
      ],
      ['schedule edit 7 --active', command('schedule.edit', resource('schedule', 7), { flags: { active: true } })],
    ],
    refuses: [
      [
        'schedule edit 7',
        'Nothing to change: give at least one of `--description`, `--ref`, `--cron`, `--tz`, `--active`.',
      ],
      ['schedule edit 7 --active=maybe', '`--active maybe` must be `true` or `false`, e.g. `--active true`.'],
    ],
  },
  {
    row: '/gl schedule take [<project>] <id> (alias take-ownership)',
    accepts: [
      ['schedule take demo/web 7', command('schedule.take', resource('schedule', 7, 'demo/web'))],
      ['schedule take-ownership 7', command('schedule.take', resource('schedule', 7))],
      ['schedule take_ownership 7', command('schedule.take', resource('schedule', 7))],
    ],
    refuses: [
      ['schedule take-ownershp 7', "I don't know `take-ownershp` after `/gl schedule`. Did you mean `take-ownership`?"],
    ],
  },
  {
    row: '/gl schedule activate|deactivate [<project>] <id>',
    accepts: [
      ['schedule activate demo/web 7', command('schedule.activate', resource('schedule', 7, 'demo/web'))],
      ['schedule deactivate 7', command('schedule.deactivate', resource('schedule', 7))],
    ],
    refuses: [['schedule activate 7 8 9', 'Too many words: `9`. Put text with spaces in quotes.']],
  },
  {
    row: '/gl schedule delete [<project>] <id>',
    accepts: [['schedule delete demo/web 7', command('schedule.delete', resource('schedule', 7, 'demo/web'))]],
    refuses: [
      [
        'schedule delete 7 --share',
        '`--share` only goes with commands that read: `/gl schedule delete` changes something.',
      ],
    ],
  },
  {
    row: '/gl deployments [<project>]',
    accepts: [
      ['deployments demo/web', command('deployment.list', project('demo/web'))],
      ['deploys --per-page 5 --share', command('deployment.list', project(), { flags: { perPage: 5 }, share: true })],
    ],
    refuses: [['deployments --sort asc', '`--sort` is not a flag of `/gl deployments`.']],
  },
  {
    row: '/gl deployment [<project>] <id>',
    accepts: [
      ['deployment demo/web 1', command('deployment.show', resource('deployment', 1, 'demo/web'))],
      ['deployment 1', command('deployment.show', resource('deployment', 1))],
    ],
    refuses: [['deployment show demo/web', 'Missing the deployment id after `demo/web`.']],
  },

  // ── insights ────────────────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl insights [<project>] [--days 30] [--ref <ref>] [--env <environment>]',
    accepts: [
      ['insights demo/web', command('insights', project('demo/web'), { flags: { days: 30 } })],
      [
        'insights demo/web --days 7 --ref release --env staging --share',
        command('insights', project('demo/web'), { flags: { days: 7, ref: 'release', env: 'staging' }, share: true }),
      ],
      ['dora --environment production', command('insights', project(), { flags: { days: 30, env: 'production' } })],
    ],
    refuses: [
      ['insights demo/web --days 0', '`--days 0` must be a whole number from 1 to 365, e.g. `--days 30`.'],
      ['insights demo/web --days 366', '`--days 366` must be a whole number from 1 to 365, e.g. `--days 30`.'],
    ],
  },

  // ── issues ──────────────────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl issues [flags] (no project, no channel default)',
    accepts: [
      ['issues', command('issue.list', project())],
      [
        'issues --state closed --labels bug,ui --milestone "v1.0" --scope assigned-to-me --author 3 --assignee 4 --iids 1,2,3 --search "login page" --order-by updated_at --sort desc --page 2 --per-page 50',
        command('issue.list', project(), {
          flags: {
            state: 'closed',
            labels: ['bug', 'ui'],
            milestone: 'v1.0',
            scope: 'assigned-to-me',
            author: { kind: 'id', id: 3 },
            assignee: { kind: 'id', id: 4 },
            iids: [1, 2, 3],
            search: 'login page',
            orderBy: 'updated_at',
            sort: 'desc',
            page: 2,
            perPage: 50,
          },
        }),
      ],
      ['issues --labels none', command('issue.list', project(), { flags: { labels: ['No Label'] } })],
      [
        'issues --author @alice --assignee <@U0123ABC|bob>',
        command('issue.list', project(), {
          flags: { author: { kind: 'username', username: 'alice' }, assignee: { kind: 'slack', userId: 'U0123ABC' } },
        }),
      ],
    ],
    refuses: [
      ['issues --state open', '`--state open` must be one of opened, closed, all. Did you mean `opened`?'],
      [
        'issues --author "a b"',
        '`--author a b` must be a user id, a username or a Slack @mention, e.g. `--author alice`.',
      ],
    ],
  },
  {
    row: '/gl issues --group <group> [flags]',
    accepts: [
      [
        'issues --group demo --state opened',
        command('issue.list', project(), { flags: { group: { kind: 'path', path: 'demo' }, state: 'opened' } }),
      ],
      ['issues --group 7', command('issue.list', project(), { flags: { group: { kind: 'id', id: 7 } } })],
    ],
    refuses: [['issues demo/web --group demo', '`--group` and a project do not go together: give one of them.']],
  },
  {
    row: '/gl issues [<project>] [flags]',
    accepts: [
      [
        'issues demo/web --created-after 2026-01-01 --created-before 2026-02-01T12:00:00Z',
        command('issue.list', project('demo/web'), {
          flags: { createdAfter: '2026-01-01', createdBefore: '2026-02-01T12:00:00Z' },
        }),
      ],
      ['issues 42', command('issue.list', project(42))],
      ['issue demo/web', command('issue.list', project('demo/web'))],
    ],
    refuses: [
      [
        'issues demo/web --created-after yesterday',
        '`--created-after yesterday` must be an ISO 8601 date or date-time, e.g. `--created-after 2026-12-01T09:30:00Z`.',
      ],
    ],
  },
  {
    row: '/gl issue <ref>',
    accepts: [
      ['issue demo/web#3', command('issue.show', issue(3, 'demo/web'))],
      ['issue #3', command('issue.show', issue(3))],
      ['issue 3', command('issue.show', issue(3))],
      ['issue demo/web 3', command('issue.show', issue(3, 'demo/web'))],
      ['issue 42#3', command('issue.show', issue(3, 42))],
      ['demo/web#3', command('issue.show', issue(3, 'demo/web'))],
      [`issue ${SERVER}/group/sub/project/-/issues/12#note_99`, command('issue.show', issue(12, 'group/sub/project'))],
      [`issue <${SERVER}/demo/web/issues/12|demo/web#12>`, command('issue.show', issue(12, 'demo/web'))],
    ],
    refuses: [
      ['issue !3', '`!3` is a merge request, not an issue: write `#3`.'],
      [
        `issue ${SERVER}/demo/web/-/merge_requests/3`,
        '`https://gitlab.example.com/sub/demo/web…` is a merge request, not an issue.',
      ],
    ],
  },
  {
    row: '/gl issue create [<project>] "<title>" [flags]; with no title it opens a modal',
    accepts: [
      [
        'issue create demo/web "Login fails" --description "Steps: …" --labels bug --assignees 1,2 --milestone-id 5 --due 2026-12-01 --confidential --created-at 2026-01-02T03:04:05Z --resolve-mr !34 --discussion abc123',
        command('issue.create', project('demo/web'), {
          args: { title: 'Login fails' },
          flags: {
            description: 'Steps: …',
            labels: ['bug'],
            assignees: [
              { kind: 'id', id: 1 },
              { kind: 'id', id: 2 },
            ],
            milestoneId: 5,
            due: '2026-12-01',
            confidential: true,
            createdAt: '2026-01-02T03:04:05Z',
            resolveMr: 34,
            discussion: 'abc123',
          },
        }),
      ],
      [
        'issue create "T" --assignees alice,<@U1|bob> --assignees=7,<@U2>',
        command('issue.create', project(), {
          args: { title: 'T' },
          flags: {
            assignees: [
              { kind: 'username', username: 'alice' },
              { kind: 'slack', userId: 'U1' },
              { kind: 'id', id: 7 },
              { kind: 'slack', userId: 'U2' },
            ],
          },
        }),
      ],
      [
        'issue create "Ask <@U1|bob> about it"',
        command('issue.create', project(), { args: { title: 'Ask @bob about it' } }),
      ],
      ['issue create', command('issue.create', project())],
      ['issue create demo/web', command('issue.create', project('demo/web'))],
      [
        'issue create Login fails on Safari',
        command('issue.create', project(), { args: { title: 'Login fails on Safari' } }),
      ],
      [
        "issue create demo/web 'It’s broken'",
        command('issue.create', project('demo/web'), { args: { title: 'It’s broken' } }),
      ],
    ],
    refuses: [
      [
        'issue create demo/web "T" --due 2026-13-01',
        '`--due 2026-13-01` must be a date as YYYY-MM-DD, e.g. `--due 2026-12-01`.',
      ],
      [
        'issue create demo/web "Login fails',
        'A quote is not closed: `"Login fails`. Close it, or leave the quotes out.',
      ],
    ],
  },
  {
    row: '/gl issue edit <ref> [flags]',
    accepts: [
      [
        'issue edit demo/web#3 --title "New title" --description "" --labels bug,ui --assignees 4 --milestone-id 2 --due 2027-01-31 --confidential false --updated-at 2026-03-01',
        command('issue.edit', issue(3, 'demo/web'), {
          flags: {
            title: 'New title',
            description: '',
            labels: ['bug', 'ui'],
            assignees: [{ kind: 'id', id: 4 }],
            milestoneId: 2,
            due: '2027-01-31',
            confidential: false,
            updatedAt: '2026-03-01',
          },
        }),
      ],
    ],
    refuses: [
      [
        'issue edit #3',
        'Nothing to change: give at least one of `--title`, `--description`, `--labels`, `--assignees`, `--milestone-id`, `--due`, `--confidential`, `--updated-at`.',
      ],
      ['issue edit #3 --title', '`--title` needs a value, e.g. `--title "<title>"`.'],
    ],
  },
  {
    row: '/gl issue close|reopen <ref>',
    accepts: [
      ['issue close demo/web#3', command('issue.close', issue(3, 'demo/web'))],
      ['issue reopen #3', command('issue.reopen', issue(3))],
    ],
    refuses: [['issue close', 'Missing `<ref>`: an issue like `#12`, `group/project#12` or a link.']],
  },
  {
    row: '/gl issue delete <ref>',
    accepts: [['issue delete demo/web#3', command('issue.delete', issue(3, 'demo/web'))]],
    refuses: [['issue delete demo/web', 'Missing the number after `demo/web`: write `demo/web#12`.']],
  },
  {
    row: '/gl issue move <ref> <to-project>',
    accepts: [
      [
        'issue move demo/web#3 demo/secret',
        command('issue.move', issue(3, 'demo/web'), { args: { toProject: { kind: 'path', path: 'demo/secret' } } }),
      ],
      ['issue move #3 42', command('issue.move', issue(3), { args: { toProject: { kind: 'id', id: 42 } } })],
    ],
    refuses: [
      ['issue move #3', 'Missing `<to-project>`.'],
      ['issue move #3 secret', '`secret` is not a project: give `group/project` or its numeric id, e.g. `demo/web`.'],
    ],
  },
  {
    row: '/gl issue subscribe|unsubscribe <ref>',
    accepts: [
      ['issue subscribe demo/web#3', command('issue.subscribe', issue(3, 'demo/web'))],
      ['issue unsubscribe #3', command('issue.unsubscribe', issue(3))],
    ],
    refuses: [['issue subscribe #3 #4', 'Too many words: `#4`. Put text with spaces in quotes.']],
  },
  {
    row: '/gl issue todo <ref>',
    accepts: [['issue todo demo/web#3', command('issue.todo', issue(3, 'demo/web'))]],
    refuses: [['issue todo $3', '`$3` is a snippet, not an issue: write `#3`.']],
  },
  {
    row: '/gl issue estimate <ref> <duration> / reset-estimate <ref>',
    accepts: [
      [
        'issue estimate demo/web#3 3h30m',
        command('issue.estimate', issue(3, 'demo/web'), { args: { duration: { text: '3h 30m', seconds: 12600 } } }),
      ],
      [
        'issue estimate #3 1mo 2w 3d 4h 30m',
        command('issue.estimate', issue(3), {
          args: { duration: { text: '1mo 2w 3d 4h 30m', seconds: 576000 + 288000 + 86400 + 14400 + 1800 } },
        }),
      ],
      ['issue reset-estimate demo/web#3', command('issue.reset-estimate', issue(3, 'demo/web'))],
      ['issue reset_estimate #3', command('issue.reset-estimate', issue(3))],
    ],
    refuses: [
      ['issue estimate #3 90', '`90` has no unit (units: mo, w, d, h, m), e.g. `3h30m`.'],
      ['issue estimate #3 -1h', '`-1h` cannot be negative here (units: mo, w, d, h, m), e.g. `3h30m`.'],
      ['issue estimate #3', 'Missing `<duration>`.'],
    ],
  },
  {
    row: '/gl issue spend <ref> <duration> / reset-spent <ref>',
    accepts: [
      [
        'issue spend #3 2 hours 15 minutes',
        command('issue.spend', issue(3), { args: { duration: { text: '2h 15m', seconds: 8100 } } }),
      ],
      [
        'issue spend demo/web#3 1h 30m',
        command('issue.spend', issue(3, 'demo/web'), { args: { duration: { text: '1h 30m', seconds: 5400 } } }),
      ],
      [
        'issue spend #3 -30m',
        command('issue.spend', issue(3), { args: { duration: { text: '-30m', seconds: -1800 } } }),
      ],
      ['issue reset-spent demo/web#3', command('issue.reset-spent', issue(3, 'demo/web'))],
    ],
    refuses: [
      [
        'issue spend #3 1 hour and a bit',
        '`1 hour and a bit` is not a duration (units: mo, w, d, h, m), e.g. `1h30m`.',
      ],
    ],
  },
  {
    row: '/gl issue time <ref>',
    accepts: [
      ['issue time demo/web#3', command('issue.time', issue(3, 'demo/web'))],
      ['issue time #3 --share', command('issue.time', issue(3), { share: true })],
    ],
    refuses: [['issue tme #3', "I don't know `tme` after `/gl issue`. Did you mean `time`?"]],
  },
  {
    row: '/gl issue closed-by <ref>',
    accepts: [['issue closed-by demo/web#3', command('issue.closed-by', issue(3, 'demo/web'))]],
    refuses: [['issue closed-by', 'Missing `<ref>`: an issue like `#12`, `group/project#12` or a link.']],
  },
  {
    row: '/gl issue agent <ref>',
    accepts: [['issue agent demo/web#3', command('issue.agent', issue(3, 'demo/web'))]],
    refuses: [['issue agent #0', '`#0` needs a number from 1 after `#`.']],
  },

  // ── merge requests ──────────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl mrs [flags] (no project)',
    accepts: [
      ['mrs', command('mr.list', project())],
      [
        'merge-requests --state merged --order-by created_at --sort asc --milestone v1 --view simple --labels bug --created-after 2026-01-01 --created-before 2026-02-01 --scope all --author 1 --assignee 2 --page 3 --per-page 10',
        command('mr.list', project(), {
          flags: {
            state: 'merged',
            orderBy: 'created_at',
            sort: 'asc',
            milestone: 'v1',
            view: 'simple',
            labels: ['bug'],
            createdAfter: '2026-01-01',
            createdBefore: '2026-02-01',
            scope: 'all',
            author: { kind: 'id', id: 1 },
            assignee: { kind: 'id', id: 2 },
            page: 3,
            perPage: 10,
          },
        }),
      ],
    ],
    refuses: [
      ['mrs --state locked', '`--state locked` must be one of opened, closed, merged, all, e.g. `--state opened`.'],
    ],
  },
  {
    row: '/gl mrs [<project>] [flags]',
    accepts: [
      [
        'mrs demo/web --iids 1,2 --state opened',
        command('mr.list', project('demo/web'), { flags: { iids: [1, 2], state: 'opened' } }),
      ],
    ],
    refuses: [
      [
        'mrs demo/web --iids 1,x',
        '`--iids 1,x` must be whole numbers from 1, separated by commas, e.g. `--iids 1,2,3`.',
      ],
    ],
  },
  {
    row: '/gl mr <ref>',
    accepts: [
      ['mr demo/web!34', command('mr.show', mr(34, 'demo/web'))],
      ['mr !34', command('mr.show', mr(34))],
      ['merge_request 34', command('mr.show', mr(34))],
      ['!34 --share', command('mr.show', mr(34), { share: true })],
      [`mr ${SERVER}/demo/web/-/merge_requests/34/diffs`, command('mr.show', mr(34, 'demo/web'))],
    ],
    refuses: [['mr #34', '`#34` is an issue, not a merge request: write `!34`.']],
  },
  {
    row: '/gl mr commits|changes|versions|closes <ref>',
    accepts: [
      ['mr commits demo/web!34', command('mr.commits', mr(34, 'demo/web'))],
      ['mr changes !34', command('mr.changes', mr(34))],
      ['mr versions demo/web!34', command('mr.versions', mr(34, 'demo/web'))],
      ['mr closes demo/web!34', command('mr.closes', mr(34, 'demo/web'))],
    ],
    refuses: [['mr comits !34', "I don't know `comits` after `/gl mr`. Did you mean `commits`?"]],
  },
  {
    row: '/gl mr version <ref> <version-id>',
    accepts: [['mr version demo/web!34 2', command('mr.version', mr(34, 'demo/web'), { args: { versionId: 2 } })]],
    refuses: [
      ['mr version !34', 'Missing `<version-id>`.'],
      ['mr version !34 two', '`two` is not a version id: a version id is a number.'],
    ],
  },
  {
    row: '/gl mr create [<project>] <source> <target> "<title>" [flags]',
    accepts: [
      [
        'mr create demo/web feature/login main "Fix login" --description "Closes #3" --assignee 2 --labels bug --milestone-id 1 --target-project 9 --remove-source-branch',
        command('mr.create', project('demo/web'), {
          args: { sourceBranch: 'feature/login', targetBranch: 'main', title: 'Fix login' },
          flags: {
            description: 'Closes #3',
            assignee: { kind: 'id', id: 2 },
            labels: ['bug'],
            milestoneId: 1,
            targetProject: 9,
            removeSourceBranch: true,
          },
        }),
      ],
      [
        'mr create feature/login main "Fix login"',
        command('mr.create', project(), {
          args: { sourceBranch: 'feature/login', targetBranch: 'main', title: 'Fix login' },
        }),
      ],
      [
        'mr create feature/login main "Fix login" --assignee <@U9|dana>',
        command('mr.create', project(), {
          args: { sourceBranch: 'feature/login', targetBranch: 'main', title: 'Fix login' },
          flags: { assignee: { kind: 'slack', userId: 'U9' } },
        }),
      ],
    ],
    refuses: [
      ['mr create feature/login main', 'Missing `"<title>"`.'],
      ['mr create demo/web feature/login main Fix login', 'Too many words: `login`. Put text with spaces in quotes.'],
    ],
  },
  {
    row: '/gl mr edit <ref> [flags]; with no flag it answers that one is needed',
    accepts: [
      [
        'mr edit demo/web!34 --title "T" --description "D" --target-branch main --labels a,b --assignee 3 --milestone-id 4 --remove-source-branch false',
        command('mr.edit', mr(34, 'demo/web'), {
          flags: {
            title: 'T',
            description: 'D',
            targetBranch: 'main',
            labels: ['a', 'b'],
            assignee: { kind: 'id', id: 3 },
            milestoneId: 4,
            removeSourceBranch: false,
          },
        }),
      ],
    ],
    refuses: [
      [
        'mr edit !34',
        'Nothing to change: give at least one of `--title`, `--description`, `--target-branch`, `--labels`, `--assignee`, `--milestone-id`, `--remove-source-branch`.',
      ],
    ],
  },
  {
    row: '/gl mr close|reopen <ref>',
    accepts: [
      ['mr close demo/web!34', command('mr.close', mr(34, 'demo/web'))],
      ['mr reopen !34', command('mr.reopen', mr(34))],
    ],
    refuses: [['mr close', 'Missing `<ref>`: a merge request like `!12`, `group/project!12` or a link.']],
  },
  {
    row: '/gl mr merge <ref> [--sha <sha>] [--message m] [--remove-source-branch] [--when-pipeline-succeeds]',
    accepts: [
      [
        'mr merge demo/web!34 --sha 1a2b3c --message "Merge it" --remove-source-branch --when-pipeline-succeeds',
        command('mr.merge', mr(34, 'demo/web'), {
          flags: { sha: '1a2b3c', message: 'Merge it', removeSourceBranch: true, whenPipelineSucceeds: true },
        }),
      ],
      ['mr merge !34', command('mr.merge', mr(34))],
    ],
    refuses: [
      [
        'mr merge !34 --when-pipeline-succeed',
        '`--when-pipeline-succeed` is not a flag of `/gl mr merge`. Did you mean `--when-pipeline-succeeds`?',
      ],
      ['mr merge !34 --share', '`--share` only goes with commands that read: `/gl mr merge` changes something.'],
    ],
  },
  {
    row: '/gl mr cancel-auto-merge <ref>',
    accepts: [
      ['mr cancel-auto-merge demo/web!34', command('mr.cancel-auto-merge', mr(34, 'demo/web'))],
      ['mr cancel_merge_when_pipeline_succeeds !34', command('mr.cancel-auto-merge', mr(34))],
    ],
    refuses: [['mr cancel-auto-merge', 'Missing `<ref>`: a merge request like `!12`, `group/project!12` or a link.']],
  },
  {
    row: '/gl mr delete|subscribe|unsubscribe|todo <ref>',
    accepts: [
      ['mr delete demo/web!34', command('mr.delete', mr(34, 'demo/web'))],
      ['mr subscribe demo/web!34', command('mr.subscribe', mr(34, 'demo/web'))],
      ['mr unsubscribe !34', command('mr.unsubscribe', mr(34))],
      ['mr todo demo/web!34', command('mr.todo', mr(34, 'demo/web'))],
    ],
    refuses: [['mr delete demo/web#34', '`demo/web#34` is an issue, not a merge request: write `!34`.']],
  },
  {
    row: '/gl mr estimate|spend|reset-estimate|reset-spent|time <ref> [duration]',
    accepts: [
      [
        'mr estimate demo/web!34 2d',
        command('mr.estimate', mr(34, 'demo/web'), { args: { duration: { text: '2d', seconds: 57600 } } }),
      ],
      ['mr spend !34 45m', command('mr.spend', mr(34), { args: { duration: { text: '45m', seconds: 2700 } } })],
      ['mr spend !34 1.5h', command('mr.spend', mr(34), { args: { duration: { text: '1h 30m', seconds: 5400 } } })],
      ['mr reset-estimate demo/web!34', command('mr.reset-estimate', mr(34, 'demo/web'))],
      ['mr reset-spent demo/web!34', command('mr.reset-spent', mr(34, 'demo/web'))],
      ['mr time demo/web!34', command('mr.time', mr(34, 'demo/web'))],
    ],
    refuses: [
      ['mr spend !34', 'Missing `<duration>`.'],
      ['mr time !34 2h', 'Too many words: `2h`. Put text with spaces in quotes.'],
    ],
  },

  // ── award emoji ─────────────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl awards <ref> (issue, MR or snippet ref)',
    accepts: [
      ['awards demo/web#3', command('award.list', issue(3, 'demo/web'))],
      ['awards !34', command('award.list', mr(34))],
      ['awards demo/web$5', command('award.list', snippet(5, 'demo/web'))],
      [`awards ${SERVER}/demo/web/snippets/5`, command('award.list', snippet(5, 'demo/web'))],
    ],
    refuses: [
      [
        'awards 3',
        '`3` could be several things: write `#12` (issue), `!34` (merge request) or `$5` (snippet), optionally after `group/project`, or a link.',
      ],
    ],
  },
  {
    row: '/gl awards <ref> --note <note-id>',
    accepts: [['awards demo/web#3 --note 7', command('award.list', issue(3, 'demo/web'), { flags: { note: 7 } })]],
    refuses: [['awards #3 --note', '`--note` needs a value, e.g. `--note 12`.']],
  },
  {
    row: '/gl award <ref> <emoji> [--note <note-id>]',
    accepts: [
      ['award demo/web#3 :thumbsup:', command('award.add', issue(3, 'demo/web'), { args: { emoji: 'thumbsup' } })],
      ['award !34 rocket --note 7', command('award.add', mr(34), { args: { emoji: 'rocket' }, flags: { note: 7 } })],
      ['award #3 :+1::skin-tone-3:', command('award.add', issue(3), { args: { emoji: 'thumbsup_tone2' } })],
      ['award add #3 👍', command('award.add', issue(3), { args: { emoji: 'thumbsup' } })],
    ],
    refuses: [
      ['award #3', 'Missing `<emoji>`.'],
      [
        'award #3 "not an emoji"',
        '`not an emoji` must be an emoji name like `:thumbsup:` or `thumbsup`, e.g. `:thumbsup:`.',
      ],
      ['award #3 thumbsup extra', 'Too many words: `extra`. Put text with spaces in quotes.'],
    ],
  },
  {
    row: '/gl award show <ref> <award-id> [--note N]',
    accepts: [
      ['award show demo/web!34 12', command('award.show', mr(34, 'demo/web'), { args: { awardId: 12 } })],
      ['award show #3 12 --note 7', command('award.show', issue(3), { args: { awardId: 12 }, flags: { note: 7 } })],
    ],
    refuses: [['award show #3', 'Missing `<award-id>`.']],
  },
  {
    row: '/gl unaward <ref> <award-id> [--note N]',
    accepts: [
      ['unaward demo/web#3 12', command('award.remove', issue(3, 'demo/web'), { args: { awardId: 12 } })],
      ['award remove !34 12 --note 7', command('award.remove', mr(34), { args: { awardId: 12 }, flags: { note: 7 } })],
    ],
    refuses: [
      ['unaward demo/web#3 thumbsup', '`thumbsup` is not an award id: an award id is a number.'],
      ['award show #3 0', '`0` is not an award id: an award id is a number from 1.'],
    ],
  },

  // ── todos, events, keys ─────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl todos [--action a] [--author N] [--project p] [--state pending|done] [--type Issue|MergeRequest]',
    accepts: [
      ['todos', command('todo.list', none)],
      [
        'todos --action build_failed --author 2 --project demo/web --state pending --type merge_request',
        command('todo.list', none, {
          flags: {
            action: 'build_failed',
            author: { kind: 'id', id: 2 },
            project: { kind: 'path', path: 'demo/web' },
            state: 'pending',
            type: 'MergeRequest',
          },
        }),
      ],
      [
        'todos --author alice',
        command('todo.list', none, { flags: { author: { kind: 'username', username: 'alice' } } }),
      ],
    ],
    refuses: [['todos --type epic', '`--type epic` must be one of Issue, MergeRequest, e.g. `--type Issue`.']],
  },
  {
    row: '/gl todo done <todo-id>',
    accepts: [['todo done 130', command('todo.done', none, { args: { id: 130 } })]],
    refuses: [
      ['todo done', 'Missing `<todo-id>`.'],
      ['todo done abc', '`abc` is not a todo id: a todo id is a number.'],
    ],
  },
  {
    row: '/gl todos done',
    accepts: [['todos done', command('todo.done-all', none)]],
    refuses: [['todos done 130', 'Too many words: `130`. Put text with spaces in quotes.']],
  },
  {
    row: '/gl events [--action a] [--target-type t] [--before d] [--after d] [--sort asc|desc]',
    accepts: [
      ['events', command('event.list', project())],
      [
        'events --action pushed --target-type merge_request --before 2026-03-01 --after 2026-01-31 --sort asc',
        command('event.list', project(), {
          flags: {
            action: 'pushed',
            targetType: 'merge_request',
            before: '2026-03-01',
            after: '2026-01-31',
            sort: 'asc',
          },
        }),
      ],
    ],
    refuses: [
      ['events --after 2026-02-30', '`--after 2026-02-30` must be a date as YYYY-MM-DD, e.g. `--after 2026-12-01`.'],
    ],
  },
  {
    row: '/gl events --user <id or username> [filters]',
    accepts: [
      [
        'events --user alice --action commented',
        command('event.list', project(), {
          flags: { user: { kind: 'username', username: 'alice' }, action: 'commented' },
        }),
      ],
      ['events --user 5', command('event.list', project(), { flags: { user: { kind: 'id', id: 5 } } })],
      [
        'events --user <@U123ABC|alice>',
        command('event.list', project(), { flags: { user: { kind: 'slack', userId: 'U123ABC' } } }),
      ],
      ['events --user=<@W42>', command('event.list', project(), { flags: { user: { kind: 'slack', userId: 'W42' } } })],
    ],
    refuses: [['events demo/web --user alice', '`--user` and a project do not go together: give one of them.']],
  },
  {
    row: '/gl events [<project>] [filters]',
    accepts: [
      [
        'events demo/web --action created',
        command('event.list', project('demo/web'), { flags: { action: 'created' } }),
      ],
    ],
    refuses: [
      [
        'events demo/web --action pushd',
        '`--action pushd` must be one of created, updated, closed, reopened, pushed, commented, merged, joined, left, destroyed, expired. Did you mean `pushed`?',
      ],
    ],
  },
  {
    row: '/gl key <id>',
    accepts: [
      ['key 1', command('key.show', none, { args: { id: 1 } })],
      ['keys 1 --share', command('key.show', none, { args: { id: 1 }, share: true })],
    ],
    refuses: [
      ['key', 'Missing `<key-id>`.'],
      ['key one', '`one` is not a key id: a key id is a number.'],
      ['key 123456789012345678901', '`123456789012345678901` is too large for a key id.'],
    ],
  },

  // ── digests ─────────────────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl digest todos [--cron "0 9 * * 1-5"] [--tz Europe/Berlin] [--here]',
    accepts: [
      ['digest todos', command('digest.todos', none, { flags: { cron: '0 9 * * 1-5' } })],
      [
        'digest todos --cron "30 8 * * 1-5" --tz Europe/Berlin --here',
        command('digest.todos', none, { flags: { cron: '30 8 * * 1-5', tz: 'Europe/Berlin', here: true } }),
      ],
    ],
    refuses: [
      [
        'digest todos --cron "every morning"',
        '`--cron every morning` must be a cron expression of 5 fields: minute hour day-of-month month weekday, e.g. `--cron "0 9 * * 1-5"`.',
      ],
      [
        'digest todos --cron "0 0 9 * * 1-5"',
        '`--cron 0 0 9 * * 1-5` must be a cron expression of 5 fields: minute hour day-of-month month weekday, e.g. `--cron "0 9 * * 1-5"`.',
      ],
    ],
  },
  {
    row: '/gl digest events [<project>] [--cron …] [--tz …] [--action a] [--target-type t]',
    accepts: [
      [
        'digest events demo/web --cron "0 8 * * *" --tz UTC --action pushed --target-type issue',
        command('digest.events', project('demo/web'), {
          flags: { cron: '0 8 * * *', tz: 'UTC', action: 'pushed', targetType: 'issue' },
        }),
      ],
      ['digest events', command('digest.events', project(), { flags: { cron: '0 9 * * 1-5' } })],
    ],
    refuses: [['digest events demo/web --here', '`--here` is not a flag of `/gl digest events`.']],
  },
  {
    row: '/gl digest events --user <id or username> [--cron …]',
    accepts: [
      [
        'digest events --user bob --cron "0 17 * * 5"',
        command('digest.events', project(), {
          flags: { user: { kind: 'username', username: 'bob' }, cron: '0 17 * * 5' },
        }),
      ],
    ],
    refuses: [['digest events demo/web --user bob', '`--user` and a project do not go together: give one of them.']],
  },
  {
    row: '/gl digest insights [<project>] [--cron "0 9 * * 1"] [--tz …] [--env <environment>]',
    accepts: [
      [
        'digest insights demo/web --cron "0 8 * * 1" --tz UTC --env staging',
        command('digest.insights', project('demo/web'), { flags: { cron: '0 8 * * 1', tz: 'UTC', env: 'staging' } }),
      ],
      ['digest insights', command('digest.insights', project(), { flags: { cron: '0 9 * * 1' } })],
      ['digest dora demo/web', command('digest.insights', project('demo/web'), { flags: { cron: '0 9 * * 1' } })],
    ],
    refuses: [['digest insights demo/web --action pushed', '`--action` is not a flag of `/gl digest insights`.']],
  },
  {
    row: '/gl digest list',
    accepts: [
      ['digest list', command('digest.list', none, { needsToken: false })],
      ['digests', command('digest.list', none, { needsToken: false })],
      ['digest', command('digest.list', none, { needsToken: false })],
    ],
    refuses: [['digest lsit', "I don't know `lsit` after `/gl digest`. Did you mean `list`?"]],
  },
  {
    row: '/gl digest edit <digest-id> [--cron] [--tz] [--action] [--target-type]',
    accepts: [
      [
        'digest edit 4 --cron "0 8 * * 1-5" --tz europe/berlin --action pushed --target-type any',
        command('digest.edit', none, {
          args: { id: 4 },
          flags: { cron: '0 8 * * 1-5', tz: 'Europe/Berlin', action: 'pushed', targetType: 'any' },
          needsToken: false,
        }),
      ],
      ['digest update 4', command('digest.edit', none, { args: { id: 4 }, needsToken: false })],
    ],
    refuses: [
      ['digest edit', 'Missing `<digest-id>`.'],
      [
        'digest edit 4 --cron "61 * * * *"',
        '`--cron 61 * * * *` must have its minute from 0 to 59, not 61, e.g. `--cron "0 9 * * 1-5"`.',
      ],
    ],
  },
  {
    row: '/gl digest pause|resume|remove|run <digest-id>',
    accepts: [
      ['digest pause 4', command('digest.pause', none, { args: { id: 4 }, needsToken: false })],
      ['digest resume 4', command('digest.resume', none, { args: { id: 4 }, needsToken: false })],
      ['digest remove 4', command('digest.remove', none, { args: { id: 4 }, needsToken: false })],
      ['digest delete 4', command('digest.remove', none, { args: { id: 4 }, needsToken: false })],
      ['digest run 4', command('digest.run', none, { args: { id: 4 }, needsToken: false })],
    ],
    refuses: [
      ['digest pause', 'Missing `<digest-id>`.'],
      ['digest run latest', '`latest` is not a digest id: a digest id is a number.'],
      ['digest pause abc', '`abc` is not a digest id: a digest id is a number.'],
    ],
  },

  // ── alerts ──────────────────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl notify on [--actions assigned,mentioned,build_failed,marked,approval_required] [--quiet 19:00-08:00]',
    accepts: [
      ['notify on', command('notify.on', none)],
      [
        'notify on --actions assigned,mentioned --quiet 19:00-08:00',
        command('notify.on', none, { flags: { actions: ['assigned', 'mentioned'], quiet: '19:00-08:00' } }),
      ],
      [
        'alerts on --actions build_failed --actions approval_required',
        command('notify.on', none, { flags: { actions: ['build_failed', 'approval_required'] } }),
      ],
    ],
    refuses: [
      [
        'notify on --actions pinged',
        '`--actions pinged` has `pinged`, but each value must be one of assigned, mentioned, build_failed, marked, approval_required, e.g. `--actions assigned,mentioned`.',
      ],
      ['notify on --share', '`--share` only goes with commands that read: `/gl notify on` changes something.'],
    ],
  },
  {
    row: '/gl notify off',
    accepts: [['notify off', command('notify.off', none, { needsToken: false })]],
    refuses: [['notify off now', 'Too many words: `now`. Put text with spaces in quotes.']],
  },
  {
    row: '/gl notify',
    accepts: [
      ['notify', command('notify.show', none, { needsToken: false })],
      ['alerts', command('notify.show', none, { needsToken: false })],
    ],
    refuses: [],
  },

  // ── watches ─────────────────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl watch pipelines [<project>] [--ref r] [--status failed|finished]',
    accepts: [
      ['watch pipelines demo/web', command('watch.pipelines', project('demo/web'))],
      [
        'watch pipelines demo/web --ref main --status finished',
        command('watch.pipelines', project('demo/web'), { flags: { ref: 'main', status: 'finished' } }),
      ],
      ['watch pipelines --ref main', command('watch.pipelines', project(), { flags: { ref: 'main' } })],
    ],
    refuses: [
      [
        'watch pipelines demo/web --status broken',
        '`--status broken` must be one of failed, finished, e.g. `--status failed`.',
      ],
      [
        'watch pipelines demo/web --share',
        '`--share` only goes with commands that read: `/gl watch pipelines` changes something.',
      ],
    ],
  },
  {
    row: '/gl watch list',
    accepts: [
      ['watch list', command('watch.list', none, { needsToken: false })],
      ['watch', command('watch.list', none, { needsToken: false })],
    ],
    refuses: [['watch lsit', "I don't know `lsit` after `/gl watch`. Did you mean `list`?"]],
  },
  {
    row: '/gl watch pause|resume|remove <watch-id>',
    accepts: [
      ['watch pause 3', command('watch.pause', none, { args: { id: 3 }, needsToken: false })],
      ['watch resume 3', command('watch.resume', none, { args: { id: 3 }, needsToken: false })],
      ['watch remove 3', command('watch.remove', none, { args: { id: 3 }, needsToken: false })],
      ['watch delete 3', command('watch.remove', none, { args: { id: 3 }, needsToken: false })],
    ],
    refuses: [['watch pause', 'Missing `<watch-id>`.']],
  },

  // ── links ───────────────────────────────────────────────────────────────────────────────────────────────────
  {
    row: '/gl unfurl private on|off',
    accepts: [
      ['unfurl private on', command('unfurl.private', none, { args: { setting: 'on' }, needsToken: false })],
      ['unfurl private OFF', command('unfurl.private', none, { args: { setting: 'off' }, needsToken: false })],
      ['unfurl --help', command('help', none, { args: { topic: 'unfurl' }, needsToken: false })],
      ['unfurl help', command('help', none, { args: { topic: 'unfurl' }, needsToken: false })],
    ],
    refuses: [
      ['unfurl private', 'Missing `on|off`.'],
      ['unfurl private maybe', '`maybe` must be one of on, off, e.g. `on`.'],
      [
        'unfurl private on --share',
        '`--share` only goes with commands that read: `/gl unfurl private` changes something.',
      ],
      ['unfurl on', "I don't know `on` after `/gl unfurl`."],
      ['unfurl private on off', 'Too many words: `off`. Put text with spaces in quotes.'],
    ],
  },
];

describe.each(ROWS)('the command row $row', ({ accepts, refuses }) => {
  it.each(accepts)('accepts `%s`', (text, expected) => {
    expect(accepted(text)).toStrictEqual(expected);
  });
  it.each(refuses)('refuses `%s` with a message that says what is wrong', (text, message) => {
    expect(problem(text)).toBe(message);
  });
});

describe('the table of command rows', () => {
  it('covers every command key of the spec with an accepted form', () => {
    const covered = new Set(ROWS.flatMap((r) => r.accepts.map(([, c]) => c.key)));
    const missing = SPEC.map((e) => e.key).filter((key) => !covered.has(key));
    expect(missing).toEqual([]);
  });

  it('shows the usage of the command after every refusal', () => {
    for (const { refuses } of ROWS) {
      for (const [text] of refuses) {
        const result = parse(text);
        expect(result.ok).toBe(false);
        if (!result.ok) {
          expect(result.error.message).toContain('Usage');
          expect(result.error.noun).toBeTypeOf('string');
        }
      }
    }
  });
});
