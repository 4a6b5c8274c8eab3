import { z } from 'zod';
import { onServer, type Project, projectOf, projectPageUrl } from '../gitlab/project.js';
import type { RequestContext } from '../operations/context.js';
import type { IssueOperations } from '../operations/issues.js';
import type { PipelineOperations } from '../operations/pipelines.js';

// The Workflow Builder steps (manifest.yml `functions`): the inputs each takes (checked: a workflow's builder
// can put anything there), what its person is shown before it acts, and what it does with that person's token.

export type StepId = 'run_pipeline' | 'create_issue';

/** What a step runs with: the operations, as the person. */
export interface StepRunDeps {
  pipelines: Pick<PipelineOperations, 'run'>;
  issues: Pick<IssueOperations, 'create'>;
  /** Where links point (GITLAB_PUBLIC_URL, else GITLAB_URL). */
  serverUrl: string;
}

export type StepOutputs = Record<string, string | number>;

export interface DecodedStep {
  /** The person the step acts as. */
  userId: string;
  /** The project as the inputs name it (a path, or a numeric id). */
  project: string;
  /** Every input, as checked (what the person is shown, and what the step runs with). */
  inputs: Record<string, string>;
}

export interface StepDefinition {
  id: StepId;
  /** As the manifest titles it: "Run a pipeline". */
  title: string;
  /** The inputs the person is shown, in order, with their labels. */
  shown: readonly (readonly [key: string, label: string])[];
  decode(raw: unknown): { ok: true; step: DecodedStep } | { ok: false; reason: string };
  run(
    ctx: RequestContext,
    project: Project,
    inputs: Readonly<Record<string, string>>,
    d: StepRunDeps,
  ): Promise<StepOutputs>;
}

const SlackUser = z.string().regex(/^[UW][A-Z0-9]{1,30}$/, 'user_id must be a Slack person');
/** A path (`group/sub/app`, no `.` or `..` segment) or a numeric id, as the API takes it. */
const ProjectInput = z
  .string()
  .trim()
  .min(1, 'project is empty')
  .max(255, 'project is longer than 255 characters')
  .regex(/^(?:\d+|[A-Za-z0-9_.+-]+(?:\/[A-Za-z0-9_.+-]+)*)$/, 'project must be a path like group/project')
  .refine((p) => p.split('/').every((s) => s !== '.' && s !== '..'), 'project must be a path like group/project');
const Ref = z
  .string()
  .trim()
  .min(1, 'ref is empty')
  .max(255, 'ref is longer than 255 characters')
  .regex(/^[^\s\p{Cc}~^:?*[\\]+$/u, 'ref is not a branch or tag name');
const Optional = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is longer than ${max} characters`)
    .nullish()
    .transform((v) => v?.trim() ?? '');

/** A project key for the API: a numeric id as a number, a path as it is. */
export function projectOfInput(project: string): Project {
  return /^\d+$/.test(project) ? projectOf(Number(project)) : projectOf(project);
}

function decodeWith(schema: z.ZodType<Record<string, string>>, raw: unknown): ReturnType<StepDefinition['decode']> {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = first?.path[0];
    const reason =
      first?.code === 'invalid_type' && typeof field === 'string' ? `${field} is missing` : (first?.message ?? '');
    return { ok: false, reason };
  }
  const inputs = parsed.data;
  return {
    ok: true,
    step: { userId: inputs.user_id as string, project: inputs.project as string, inputs },
  };
}

const RunPipelineInputs = z.object({ project: ProjectInput, ref: Ref, user_id: SlackUser });

const CreateIssueInputs = z.object({
  project: ProjectInput,
  title: z.string().trim().min(1, 'title is empty').max(255, 'title is longer than 255 characters'),
  description: Optional(100_000, 'description'),
  labels: Optional(1000, 'labels'),
  user_id: SlackUser,
});

/** Comma-separated labels, trimmed, empty ones left out. */
export function labelsOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

export const STEPS: Readonly<Record<StepId, StepDefinition>> = {
  run_pipeline: {
    id: 'run_pipeline',
    title: 'Run a pipeline',
    shown: [
      ['project', 'Project'],
      ['ref', 'Branch or tag'],
    ],
    decode: (raw) => decodeWith(RunPipelineInputs, raw),
    async run(ctx, project, inputs, d) {
      const pipeline = await d.pipelines.run(ctx, project, inputs.ref ?? '');
      const url =
        onServer(d.serverUrl, pipeline.web_url) ?? projectPageUrl(d.serverUrl, project, `-/pipelines/${pipeline.id}`);
      return { pipeline_id: pipeline.id, pipeline_url: url ?? '', status: pipeline.status };
    },
  },
  create_issue: {
    id: 'create_issue',
    title: 'Create an issue',
    shown: [
      ['project', 'Project'],
      ['title', 'Title'],
      ['description', 'Description'],
      ['labels', 'Labels'],
    ],
    decode: (raw) => decodeWith(CreateIssueInputs, raw),
    async run(ctx, project, inputs, d) {
      const labels = labelsOf(inputs.labels);
      const issue = await d.issues.create(ctx, project, {
        title: inputs.title ?? '',
        ...(inputs.description ? { description: inputs.description } : {}),
        ...(labels.length > 0 ? { labels: labels.join(',') } : {}),
      });
      const url = onServer(d.serverUrl, issue.web_url) ?? projectPageUrl(d.serverUrl, project, `-/issues/${issue.iid}`);
      return { issue_iid: issue.iid, issue_url: url ?? '' };
    },
  },
};

export const STEP_IDS = Object.keys(STEPS) as StepId[];

export function isStepId(id: unknown): id is StepId {
  return typeof id === 'string' && Object.hasOwn(STEPS, id);
}

/**
 * What an "Always" covers: the step, the project and every input that steers what the step does, as the person
 * saw them. Slack's function_executed names the run of a workflow (workflow_execution_id, new on every run) and the
 * function, but no workflow that runs again, so the bot cannot recognise "this workflow" the next time. A pipeline
 * is steered by its ref: an "Always" covers this step on this project at this ref, and another ref asks again. An
 * issue is steered by free text (its title, description, labels) that no scope can pin down: it has no "Always",
 * only "Allow once" (null).
 */
export function scopeOf(
  step: StepDefinition,
  project: string,
  inputs: Readonly<Record<string, string>>,
): { key: string; label: string } | null {
  if (step.id !== 'run_pipeline') return null;
  const ref = inputs.ref ?? '';
  if (project === '' || ref === '') return null;
  // Refs are case-sensitive; project paths are not. The ref is encoded so no ref can read as another scope.
  return {
    key: `step:run_pipeline:${project.toLowerCase()}:ref:${encodeURIComponent(ref)}`,
    label: `${step.title} on ${project} at ${ref}`,
  };
}
