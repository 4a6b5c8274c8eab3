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

describe('deployments', () => {
  it('lists deployments', async () => {
    h.server.enqueue({ body: example('deployments/01-get-list-deployments') });
    const page = await h.client.deployments.list('demo/web', { order_by: 'created_at', sort: 'desc', page: 1 });
    expectRequest(h.only(), {
      method: 'GET',
      path: '/projects/demo%2Fweb/deployments',
      query: { order_by: 'created_at', sort: 'desc', page: '1' },
    });
    expect(page.items.map((deployment) => deployment.id)).toEqual([41, 42]);
    expect(page.items[0]?.deployable?.artifacts_file).toBeNull();
  });

  it('gets one deployment with its environment and job', async () => {
    h.server.enqueue({ body: example('deployments/02-get-single-deployment') });
    const deployment = await h.client.deployments.get('demo/web', 42);
    expectRequest(h.only(), { method: 'GET', path: '/projects/demo%2Fweb/deployments/42' });
    expect(deployment).toMatchObject({
      id: 42,
      environment: { name: 'production', external_url: 'https://about.gitlab.com' },
      deployable: { id: 664, status: 'success' },
    });
  });
});
