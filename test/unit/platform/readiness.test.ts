import { describe, expect, it } from 'vitest';
import { type ReadinessChecks, readinessOf } from '../../../src/health/readiness.js';

const checks = (o: Partial<ReadinessChecks> = {}): ReadinessChecks => ({
  mode: 'http',
  databaseOk: async () => true,
  slackChecked: () => true,
  slackProblem: () => null,
  ...o,
});

describe('readiness', () => {
  it('is ready when the database answers, Slack took the token and nothing stops the Slack side', async () => {
    expect(await readinessOf(checks())).toEqual({ ready: true, status: 'ok' });
  });

  it('says why not: shutting down or the socket first, then the database, then the token not yet checked', async () => {
    const down = async () => false;
    expect(await readinessOf(checks({ slackProblem: () => 'shutting down', databaseOk: down }))).toEqual({
      ready: false,
      status: 'shutting down',
    });
    expect(await readinessOf(checks({ databaseOk: down, slackChecked: () => false }))).toEqual({
      ready: false,
      status: 'database unavailable',
    });
    expect(await readinessOf(checks({ slackChecked: () => false }))).toEqual({
      ready: false,
      status: 'bot token not checked with Slack yet',
    });
  });
});
