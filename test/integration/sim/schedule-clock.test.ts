import { beforeEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../../support/clock.js';
import { useSimulator, WEB } from './support.js';

// `next_run_at` is what the server would say at the moment of the request: it moves on with
// the simulator's clock however long nobody ticked, while the fake runner still starts a
// pipeline for a run that came due.

const clock = fakeClock();
const s = useSimulator({ now: clock.now });
const SCHEDULES = `/projects/${WEB}/pipeline_schedules`;

beforeEach(() => {
  clock.set('2026-03-02T10:59:30.000Z');
});

async function createHourly(): Promise<number> {
  const res = await s.post(SCHEDULES, { as: 'bob', form: { description: 'Hourly', ref: 'main', cron: '0 * * * *' } });
  expect(res.status).toBe(201);
  expect(res.data.next_run_at).toBe('2026-03-02T11:00:00.000Z');
  return res.data.id as number;
}

const nextRunInList = async (id: number) =>
  (await s.get(SCHEDULES)).data.find((x: { id: number }) => x.id === id)?.next_run_at;

describe('next_run_at and the clock', () => {
  it('moves to the following hour once the clock passes the hour, in the list and in the single read', async () => {
    const id = await createHourly();
    expect((await s.get(`${SCHEDULES}/${id}`)).data.next_run_at).toBe('2026-03-02T11:00:00.000Z');
    expect(await nextRunInList(id)).toBe('2026-03-02T11:00:00.000Z');

    clock.advance(40_000);
    expect((await s.get(`${SCHEDULES}/${id}`)).data.next_run_at).toBe('2026-03-02T12:00:00.000Z');
    expect(await nextRunInList(id)).toBe('2026-03-02T12:00:00.000Z');
  });

  it('is computed from the clock by every route that answers with a schedule', async () => {
    const id = await createHourly();
    clock.set('2026-03-02T13:20:00.000Z');
    const edited = await s.put(`${SCHEDULES}/${id}`, { as: 'bob', form: { description: 'Hourly smoke' } });
    expect(edited.data.next_run_at).toBe('2026-03-02T14:00:00.000Z');
    clock.set('2026-03-02T14:00:00.000Z');
    const taken = await s.post(`${SCHEDULES}/${id}/take_ownership`, { as: 'root' });
    expect(taken.data.next_run_at).toBe('2026-03-02T15:00:00.000Z');
    clock.advance(3 * 3_600_000);
    const deleted = await s.del(`${SCHEDULES}/${id}`, { as: 'root' });
    expect(deleted.status).toBe(202);
    expect(deleted.data.next_run_at).toBe('2026-03-02T18:00:00.000Z');
  });

  it('keeps the seeded schedules in the future however long the simulator runs', async () => {
    clock.set('2026-03-09T03:00:00.000Z');
    const nightly = (await s.get(`${SCHEDULES}/1`)).data;
    expect(nightly).toMatchObject({ cron: '0 2 * * *', cron_timezone: 'UTC' });
    expect(nightly.next_run_at).toBe('2026-03-10T02:00:00.000Z');
    const inactive = (await s.get(`${SCHEDULES}/2`)).data;
    expect(inactive).toMatchObject({ cron: '30 6 * * 1', cron_timezone: 'Europe/Berlin', active: false });
    expect(inactive.next_run_at).toBe('2026-03-09T05:30:00.000Z');
  });
});

describe('the fake runner and due schedules', () => {
  // the schedules made here are bob's; the seed's own schedules are bob's nightly (not due on these days) and alice's
  const bobsPipelines = async () =>
    (await s.all(`/projects/${WEB}/pipelines`, { query: { ref: 'main', username: 'bob' } })).length;

  it('starts nothing before the run is due, one pipeline at the first tick after it, then waits for the next', async () => {
    const id = await createHourly();
    const before = await bobsPipelines();
    await s.post('/__sim/tick');
    expect((await s.get(`${SCHEDULES}/${id}`)).data.last_pipeline).toBeNull();
    expect(await bobsPipelines()).toBe(before);

    clock.set('2026-03-02T11:00:05.000Z');
    await s.post('/__sim/tick');
    const ran = (await s.get(`${SCHEDULES}/${id}`)).data;
    expect(ran.last_pipeline).toMatchObject({ ref: 'main' });
    expect(ran.next_run_at).toBe('2026-03-02T12:00:00.000Z');
    const pipeline = (await s.get(`/projects/${WEB}/pipelines/${ran.last_pipeline.id}`)).data;
    expect(pipeline.created_at).toBe('2026-03-02T11:00:05.000Z');
    expect(pipeline.user.username).toBe('bob');
    expect(await bobsPipelines()).toBe(before + 1);

    await s.post('/__sim/tick');
    expect((await s.get(`${SCHEDULES}/${id}`)).data.last_pipeline.id).toBe(ran.last_pipeline.id);
    expect(await bobsPipelines()).toBe(before + 1);
  });

  it('runs a schedule whose run passed long ago once, not once per missed hour', async () => {
    const id = await createHourly();
    const before = await bobsPipelines();
    clock.set('2026-03-02T17:30:00.000Z');
    await s.post('/__sim/tick');
    await s.post('/__sim/tick');
    expect(await bobsPipelines()).toBe(before + 1);
    expect((await s.get(`${SCHEDULES}/${id}`)).data.next_run_at).toBe('2026-03-02T18:00:00.000Z');
  });

  it('leaves an inactive schedule alone', async () => {
    const created = await s.post(SCHEDULES, {
      as: 'bob',
      form: { description: 'Off', ref: 'main', cron: '0 * * * *', active: false },
    });
    clock.set('2026-03-02T12:30:00.000Z');
    await s.post('/__sim/tick');
    expect((await s.get(`${SCHEDULES}/${created.data.id}`)).data.last_pipeline).toBeNull();
  });
});
