import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

// What an operator watches (issue 45), kept in one prom-client Registry per app: never the library's global one,
// so several apps in one process (the tests) each count their own. Every label value is bounded: a noun and a
// verb of the grammar, a route template, a status, a Slack method name, a kind of delivery; never a user id, and a
// project path only when the operator asks for it (METRICS_PROJECT_LABEL).

export type CommandOutcome = 'ok' | 'refused' | 'error';
/** What Slack sent: a slash command, a click, a form, an event, a shortcut. */
export type RequestKind = 'command' | 'button' | 'form' | 'event' | 'shortcut' | 'other';

export interface GitlabCall {
  method: string;
  /** The route template, e.g. `/projects/:project/jobs` (gitlab/route-template.ts). */
  route: string;
  /** The HTTP status, or null when no answer came (timeout, network). */
  status: number | null;
  seconds: number;
  /** The project as the path named it; only recorded when the operator opted in. */
  project?: string;
}

export type SlackCallOutcome = 'ok' | 'error' | 'rate_limited' | 'http_error' | 'unreachable';

/** Figures read when Prometheus scrapes, not kept up to date on every change. */
export interface MetricSources {
  /** Requests waiting for their turn, by queue name. */
  queues?: () => Record<string, number>;
  /** The database connection pool (PostgreSQL; SQLite has none). */
  pool?: () => { total: number; idle: number; waiting: number } | null;
  /** Leases this replica holds now, by kind of scheduled work. */
  leases?: () => Record<string, number>;
  /** Scheduled runs waiting for their turn on this replica, by kind. */
  delivery?: () => Record<string, number>;
}

export interface Metrics {
  /** The registry to serve; null when metrics are off. */
  readonly registry: Registry | null;
  command(noun: string, verb: string, outcome: CommandOutcome): void;
  /** From the request's arrival in the app to its ack. */
  acked(kind: RequestKind, seconds: number): void;
  /** From the request's arrival to its answer handed to Slack (the request's work done). */
  answered(kind: RequestKind, seconds: number): void;
  /** One attempt of a call to the Delivery Service (a retried call counts each attempt). */
  gitlabCall(call: GitlabCall): void;
  slackCall(method: string, outcome: SlackCallOutcome): void;
  /** One scheduled delivery (digest, alert, watch, follow…) and how late it was against its due time. */
  delivery(kind: string, outcome: string, lagSeconds?: number): void;
  /** A database statement or transaction that failed. */
  queryError(kind: 'connection' | 'busy' | 'other'): void;
  /** Where the figures read at scrape time come from (set once the app has made them). */
  watch(sources: MetricSources): void;
}

export interface MetricsOptions {
  /** Off: every record is a no-op and there is nothing to serve (the benchmark's run without metrics). */
  enabled?: boolean;
  /** Label GitLab calls with their project path too (METRICS_PROJECT_LABEL): unbounded, so off unless asked. */
  projectLabel?: boolean;
  /** Process and Node.js default metrics (CPU, memory, event loop lag, GC), default on. */
  defaults?: boolean;
}

const noop = () => {};

const OFF: Metrics = {
  registry: null,
  command: noop,
  acked: noop,
  answered: noop,
  gitlabCall: noop,
  slackCall: noop,
  delivery: noop,
  queryError: noop,
  watch: noop,
};

/** Slack wants an ack within 3 s: the buckets are finest below it. */
const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5];
const ANSWER_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30];
const GITLAB_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Deliveries are due to the minute: seconds to an hour late. */
const LAG_BUCKETS = [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600];

/**
 * A metric's child for one set of label values, made once: prom-client's record with a labels object sorts and
 * joins its keys on every call, which a command would pay several times. The label sets are bounded, so is this.
 */
function childrenOf<C>(make: (...values: string[]) => C): (...values: string[]) => C {
  const made = new Map<string, C>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = made.get(key);
    if (child === undefined) {
      child = make(...values);
      made.set(key, child);
    }
    return child;
  };
}

/** A status as a bounded label: the number, or `none` when no answer came. */
const statusLabel = (status: number | null) => (status === null ? 'none' : String(status));

