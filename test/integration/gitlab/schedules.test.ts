import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { example } from './support/examples.js';
import { expectRequest, type Harness, startHarness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.server.reset();
});

const P = '/projects/demo%2Fweb/pipeline_schedules';

describe('pipeline schedules', () => {
  it('lists schedules by scope', async () => {
    h.server.enqueue({ body: example('pipeline_schedules/01-get-list-schedules') });
    const page = await h.client.schedules.list('demo/web', { scope: 'active', per_page: 100 });
    expectRequest(h.only(), { method: 'GET', path: P, query: { scope: 'active', per_page: '100' } });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ id: 13, cron_timezone: 'Asia/Tokyo', owner: { username: 'root' } });
    expect(page.items[0]?.last_pipeline).toBeUndefined();
  });

  it('gets one schedule with its last pipeline', async () => {
    h.server.enqueue({ body: example('pipeline_schedules/02-get-single-schedule') });
    const schedule = await h.client.schedules.get('demo/web', 13);
    expectRequest(h.only(), { method: 'GET', path: `${P}/13` });
    expect(schedule.last_pipeline).toEqual({
      id: 332,
      sha: '0e788619d0b5ec17388dffb973ecd505946156db',
      ref: 'master',
      status: 'pending',
    });
  });

  it('creates a schedule from form fields', async () => {
    h.server.enqueue({ status: 201, body: example('pipeline_schedules/03-post-create-schedule') });
    const schedule = await h.client.schedules.create('demo/web', {
      description: 'Build packages',
      ref: 'master',
      cron: '0 1 * * 5',
      cron_timezone: 'UTC',
      active: true,
    });
    expectRequest(h.only(), {
      method: 'POST',
      path: P,
      form: { description: 'Build packages', ref: 'master', cron: '0 1 * * 5', cron_timezone: 'UTC', active: 'true' },
    });
    expect(schedule).toMatchObject({ id: 14, last_pipeline: null });
  });

  it('edits a schedule, sending only the fields given', async () => {
    h.server.enqueue({ body: example('pipeline_schedules/04-put-edit-schedule') });
    const schedule = await h.client.schedules.edit('demo/web', 13, { cron: '0 2 * * *', active: undefined });
    expectRequest(h.only(), { method: 'PUT', path: `${P}/13`, form: { cron: '0 2 * * *' } });
    expect(schedule.cron).toBe('0 2 * * *');
  });

  it('deactivates a schedule through an edit of active', async () => {
    h.server.enqueue({ body: { ...(example('pipeline_schedules/04-put-edit-schedule') as object), active: false } });
    const schedule = await h.client.schedules.edit('demo/web', 13, { active: false });
    expectRequest(h.only(), { method: 'PUT', path: `${P}/13`, form: { active: 'false' } });
    expect(schedule.active).toBe(false);
  });

  it('takes ownership of a schedule', async () => {
    h.server.enqueue({ status: 201, body: example('pipeline_schedules/05-post-take-ownership') });
    const schedule = await h.client.schedules.takeOwnership('demo/web', 13);
    expectRequest(h.only(), { method: 'POST', path: `${P}/13/take_ownership` });
    expect(schedule.owner?.username).toBe('maeda');
  });

  it('deletes a schedule and returns it (202 with a body)', async () => {
    h.server.enqueue({ status: 202, body: example('pipeline_schedules/06-delete-schedule') });
    const schedule = await h.client.schedules.remove('demo/web', 13);
    expectRequest(h.only(), { method: 'DELETE', path: `${P}/13` });
    expect(schedule?.id).toBe(13);
  });

  it('deletes a schedule on a server that answers 204 with no body', async () => {
    h.server.enqueue({ status: 204 });
    await expect(h.client.schedules.remove('demo/web', 13)).resolves.toBeNull();
  });
});
