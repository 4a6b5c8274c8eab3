import { describe, expect, it } from 'vitest';
import type { FakeRecord } from '../../../src/console/fake-slack.js';
import { ModalStacks } from '../../../src/console/web/modals.js';

// Which modal each person of the web demo has open: views belong to whoever's action handed out their trigger_id,
// even when the bot opens the view before that action's request has returned.

let seq = 0;
const viewCall = (method: string, body: Record<string, unknown>, view: Record<string, unknown>): FakeRecord => {
  seq += 1;
  return { seq, kind: 'api', method, body, ok: true, violations: [], view };
};

describe('modal stacks of the web demo', () => {
  it('gives a view to the person whose trigger opened it, even when the view came first', () => {
    const m = new ModalStacks();
    m.observe(viewCall('views.open', { trigger_id: 't1' }, { id: 'V1', title: { text: 'New issue' } }));
    expect(m.stackOf('U0ALICE')).toEqual([]);
    m.own('t1', 'U0ALICE');
    expect(m.stackOf('U0ALICE').map((v) => v.id)).toEqual(['V1']);
    expect(m.stackOf('U0BOB')).toEqual([]);
  });

  it('pushes, updates by id, keeps the view on errors, closes the top on an empty answer and all on clear', () => {
    const m = new ModalStacks();
    m.own('t1', 'U0ALICE');
    m.own('t2', 'U0ALICE');
    m.observe(viewCall('views.open', { trigger_id: 't1' }, { id: 'V1' }));
    m.observe(viewCall('views.push', { trigger_id: 't2' }, { id: 'V2' }));
    m.observe(viewCall('views.update', { view_id: 'V1' }, { id: 'V1', title: { text: 'changed' } }));
    expect(m.stackOf('U0ALICE').map((v) => v.id)).toEqual(['V1', 'V2']);
    expect(m.stackOf('U0ALICE')[0]?.title).toEqual({ text: 'changed' });
    m.submitted('U0ALICE', { response_action: 'errors', errors: { title: 'Give the issue a title.' } });
    expect(m.stackOf('U0ALICE')).toHaveLength(2);
    m.submitted('U0ALICE', null);
    expect(m.stackOf('U0ALICE').map((v) => v.id)).toEqual(['V1']);
    m.submitted('U0ALICE', { response_action: 'update', view: { type: 'modal', title: { text: 'Done' } } });
    expect(m.stackOf('U0ALICE')).toEqual([{ type: 'modal', title: { text: 'Done' }, id: 'V1' }]);
    m.submitted('U0ALICE', { response_action: 'clear' });
    expect(m.stackOf('U0ALICE')).toEqual([]);
  });

  it('ignores calls that failed and views that are not modals of a person', () => {
    const m = new ModalStacks();
    m.own('t1', 'U0ALICE');
    expect(m.observe({ ...viewCall('views.open', { trigger_id: 't1' }, { id: 'V1' }), ok: false })).toBe(false);
    expect(m.observe(viewCall('views.publish', { user_id: 'U0ALICE' }, { id: 'V2', type: 'home' }))).toBe(false);
    expect(m.stackOf('U0ALICE')).toEqual([]);
  });
});
