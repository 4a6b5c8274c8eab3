import { stringify } from 'node:querystring';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bodyProblem } from '../../../src/slack/transport/request-shape.js';

// Commands and interactions are checked field by field before each ack; these are the schemas they were checked
// with before, and every variant below must get the same verdict from both.
const id = z.string().min(1);
const withId = z.looseObject({ id });
const command = z.looseObject({
  command: z.string().regex(/^\/\S+$/),
  user_id: id,
  team_id: z.string().optional(),
  channel_id: z.string().optional(),
  text: z.string().optional(),
});
// What each kind carries whenever Slack sends it (issue 46: a click without actions waited 3 s for a 404, a
// submission without a view was a 500).
const KINDS: Record<string, z.ZodType> = {
  block_actions: z.looseObject({ actions: z.array(z.looseObject({ action_id: id })).min(1) }),
  view_submission: z.looseObject({ view: z.looseObject({ callback_id: z.string().optional() }) }),
  view_closed: z.looseObject({ view: z.looseObject({ callback_id: z.string().optional() }) }),
  block_suggestion: z.looseObject({ action_id: id }),
  shortcut: z.looseObject({ callback_id: id }),
  message_action: z.looseObject({ callback_id: id }),
};
const interaction = z
  .looseObject({
    type: id,
    user: withId,
    team: withId.nullable().optional(),
    channel: withId.optional(),
    actions: z.array(z.looseObject({})).optional(),
    view: z.looseObject({}).optional(),
    message: z.looseObject({}).optional(),
    container: z.looseObject({}).optional(),
  })
  .superRefine((p, ctx) => {
    const kind = KINDS[p.type];
    if (kind && !kind.safeParse(p).success) ctx.addIssue({ code: 'custom', message: `not a ${p.type}` });
  });

const FORM = 'application/x-www-form-urlencoded';
const ABSENT = Symbol('absent');

/** Each value a field is tried with (ABSENT: the field is left out). */
const FORM_VALUES: (string | string[] | typeof ABSENT)[] = [ABSENT, '', 'x', '/gl', '/ gl', 'gl', '/gl x', ['a', 'b']];
const JSON_VALUES: unknown[] = [
  ABSENT,
  null,
  '',
  'x',
  1,
  true,
  [],
  ['a'],
  {},
  { id: '' },
  { id: 'U1' },
  { id: 1 },
  { id: null },
  [{}],
  [{ type: 'button' }, {}],
  [null],
  [{}, 1],
  [[]],
];

function withField<T>(base: Record<string, T>, key: string, value: T | typeof ABSENT): Record<string, T> {
  const out = { ...base };
  if (value === ABSENT) delete out[key];
  else out[key] = value;
  return out;
}

describe('the shape of a signed body', () => {
  it('reads a command form as the command schema does, field by field', () => {
    const base = { command: '/gl', user_id: 'U1', team_id: 'T1', channel_id: 'C1', text: 'jobs demo/web', other: 'x' };
    let checked = 0;
    for (const key of ['command', 'user_id', 'team_id', 'channel_id', 'text', 'other']) {
      for (const value of FORM_VALUES) {
        const fields = withField<string | string[]>(base, key, value);
        const expected = command.safeParse(fields).success;
        expect(bodyProblem(FORM, stringify(fields)) === null, `${key}=${JSON.stringify(value)}`).toBe(expected);
        checked++;
      }
    }
    // Two fields off at once, too.
    for (const a of FORM_VALUES) {
      for (const b of FORM_VALUES) {
        const fields = withField(withField<string | string[]>(base, 'command', a), 'user_id', b);
        expect(bodyProblem(FORM, stringify(fields)) === null).toBe(command.safeParse(fields).success);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it.each(['block_actions', 'view_submission', 'shortcut', 'message_action', 'other'])(
    'reads a %s payload as the interaction schema does, field by field',
    (type) => {
      const base: Record<string, unknown> = {
        type,
        callback_id: 'gl_issue_from_message',
        user: { id: 'U1', name: 'alice' },
        team: { id: 'T1' },
        channel: { id: 'C1' },
        actions: [{ action_id: 'x' }],
        view: { id: 'V1' },
        message: { ts: '1' },
        container: { type: 'message' },
        extra: 1,
      };
      const keys = [
        'type',
        'user',
        'team',
        'channel',
        'actions',
        'view',
        'message',
        'container',
        'extra',
        'callback_id',
      ];
      for (const key of keys) {
        for (const value of JSON_VALUES) {
          const payload = withField(base, key, value);
          const expected = interaction.safeParse(payload).success;
          const got = bodyProblem(FORM, stringify({ payload: JSON.stringify(payload) })) === null;
          expect(got, `${key}=${JSON.stringify(value)}`).toBe(expected);
        }
      }
      for (const payload of [null, 1, 'x', [], [base], true]) {
        expect(bodyProblem(FORM, stringify({ payload: JSON.stringify(payload) })) === null).toBe(
          interaction.safeParse(payload).success,
        );
      }
    },
  );

  it('refuses the four bodies Slack never sends, and takes the ones it does', () => {
    const payload = (p: unknown) => stringify({ payload: JSON.stringify(p) });
    const user = { id: 'U1' };
    expect(bodyProblem(FORM, payload({ type: 'block_actions', user }))).not.toBeNull();
    expect(bodyProblem(FORM, payload({ type: 'block_actions', user, actions: [] }))).not.toBeNull();
    expect(bodyProblem(FORM, payload({ type: 'block_actions', user, actions: [{ action_id: 7 }] }))).not.toBeNull();
    expect(bodyProblem(FORM, payload({ type: 'block_actions', user, actions: [{ action_id: 'a' }] }))).toBeNull();
    expect(bodyProblem(FORM, payload({ type: 'view_submission', user }))).not.toBeNull();
    expect(bodyProblem(FORM, payload({ type: 'view_submission', user, view: { callback_id: 'c' } }))).toBeNull();

    const event = (e: Record<string, unknown>) => JSON.stringify({ type: 'event_callback', event_id: 'Ev1', event: e });
    expect(bodyProblem('application/json', event({ type: 'app_home_opened', user: null }))).not.toBeNull();
    expect(bodyProblem('application/json', event({ type: 'app_home_opened' }))).not.toBeNull();
    expect(bodyProblem('application/json', event({ type: 'app_home_opened', user: 'U1', tab: 'home' }))).toBeNull();
    const executed = {
      type: 'function_executed',
      function: { id: 'Fn1', callback_id: 'run_pipeline' },
      inputs: { project: 'demo/web' },
      function_execution_id: 'Fx1',
      workflow_execution_id: 'Wx1',
    };
    expect(bodyProblem('application/json', event(executed))).toBeNull();
    expect(bodyProblem('application/json', event({ ...executed, function: null }))).not.toBeNull();
    expect(bodyProblem('application/json', event({ ...executed, function: { id: 'Fn1' } }))).not.toBeNull();
    expect(bodyProblem('application/json', event({ ...executed, function_execution_id: 1 }))).not.toBeNull();
    expect(bodyProblem('application/json', event({ ...executed, inputs: 'x' }))).not.toBeNull();
    expect(bodyProblem('application/json', event({ type: 'message', user: null }))).not.toBeNull();
    expect(bodyProblem('application/json', event({ type: 'user_change', user: { id: 'U1' } }))).toBeNull();
  });
});
