import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetKey, createMeteredTransport } from '../../../src/delivery/metered-transport.js';
import { createTokenBudget } from '../../../src/delivery/pacing.js';
import { createGitlabClient } from '../../../src/gitlab/client.js';
import { RateLimitedError } from '../../../src/gitlab/errors.js';
import { createTransport } from '../../../src/gitlab/http.js';
import { sleepingClock } from '../../support/clock.js';
import { type RecordingServer, startRecordingServer } from '../gitlab/support/recording-server.js';

// The budget digests read with, fed by what a real server answers: RateLimit-* headers and a 429's Retry-After.
// A clock that moves only when the budget sleeps on it shows how long a digest would wait.

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server?.close();
});

const TOKEN = 'glpat-budget-test-token';
const NOW = Date.UTC(2026, 2, 2, 9, 0, 0);

describe('the budget of a token, fed by the server', () => {
  it('waits for the window to reset once the server says only the reserve is left', async () => {
    const c = sleepingClock(NOW);
    const budget = createTokenBudget({ clock: c });
    const client = createGitlabClient(
      createMeteredTransport(createTransport({ baseUrl: server.url, retry: { limit: 0 } }), budget),
      TOKEN,
    );
    const limits = (remaining: number) => ({
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': String(remaining),
      'RateLimit-Reset': String(NOW / 1000 + 40),
    });
    server.enqueue({ body: [], headers: limits(50) }, { body: [], headers: limits(9) }, { body: [] });
    await client.todos.list();
    expect(c.slept).toEqual([]);
    await client.todos.list();
    expect(c.slept).toEqual([]);
    // 9 left of 100 is within the tenth kept for the person's own commands: the next read waits for the reset.
    await client.todos.list();
    expect(c.slept).toEqual([40_000]);
    expect(server.requests).toHaveLength(3);
    expect(budget.peek(budgetKey(TOKEN))).toBeDefined();
    expect(budget.peek(TOKEN)).toBeUndefined();
    expect(budgetKey(TOKEN)).not.toContain('budget-test');
  });

  it('sends nothing for that token until a 429’s Retry-After has passed', async () => {
    server.reset();
    const c = sleepingClock(NOW);
    const budget = createTokenBudget({ clock: c });
    const transport = createMeteredTransport(createTransport({ baseUrl: server.url, retry: { limit: 0 } }), budget);
    server.enqueue(
      { status: 429, body: { message: 'Retry later' }, headers: { 'Retry-After': '7' } },
      { body: [] },
      { body: [] },
    );
    await expect(createGitlabClient(transport, TOKEN).todos.list()).rejects.toBeInstanceOf(RateLimitedError);
    await createGitlabClient(transport, 'glpat-someone-else').todos.list();
    expect(c.slept).toEqual([]);
    await createGitlabClient(transport, TOKEN).todos.list();
    expect(c.slept).toEqual([7000]);
  });
});
