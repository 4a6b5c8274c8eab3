import { expect } from 'vitest';
import { createGitlabClient, type GitlabClient } from '../../../../src/gitlab/client.js';
import { createTransport, type Transport, type TransportOptions } from '../../../../src/gitlab/http.js';
import { createLogger } from '../../../../src/log.js';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from './recording-server.js';

/** Deliberately not shaped like any token the redactor knows, so only our own care keeps it out. */
export const TOKEN = 'tok-7Hq2Lm9Zx4Vb8Nc1Rt5Y';

export interface Harness {
  server: RecordingServer;
  transport: Transport;
  client: GitlabClient;
  /** Every log line the transport wrote (debug level). */
  logLines: string[];
  /** Every wait the transport took before a retry, as its 'gitlab retry' log lines name them. */
  readonly delays: number[];
  /** The waits handed to the transport's `sleep`, which returns at once here (unless the options bring their own). */
  slept: number[];
  /** The single request the last call made (fails the test if there were more or none). */
  only(): RecordedRequest;
  close(): Promise<void>;
}

export async function startHarness(options: Partial<TransportOptions> = {}): Promise<Harness> {
  const server = await startRecordingServer();
  const logLines: string[] = [];
  const slept: number[] = [];
  const transport = createTransport({
    baseUrl: server.url,
    logger: createLogger({ level: 'debug', sink: (line) => logLines.push(line) }),
    random: () => 0.5,
    sleep: async (ms) => {
      slept.push(ms);
    },
    ...options,
  });
  return {
    server,
    transport,
    client: createGitlabClient(transport, TOKEN),
    logLines,
    slept,
    get delays() {
      const entries = logLines.map((line) => JSON.parse(line) as { msg: string; waitMs?: number });
      return entries.filter((entry) => entry.msg === 'gitlab retry').map((entry) => entry.waitMs as number);
    },
    only() {
      if (server.requests.length !== 1) throw new Error(`expected exactly one request, saw ${server.requests.length}`);
      return server.requests[0]!;
    },
    async close() {
      transport.close();
      await server.close();
    },
  };
}

export interface ExpectedRequest {
  method: string;
  /** Without the `/api/v4` prefix, still URL-encoded. */
  path: string;
  query?: Record<string, string | string[]>;
  form?: Record<string, string | string[]>;
}

/** Method, raw path, query, form fields and the PRIVATE-TOKEN header of one recorded request. */
export function expectRequest(request: RecordedRequest, expected: ExpectedRequest): void {
  expect({ method: request.method, path: request.path }).toEqual({
    method: expected.method,
    path: `/api/v4${expected.path}`,
  });
  expect(request.query).toEqual(expected.query ?? {});
  expect(request.form).toEqual(expected.form ?? {});
  if (expected.form && Object.keys(expected.form).length > 0) {
    expect(request.contentType).toBe('application/x-www-form-urlencoded');
  } else {
    expect(request.body).toBe('');
  }
  expect(request.headers['private-token']).toBe(TOKEN);
}
