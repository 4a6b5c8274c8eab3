import type { IncomingMessage, ServerResponse } from 'node:http';

// Two questions an orchestrator asks. /healthz: is the process alive (its event loop answers)? Restarting it would
// not help while the database or Slack is away, so it says 200 as long as it can answer at all. /readyz: may this
// replica be sent work? The database answers, Slack accepted the bot token (auth.test), the replica is not
// draining for a stop and, in Socket Mode, its socket to Slack is up. Otherwise 503 with the reason.

export interface ReadinessChecks {
  mode: 'http' | 'socket';
  /** Whether the database answers (cached briefly by the engine, so probes cost no round trip each). */
  databaseOk(): Promise<boolean>;
  /** Whether Slack accepted the bot token (auth.test) since the process started. */
  slackChecked(): boolean;
  /** Why the Slack side cannot take requests (draining, socket down), or null. */
  slackProblem(): string | null;
}

export type Readiness = { ready: true; status: 'ok' } | { ready: false; status: string };

export async function readinessOf(checks: ReadinessChecks): Promise<Readiness> {
  const problem = checks.slackProblem();
  if (problem) return { ready: false, status: problem };
  if (!(await checks.databaseOk())) return { ready: false, status: 'database unavailable' };
  if (!checks.slackChecked()) return { ready: false, status: 'bot token not checked with Slack yet' };
  return { ready: true, status: 'ok' };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export function healthzHandler(mode: 'http' | 'socket') {
  return (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    json(res, 200, { status: 'ok', mode });
  };
}

export function readyzHandler(checks: ReadinessChecks) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const { ready, status } = await readinessOf(checks);
    json(res, ready ? 200 : 503, { status, mode: checks.mode });
  };
}
