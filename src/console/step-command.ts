import { isStepId, STEPS } from '../steps/definitions.js';
import type { FakeRecord, FakeWorkspace } from './fake-slack-state.js';

// The console's `step` command: a workflow reaching a Workflow Builder step of the app, as Slack would run it
// (function_executed with a workflow token), and how the step ended (functions.completeSuccess / completeError)
// printed when it does.

export const STEP_HELP = [
  '  step <step> k=v …    a workflow reaches a step of the bot, e.g. step run_pipeline project=demo/web ref=main',
  '                       user=@alice, or step create_issue project=demo/web title="Broken build" user=@bob',
  '                       (the person is asked in a DM: "as alice", then press Allow once, Always or Deny)',
].join('\n');

export type StepLine =
  | { ok: true; step: { callbackId: string; title: string }; inputs: Record<string, string> }
  | { ok: false; error: string };

/** `run_pipeline project=demo/web ref=main user=@alice`: `user=@name` names a person of the demo (user_id). */
export function parseStepLine(text: string, people: Readonly<Record<string, { id: string }>>): StepLine {
  const [id, ...rest] = text.trim().match(/(?:[^\s"]+|"[^"]*")+/g) ?? [];
  if (!id || !isStepId(id)) return { ok: false, error: `Which step? One of: ${Object.keys(STEPS).join(', ')}.` };
  const inputs: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, error: `"${part}" is not key=value (e.g. project=demo/web).` };
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1).replace(/^"(.*)"$/, '$1');
    if (key === 'user') {
      const who = people[value.replace(/^@/, '').toLowerCase()];
      if (!who) return { ok: false, error: `Who is ${value}? One of: ${Object.keys(people).join(', ')}.` };
      inputs.user_id = who.id;
    } else inputs[key] = value;
  }
  return { ok: true, step: { callbackId: id, title: STEPS[id].title }, inputs };
}

/** A step ending (functions.completeSuccess / completeError), as printed; null for any other record. */
export function describeStepEnd(r: FakeRecord, fake: FakeWorkspace): string | null {
  if (!r.ok || (r.method !== 'functions.completeSuccess' && r.method !== 'functions.completeError')) return null;
  const id = String(r.body.function_execution_id ?? '');
  const callbackId = fake.functionExecutions.get(id)?.callbackId ?? '';
  const title = isStepId(callbackId) ? STEPS[callbackId].title : callbackId;
  if (r.method === 'functions.completeError') {
    return `┌ workflow step "${title}" failed; the workflow stops\n│ ${String(r.body.error ?? '')}`;
  }
  let outputs: Record<string, unknown> = {};
  try {
    const raw = r.body.outputs;
    outputs = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>;
  } catch {
    outputs = {};
  }
  const lines = Object.entries(outputs ?? {}).map(([k, v]) => `│ ${k}: ${String(v)}`);
  return [`┌ workflow step "${title}" completed; the workflow goes on with`, ...lines].join('\n');
}
