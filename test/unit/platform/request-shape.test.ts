import { stringify } from 'node:querystring';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bodyProblem } from '../../../src/listeners/request-shape.js';

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
const interaction = z.looseObject({
  type: id,
  user: withId,
  team: withId.nullable().optional(),
  channel: withId.optional(),
  actions: z.array(z.looseObject({})).optional(),
  view: z.looseObject({}).optional(),
  message: z.looseObject({}).optional(),
  container: z.looseObject({}).optional(),
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

  it('reads an interaction payload as the interaction schema does, field by field', () => {
    const base: Record<string, unknown> = {
      type: 'block_actions',
      user: { id: 'U1', name: 'alice' },
      team: { id: 'T1' },
      channel: { id: 'C1' },
      actions: [{ action_id: 'x' }],
      view: { id: 'V1' },
      message: { ts: '1' },
      container: { type: 'message' },
      extra: 1,
    };
    const keys = ['type', 'user', 'team', 'channel', 'actions', 'view', 'message', 'container', 'extra'];
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
  });
});
