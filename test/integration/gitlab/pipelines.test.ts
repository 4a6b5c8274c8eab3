import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../src/gitlab/errors.js';
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

describe('pipelines', () => {
  it('lists pipelines with every filter the contract names', async () => {
    h.server.enqueue({ body: example('pipelines/01-get-list-pipelines'), headers: { 'x-total': '2' } });
    const page = await h.client.pipelines.list('demo/web', {
      scope: 'finished',
      status: 'failed',
      ref: 'main',
      yaml_errors: true,
      name: 'Administrator',
      username: 'root',
      order_by: 'status',
      sort: 'asc',
      page: 1,
      per_page: 50,
    });
    expectRequest(h.only(), {
      method: 'GET',
      path: '/projects/demo%2Fweb/pipelines',
      query: {
        scope: 'finished',
        status: 'failed',
        ref: 'main',
        yaml_errors: 'true',
        name: 'Administrator',
        username: 'root',
        order_by: 'status',
        sort: 'asc',
        page: '1',
        per_page: '50',
      },
    });
    expect(page.total).toBe(2);
    expect(page.items).toEqual([
      { id: 47, status: 'pending', ref: 'new-pipeline', sha: 'a91957a858320c0e17f3a0eca7cfacbff50ea29a' },
      { id: 48, status: 'pending', ref: 'new-pipeline', sha: 'eb94b618fb5865b26e80fdd8ae531b7a63ad851a' },
    ]);
  });

  it('gets one pipeline', async () => {
    h.server.enqueue({ body: example('pipelines/02-get-single-pipeline') });
    const pipeline = await h.client.pipelines.get('demo/web', 46);
    expectRequest(h.only(), { method: 'GET', path: '/projects/demo%2Fweb/pipelines/46' });
    expect(pipeline).toMatchObject({ id: 46, status: 'success', coverage: '30.0', user: { username: 'root' } });
  });

  it('creates a pipeline on a ref with POST …/pipeline (singular)', async () => {
    h.server.enqueue({ status: 201, body: example('pipelines/03-post-create-pipeline') });
    const pipeline = await h.client.pipelines.create('demo/web', { ref: 'master' });
    expectRequest(h.only(), { method: 'POST', path: '/projects/demo%2Fweb/pipeline', form: { ref: 'master' } });
    expect(pipeline).toMatchObject({ id: 61, status: 'pending' });
  });

  it('reports a refused pipeline creation as a bad request', async () => {
    h.server.enqueue({ status: 400, body: { message: { base: ['Reference not found'] } } });
    const error = await h.client.pipelines.create(1, { ref: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).serverMessage).toBe('base Reference not found');
  });

  it('retries a pipeline', async () => {
    h.server.enqueue({ status: 201, body: example('pipelines/04-post-retry-pipeline') });
    const pipeline = await h.client.pipelines.retry(9, 46);
    expectRequest(h.only(), { method: 'POST', path: '/projects/9/pipelines/46/retry' });
    expect(pipeline.status).toBe('pending');
  });

  it('cancels a pipeline', async () => {
    h.server.enqueue({ body: example('pipelines/05-post-cancel-pipeline') });
    const pipeline = await h.client.pipelines.cancel(9, 46);
    expectRequest(h.only(), { method: 'POST', path: '/projects/9/pipelines/46/cancel' });
    expect(pipeline.status).toBe('canceled');
  });
});
