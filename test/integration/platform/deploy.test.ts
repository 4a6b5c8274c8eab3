import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ENV_VARIABLES } from '../../../src/config.js';
import { createMetrics } from '../../../src/metrics/metrics.js';
import { fakeClock } from '../../support/clock.js';
import { type StartedApp, startApp } from '../../support/start-app.js';
import { type RunningSimulator, startSim } from '../../support/start-sim.js';

// The deployment files in deploy/ cannot be run here (no container engine, no cluster): each is parsed, and what
// it says of the bot is checked against the bot itself: every variable it sets is one the bot reads, every probe
// names an endpoint a running bot answers 200 on, the image's command is the setup guide's, the secrets come by
// reference, and the dashboard and the alerts ask only for metrics the bot has.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

type Doc = Record<string, unknown>;
const yamlDocs = (file: string): Doc[] =>
  parseAllDocuments(read(file), { merge: true }).map((d) => {
    expect(d.errors, `${file}: ${d.errors.join('; ')}`).toEqual([]);
    return d.toJS({ maxAliasCount: 100 }) as Doc;
  });

const deployFiles = (dir = 'deploy'): string[] =>
  fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    return e.isDirectory() ? deployFiles(file) : [file];
  });

const compose = () => yamlDocs('deploy/compose.yaml')[0] as { services: Record<string, Doc> };
const k8s = () => deployFiles('deploy/kubernetes').flatMap((f) => (f.endsWith('.yaml') ? yamlDocs(f) : []));
const deployment = () => k8s().find((d) => d.kind === 'Deployment') as Doc;
type Container = {
  command?: string[];
  env: { name: string; value?: string; valueFrom?: Record<string, unknown> }[];
  readinessProbe: { httpGet: { path: string } };
  livenessProbe: { httpGet: { path: string } };
  resources: { requests?: Record<string, string> };
  ports: { name: string; containerPort: number }[];
};
const containerOf = (d: Doc) =>
  ((d.spec as Doc).template as { spec: { containers: Container[] } }).spec.containers[0] as Container;

/** The services that run the bot's image (not PostgreSQL, the simulator or the proxy). */
const botServices = () =>
  Object.entries(compose().services).filter(
    ([, s]) => (s.build as { target?: string } | undefined)?.target === 'runtime',
  );

/** The command of the Dockerfile's last stage (the image people run), as one line. */
function imageCommand(): string {
  const cmds = [...read('Dockerfile').matchAll(/^CMD (\[.*\])$/gm)].map((m) => JSON.parse(m[1] as string) as string[]);
  return (cmds.at(-1) as string[]).join(' ');
}