export function createMetrics(options: MetricsOptions = {}): Metrics {
  if (options.enabled === false) return OFF;
  const registry = new Registry();
  if (options.defaults !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let sources: MetricSources = {};

  const commands = new Counter({
    name: 'glbot_commands_total',
    help: 'Slash commands by noun, verb and outcome (ok, refused: a usage or known error, error: unexpected).',
    labelNames: ['noun', 'verb', 'outcome'],
    registers,
  });
  const ack = new Histogram({
    name: 'glbot_ack_seconds',
    help: "From a request's arrival in the app to its ack (Slack allows 3 s).",
    labelNames: ['kind'],
    buckets: ACK_BUCKETS,
    registers,
  });
  const answer = new Histogram({
    name: 'glbot_answer_seconds',
    help: "From a request's arrival to its answer handed to Slack.",
    labelNames: ['kind'],
    buckets: ANSWER_BUCKETS,
    registers,
  });
  const gitlabLabels = options.projectLabel ? ['method', 'route', 'status', 'project'] : ['method', 'route', 'status'];
  const gitlabCalls = new Counter({
    name: 'glbot_gitlab_calls_total',
    help: 'Calls (each attempt) to the Delivery Service by method, route template and status (none: no answer).',
    labelNames: gitlabLabels,
    registers,
  });
  const gitlabSeconds = new Histogram({
    name: 'glbot_gitlab_call_seconds',
    help: 'How long each attempt of a call to the Delivery Service took, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: GITLAB_BUCKETS,
    registers,
  });
  const gitlabUnauthorized = new Counter({
    name: 'glbot_gitlab_unauthorized_total',
    help: 'Answers 401 from the Delivery Service (a token refused).',
    registers,
  });
  const gitlabRateLimited = new Counter({
    name: 'glbot_gitlab_rate_limited_total',
    help: 'Answers 429 from the Delivery Service (rate limited; reads and writes are retried after Retry-After).',
    registers,
  });
  const slackCalls = new Counter({
    name: 'glbot_slack_calls_total',
    help: 'Slack Web API calls (each attempt) by method and outcome (ok, error, rate_limited, http_error, unreachable).',
    labelNames: ['method', 'outcome'],
    registers,
  });
  const slackRateLimited = new Counter({
    name: 'glbot_slack_rate_limited_total',
    help: 'Slack Web API calls answered 429 (rate limited), by method.',
    labelNames: ['method'],
    registers,
  });
  const deliveries = new Counter({
    name: 'glbot_deliveries_total',
    help: 'Scheduled deliveries (digests, alerts, watches, follows…) by kind and outcome.',
    labelNames: ['kind', 'outcome'],
    registers,
  });
  const deliveryLag = new Histogram({
    name: 'glbot_delivery_lag_seconds',
    help: 'From when a scheduled delivery was due to when it was posted, by kind.',
    labelNames: ['kind'],
    buckets: LAG_BUCKETS,
    registers,
  });
  const queryErrors = new Counter({
    name: 'glbot_db_query_errors_total',
    help: 'Database statements or transactions that failed, by kind (connection, busy, other).',
    labelNames: ['kind'],
    registers,
  });
  new Gauge({
    name: 'glbot_queue_waiting',
    help: "Work waiting in the bot's queues, by queue.",
    labelNames: ['queue'],
    registers,
    collect() {
      this.reset();
      for (const [queue, n] of Object.entries(sources.queues?.() ?? {})) this.set({ queue }, n);
      for (const [kind, n] of Object.entries(sources.delivery?.() ?? {})) this.set({ queue: `delivery_${kind}` }, n);
    },
  });
  new Gauge({
    name: 'glbot_db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting: callers waiting for one); PostgreSQL only.',
    labelNames: ['state'],
    registers,
    collect() {
      this.reset();
      const pool = sources.pool?.();
      if (pool) for (const [state, n] of Object.entries(pool)) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'glbot_leases_held',
    help: 'Leases on scheduled work this replica holds now, by kind.',
    labelNames: ['kind'],
    registers,
    collect() {
      this.reset();
      for (const [kind, n] of Object.entries(sources.leases?.() ?? {})) this.set({ kind }, n);
    },
  });

  const commandOf = childrenOf((...v) => commands.labels(...v));
  const ackOf = childrenOf((kind) => ack.labels(kind));
  const answerOf = childrenOf((kind) => answer.labels(kind));
  const gitlabCallOf = childrenOf((...v) => gitlabCalls.labels(...v));
  const gitlabSecondsOf = childrenOf((...v) => gitlabSeconds.labels(...v));
  return {
    registry,
    command: (noun, verb, outcome) => commandOf(noun, verb, outcome).inc(),
    acked: (kind, seconds) => ackOf(kind).observe(seconds),
    answered: (kind, seconds) => answerOf(kind).observe(seconds),
    gitlabCall(call) {
      const status = statusLabel(call.status);
      if (options.projectLabel) gitlabCallOf(call.method, call.route, status, call.project ?? '').inc();
      else gitlabCallOf(call.method, call.route, status).inc();
      gitlabSecondsOf(call.method, call.route).observe(call.seconds);
      if (call.status === 401) gitlabUnauthorized.inc();
      if (call.status === 429) gitlabRateLimited.inc();
    },
    slackCall(method, outcome) {
      slackCalls.inc({ method, outcome });
      if (outcome === 'rate_limited') slackRateLimited.inc({ method });
    },
    delivery(kind, outcome, lagSeconds) {
      deliveries.inc({ kind, outcome });
      if (lagSeconds !== undefined) deliveryLag.observe({ kind }, Math.max(0, lagSeconds));
    },
    queryError: (kind) => queryErrors.inc({ kind }),
    watch(more) {
      sources = { ...sources, ...more };
    },
  };
}
