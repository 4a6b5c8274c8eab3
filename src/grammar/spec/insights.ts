import type { NounSpec } from '../spec-types.js';
import { type RowSpec, rows } from './row.js';

/** What `/gl help insights` says each key is: the rules src/insights/ computes them by. */
export const INSIGHTS_DEFINITIONS = [
  '*Deployment frequency*: deployments to the environment (the production-like one unless `--env` names another) per week, whatever their outcome.',
  '*Lead time for changes*: from a merge request’s merge (its merged_at, or its last update where the server does not say) to the first successful deployment of its target branch after it; median and p90.',
  '*Change failure rate*: the share of finished deployments that failed: their deployment job failed, or the next deployment to the environment put back an older commit (a rollback).',
  '*Time to restore*: from the first failed deployment of a run of failures to the next successful one on that environment; median.',
  "*Pipelines' health*: on the ref (the default branch unless `--ref`), the share of finished pipelines that passed (canceled ones left out), their median and p90 duration per week, and the slowest and most-failing jobs.",
  'Each key is set against the same number of days before the window. At most 20 pages of jobs, 10 of deployments and 5 of merge requests are read (100 each); the card says when a list went further back than that. Answers are kept for 5 minutes per person and project.',
  'The chart comes as a PNG with the answer: in the channel with `--share`, otherwise in your direct message with the bot.',
  'Weekly in this channel: `digest insights [<project>] [--cron "0 9 * * 1"] [--tz …] [--env <environment>]` posts the last 7 days’ keys vs last week, the pipelines’ health and a chart of four weeks.',
] as const;

export const INSIGHTS_NOUNS = [
  {
    name: 'insights',
    aliases: ['insight', 'dora'],
    group: 'insights',
    summary: 'the four keys of delivery and the pipelines’ health of a project, with a chart',
    defaults: { plural: 'insights', singular: 'insights' },
    notes: INSIGHTS_DEFINITIONS,
  },
] as const satisfies readonly NounSpec[];

export const INSIGHTS_ROWS = rows([
  {
    key: 'insights',
    target: 'project',
    flags: [
      {
        name: 'days',
        type: 'int',
        min: 1,
        max: 365,
        default: 30,
        placeholder: '<1–365>',
        summary: 'the window, in days up to today (default 30)',
      },
      {
        name: 'ref',
        type: 'string',
        placeholder: '<ref>',
        summary: "the pipelines' branch (default: the default branch)",
      },
      {
        name: 'env',
        type: 'string',
        aliases: ['environment'],
        placeholder: '<environment>',
        summary: 'the environment the keys are about (default: `production` or one named like it)',
      },
    ],
    access: 'read',
    summary:
      'deployment frequency, lead time, change failure rate and time to restore against the window before, the pipelines’ health, and a chart',
    example: 'insights demo/web --days 30',
  },
] as const satisfies readonly RowSpec[]);
