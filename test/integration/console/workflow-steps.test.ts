import { describe, expect, it } from 'vitest';
import { numberOf, useDemoConsole } from '../../support/demo-console.js';

// The demo console runs a Workflow Builder step as Slack would (`step …`): the person's consent DM with its
// numbered buttons, and how the step ended once they answered.

const demoConsole = useDemoConsole();
const { say } = demoConsole;

describe('a workflow step in the console', () => {
  it('asks the person in a DM, and Allow once completes the step with its outputs', async () => {
    const asked = await say('step run_pipeline project=demo/web ref=main user=@alice');
    expect(asked).toContain('┌ direct message to alice');
    expect(asked).toContain('A workflow asks to act as you: Run a pipeline');
    expect(asked).toMatch(/\[\d+ Always for Run a pipeline on demo\/web at main\]/);
    expect(asked).not.toContain('completed');

    const allowed = await say(String(numberOf(asked, 'Allow once')));
    expect(allowed).toContain('You allowed it once.');
    expect(allowed).toContain('┌ workflow step "Run a pipeline" completed; the workflow goes on with');
    expect(allowed).toMatch(/│ pipeline_id: \d+/);
    expect(allowed).toMatch(/│ pipeline_url: http:\/\/\S+\/demo\/web\/-\/pipelines\/\d+/);
    expect(allowed).toMatch(/│ status: \w+/);
  });

  it('Deny fails the step with its sentence; an issue offers no Always; Always for a ref covers that ref only', async () => {
    const asked = await say('step create_issue project=demo/web title="Broken build" labels=bug user=@alice');
    expect(asked).not.toContain('Always for');
    const denied = await say(String(numberOf(asked, 'Deny')));
    expect(denied).toContain('┌ workflow step "Create an issue" failed; the workflow stops\n│ not allowed by @alice');

    const again = await say('step run_pipeline project=demo/web ref=main user=@alice');
    const always = await say(String(numberOf(again, 'Always for Run a pipeline on demo/web at main')));
    expect(always).toMatch(/│ pipeline_id: \d+/);
    const next = await say('step run_pipeline project=demo/web ref=main user=@alice');
    // No question: only the direct message that tells alice it acted as her, with Revoke.
    expect(next).not.toContain('Allow once');
    expect(next).toContain('reached its step Run a pipeline and it acted as you on `demo/web`');
    expect(next).toMatch(/\[\d+ Revoke\]/);
    expect(next).toMatch(/"Run a pipeline" completed[\s\S]*│ pipeline_id: \d+/);
    // Another branch asks first.
    const other = await say('step run_pipeline project=demo/web ref=feature/checkout user=@alice');
    expect(other).toContain('Allow once');
    expect(other).not.toContain('completed');
  });

  it('says what a line lacks', async () => {
    expect(await say('step deploy')).toContain('Which step? One of: run_pipeline, create_issue.');
    expect(await say('step run_pipeline project=demo/web user=@zed')).toContain('Who is @zed?');
  });
});
