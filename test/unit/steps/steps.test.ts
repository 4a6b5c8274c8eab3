import { describe, expect, it } from 'vitest';
import { decodeConsentClick } from '../../../src/buttons/step-consent.js';
import { labelsOf, STEPS, scopeOf } from '../../../src/steps/definitions.js';
import { findBlockViolations } from '../../../src/views/limits.js';
import { alwaysButtonText, buildConsentQuestion } from '../../../src/views/steps.js';

// The steps' inputs as a workflow's builder may fill them, the consent DM inside Slack's limits, and the
// consent buttons' values.

describe('step inputs', () => {
  it('take a project path or id, a ref and a Slack person, and refuse anything else with the reason', () => {
    const run = STEPS.run_pipeline;
    expect(run.decode({ project: ' demo/web ', ref: 'main', user_id: 'U0ALICE' })).toEqual({
      ok: true,
      step: {
        userId: 'U0ALICE',
        project: 'demo/web',
        inputs: { project: 'demo/web', ref: 'main', user_id: 'U0ALICE' },
      },
    });
    expect(run.decode({ project: '42', ref: 'v1.0', user_id: 'W0X' })).toMatchObject({ ok: true });
    expect(run.decode({ project: 'demo/web', ref: 'main' })).toEqual({ ok: false, reason: 'user_id is missing' });
    expect(run.decode({ project: 'demo/../x', ref: 'main', user_id: 'U1' })).toMatchObject({
      ok: false,
      reason: 'project must be a path like group/project',
    });
    expect(run.decode({ project: 'demo/web', ref: 'a b', user_id: 'U1' })).toMatchObject({
      ok: false,
      reason: 'ref is not a branch or tag name',
    });
    expect(run.decode({ project: 'demo/web', ref: 'main', user_id: '<!channel>' })).toMatchObject({ ok: false });
    expect(run.decode(null)).toMatchObject({ ok: false });
  });

  it('leave the optional ones of an issue empty and split labels on commas', () => {
    const decoded = STEPS.create_issue.decode({ project: 'demo/web', title: ' T ', user_id: 'U1' });
    expect(decoded).toMatchObject({ ok: true, step: { inputs: { title: 'T', description: '', labels: '' } } });
    expect(STEPS.create_issue.decode({ project: 'demo/web', title: '', user_id: 'U1' })).toMatchObject({
      ok: false,
      reason: 'title is empty',
    });
    expect(labelsOf(' bug, ops ,, ')).toEqual(['bug', 'ops']);
  });

  it('scope an "Always" to the step, the project (whatever its case) and the ref; an issue has none', () => {
    const main = scopeOf(STEPS.run_pipeline, 'Demo/Web', { ref: 'main' });
    expect(main).toEqual({ key: 'step:run_pipeline:demo/web:ref:main', label: 'Run a pipeline on Demo/Web at main' });
    const other = scopeOf(STEPS.run_pipeline, 'demo/web', { ref: 'eve-branch' });
    expect(other?.key).not.toBe(main?.key);
    expect(scopeOf(STEPS.run_pipeline, 'demo/web', { ref: 'Main' })?.key).not.toBe(main?.key);
    // A ref cannot spell another scope.
    expect(scopeOf(STEPS.run_pipeline, 'demo/web', { ref: 'main:ref:x' })?.key).toBe(
      'step:run_pipeline:demo/web:ref:main%3Aref%3Ax',
    );
    expect(scopeOf(STEPS.create_issue, 'demo/web', { title: 'x' })).toBeNull();
  });
});

describe('the consent DM', () => {
  it('stays inside Slack limits with the longest inputs, and its Always button says what it covers', () => {
    const project = `${'a'.repeat(120)}/${'b'.repeat(120)}`;
    const m = buildConsentQuestion({
      step: STEPS.create_issue,
      executionId: 'Fx1',
      inputs: { project, title: 't'.repeat(255), description: '<!here> '.repeat(20_000), labels: 'x', user_id: 'U1' },
      workflowExecutionId: 'Wx1',
      alwaysLabel: `Run a pipeline on ${project} at ${'r'.repeat(200)}`,
      serverUrl: 'https://gitlab.example.com',
      slashCommand: '/gl',
    });
    expect(findBlockViolations(m.blocks, 'message')).toEqual([]);
    expect(JSON.stringify(m.blocks)).not.toContain('<!here>');
    expect(alwaysButtonText('Run a pipeline on demo/web')).toBe('Always for Run a pipeline on demo/web');
    expect(alwaysButtonText(`Run a pipeline on ${project}`).length).toBeLessThanOrEqual(75);
  });

  it("decodes its buttons' clicks, and nothing else", () => {
    expect(decodeConsentClick('gl-step:always', '{"e":"Fx12"}')).toEqual({ answer: 'always', executionId: 'Fx12' });
    expect(decodeConsentClick('gl-step:run', '{"e":"Fx12"}')).toBeNull();
    expect(decodeConsentClick('gl:step.revoke', '{"e":"Fx12"}')).toBeNull();
    expect(decodeConsentClick('gl-step:once', '{"e":"../x"}')).toBeNull();
    expect(decodeConsentClick('gl-step:once', 'not json')).toBeNull();
  });
});
