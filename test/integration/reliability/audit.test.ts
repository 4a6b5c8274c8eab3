import { beforeEach, describe, expect, it } from 'vitest';
import { TOKENS } from '../../support/start-sim.js';
import { useCiBot } from '../ci/harness.js';

// The audit line: one structured log line per call that may change something on the server, with the Slack
// team and user, the server username, method, route template, resource, result status and duration, and
// never a token or a body. (There was none on 1388a11.)

const h = useCiBot();

let from = 0;
beforeEach(() => {
  from = h.bot.logs.length;
});
const auditLines = () =>
  h.bot.logs
    .slice(from)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'audit');

describe('the audit line', () => {
  it('is written once for a write, with who, what and how it ended, and nothing secret', async () => {
    await h.ask('alice', 'job retry demo/web 8', /Retried by/);
    const lines = auditLines();
    expect(lines).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        msg: 'audit',
        component: 'audit',
        team: 'T0TEST',
        user: 'U0ALICE',
        username: 'alice',
        method: 'POST',
        route: '/projects/:project/jobs/:job/retry',
        resource: { project: 'demo/web', job: 8 },
        status: 201,
        ms: expect.any(Number),
      },
    ]);
  });

  it('is not written for reads', async () => {
    await h.ask('alice', 'jobs demo/web', /Jobs in demo\/web/);
    await h.ask('alice', 'job demo/web 8', /Job #8 /);
    expect(auditLines()).toEqual([]);
  });

  it('says how a refused or failed write ended, and never holds the body or a token', async () => {
    await h.ask(
      'bob',
      'schedule create demo/web "Body text that stays out of logs" main "0 2 * * *"',
      /schedule|Schedule/,
    );
    h.sim.setFaults({ errorRate: 1, errorStatus: 500 });
    await h.ask('alice', 'job retry demo/web 8', /answered 500/);
    h.sim.setFaults({});
    const lines = auditLines();
    expect(lines.map((l) => [l.user, l.username, l.method, l.route, l.status])).toEqual([
      ['U0BOB', 'bob', 'POST', '/projects/:project/pipeline_schedules', 201],
      ['U0ALICE', 'alice', 'POST', '/projects/:project/jobs/:job/retry', 500],
    ]);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('Body text');
    for (const token of Object.values(TOKENS)) expect(text).not.toContain(token);
  });
});