/** Every `glbot_…` and Node default metric the bot's registry serves, with a histogram's series names. */
async function metricNames(): Promise<Set<string>> {
  const metrics = createMetrics();
  const names = new Set<string>();
  for (const m of (await metrics.registry?.getMetricsAsJSON()) ?? []) {
    names.add(m.name);
    if (String(m.type) === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(`${m.name}${s}`);
  }
  return names;
}

const metricsIn = (expr: string) =>
  [...expr.matchAll(/\b((?:glbot|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1] as string);

describe('deploy/', () => {
  it('parses: every YAML and JSON file', () => {
    const files = deployFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        'deploy/compose.yaml',
        'deploy/grafana-dashboard.json',
        'deploy/kubernetes/deployment.yaml',
        'deploy/kubernetes/pdb.yaml',
      ]),
    );
    for (const file of files) {
      if (file.endsWith('.yaml')) expect(yamlDocs(file).length, file).toBeGreaterThan(0);
      if (file.endsWith('.json')) expect(() => JSON.parse(read(file)), file).not.toThrow();
    }
  });

  it('sets only variables the bot reads, for the bot', () => {
    const known = new Set(ENV_VARIABLES);
    expect(botServices().map(([name]) => name)).toEqual(['bot-1', 'bot-2']);
    for (const [name, service] of botServices())
      for (const variable of Object.keys(service.environment as Doc))
        expect(known, `${name}: ${variable}`).toContain(variable);
    for (const { name } of containerOf(deployment()).env) expect(known, `deployment: ${name}`).toContain(name);
    const example = read('deploy/env.example');
    for (const m of example.matchAll(/^#?\s*([A-Z_]+)=/gm)) {
      const variable = m[1] as string;
      if (variable !== 'POSTGRES_PASSWORD') expect(known, `env.example: ${variable}`).toContain(variable);
    }
  });

  it('keeps the secrets out: Kubernetes takes them by reference, compose from the environment', () => {
    const secret = [
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'SLACK_APP_TOKEN',
      'TOKEN_ENCRYPTION_KEY',
      'DATABASE_URL',
    ];
    for (const e of containerOf(deployment()).env.filter((e) => secret.includes(e.name))) {
      expect(e.value, e.name).toBeUndefined();
      expect(e.valueFrom?.secretKeyRef, e.name).toBeDefined();
    }
    for (const [, service] of botServices())
      for (const [variable, value] of Object.entries(service.environment as Record<string, string>))
        if (secret.includes(variable)) expect(value, variable).toMatch(/\$\{/);
    expect(k8s().some((d) => d.kind === 'Secret')).toBe(false);
  });

  it('runs two replicas with requests, a disruption budget and a scrape of the metrics port', () => {
    const d = deployment();
    expect((d.spec as Doc).replicas).toBe(2);
    const c = containerOf(d);
    expect(c.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(k8s().find((x) => x.kind === 'PodDisruptionBudget')?.spec).toMatchObject({ minAvailable: 1 });
    const metricsPort = c.env.find((e) => e.name === 'METRICS_PORT')?.value;
    const annotations = ((d.spec as Doc).template as { metadata: { annotations: Record<string, string> } }).metadata
      .annotations;
    expect(annotations['prometheus.io/port']).toBe(metricsPort);
    expect(c.ports.find((p) => p.name === 'metrics')?.containerPort).toBe(Number(metricsPort));
    // What Slack reaches never carries the metrics port.
    const slackService = k8s().find((x) => x.kind === 'Service' && (x.metadata as Doc).name === 'gl-slack-bot');
    expect(JSON.stringify(slackService)).not.toContain('metrics');
    for (const [, service] of botServices()) expect(service.ports).toBeUndefined();
  });

  it("starts the image with the command the setup guide gives (docs/setup.md), which is npm start's", () => {
    const command = imageCommand();
    expect(command).toMatch(/^node .*dist\/main\.js$/);
    expect(JSON.parse(read('package.json')).scripts.start).toBe(command);
    expect(read('docs/setup.md')).toContain(command);
    expect(containerOf(deployment()).command?.join(' ')).toBe(command);
  });

  it('asks the dashboard and the alerts only for metrics the bot serves', async () => {
    const names = await metricNames();
    const dashboard = JSON.parse(read('deploy/grafana-dashboard.json')) as {
      panels: { targets: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    const rules = (yamlDocs('deploy/prometheus-rules.yaml')[0] as { groups: { rules: { expr: string }[] }[] }).groups
      .flatMap((g) => g.rules)
      .map((r) => r.expr);
    const asked = [...exprs, ...rules].flatMap(metricsIn);
    expect(asked.length).toBeGreaterThan(10);
    for (const name of asked) expect(names, name).toContain(name);
    // What the issue asks the dashboard to show.
    for (const wanted of ['glbot_commands_total', 'glbot_ack_seconds_bucket', 'glbot_delivery_lag_seconds_bucket'])
      expect(exprs.join('\n')).toContain(wanted);
    expect(exprs.join('\n')).toContain('glbot_gitlab_rate_limited_total');
  });
});

describe('the probes of deploy/ on a running bot', () => {
  const clock = fakeClock();
  let sim: RunningSimulator;
  let bot: StartedApp;
  beforeAll(async () => {
    sim = await startSim(clock);
    bot = await startApp({ gitlabUrl: sim.url, now: clock.now });
  }, 60_000);
  afterAll(async () => {
    await bot?.stop({ removeData: true });
    await sim?.close();
  });

  it('answers 200 on every path a probe or a health check names', async () => {
    const c = containerOf(deployment());
    const paths = new Set([c.readinessProbe.httpGet.path, c.livenessProbe.httpGet.path]);
    expect([...paths].sort()).toEqual(['/healthz', '/readyz']);
    for (const m of read('deploy/Caddyfile').matchAll(/health_uri (\S+)/g)) paths.add(m[1] as string);
    for (const m of read('Dockerfile').matchAll(/HEALTHCHECK[\s\S]*?\+'(\/[a-z]+)'/g)) paths.add(m[1] as string);
    expect(paths.size).toBe(2);
    for (const p of paths) expect((await fetch(`${bot.url}${p}`)).status, p).toBe(200);
  });
});
