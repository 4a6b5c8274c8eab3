import { describe, expect, it } from 'vitest';
import { forgetSecret } from '../../../src/redact.js';
import { TOKENS } from '../../support/start-sim.js';
import { buttonOf, useCiBot } from './harness.js';

// Issue 46: `/gl job trace` and `--full` sent a trace's secrets to Slack verbatim — a GitLab token, people's API
// tokens, a database password, a PEM key, an AWS secret, an Authorization header, and the bot's own Slack token,
// signing secret and sealing key. Every one of them is replaced by `[redacted]` in what is shown and uploaded.

const h = useCiBot();

function secretsOf() {
  const config = h.bot.config;
  const pem = [
    '-----BEGIN RSA PRIVATE KEY-----',
    'MIIEowIBAAKCAQEAzP3mYlEKbmLRYF0qZ3u6d1k1XhU6YyY0bZ8eQ4pVq9T1a2b3',
    'c4d5e6f7g8h9i0j1k2l3m4n5o6p7q8r9s0t1u2v3w4x5y6z7A8B9C0D1E2F3G4H5',
    '-----END RSA PRIVATE KEY-----',
  ];
  return {
    glpat: 'glpat-Zq3xY7wV9uT5sR1pQ2oN',
    runner: 'glrt-t1_AbCdEfGhIjKlMnOpQrSt',
    bobsToken: TOKENS.bob,
    dbPassword: 'hunter2-db-Pa55',
    pemBody: pem[1] as string,
    awsKeyId: 'AKIAIOSFODNN7EXAMPLE',
    awsSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    bearer: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJl',
    privateTokenHeader: 'sim-ci-header-value-42',
    slackUser: 'xoxp-1111-2222-3333-abcdefabcdef',
    appToken: 'xapp-1-A0123-4567-abcdef',
    googleKey: 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q',
    botToken: config.slack.botToken,
    signingSecret: h.bot.signingSecret,
    sealingKey: config.encryption.key.toString('base64'),
    pem,
  };
}

function traceHolding(s: ReturnType<typeof secretsOf>): string {
  return [
    'Running with gitlab-runner 17.0.0',
    `$ git clone https://oauth2:${s.glpat}@gitlab.example.com/demo/web.git`,
    `$ export RUNNER_TOKEN=${s.runner}`,
    `$ ./deploy.sh --as bob ${s.bobsToken}`,
    `$ curl --header 'PRIVATE-TOKEN: ${s.privateTokenHeader}' https://gitlab.example.com/api/v4/projects`,
    `DATABASE_URL=postgres://bot:${s.dbPassword}@db.internal:5432/bot`,
    ...s.pem,
    `AWS_ACCESS_KEY_ID=${s.awsKeyId}`,
    `AWS_SECRET_ACCESS_KEY=${s.awsSecret}`,
    `> GET /api HTTP/1.1\r\n> Authorization: Bearer ${s.bearer}`,
    `notify: ${s.slackUser} and ${s.appToken}`,
    `maps key ${s.googleKey}`,
    `SLACK_BOT_TOKEN=${s.botToken}`,
    `SLACK_SIGNING_SECRET=${s.signingSecret}`,
    `TOKEN_ENCRYPTION_KEY=${s.sealingKey}`,
    `echo "the signing secret is ${s.signingSecret} and the key ${s.sealingKey}"`,
    'ERROR: Job failed: exit code 1',
    '',
  ].join('\n');
}

const secretValues = (s: ReturnType<typeof secretsOf>) =>
  Object.entries(s).flatMap(([name, v]) => (name === 'pem' ? [] : [[name, v as string] as const]));

function expectNoSecret(text: string, s: ReturnType<typeof secretsOf>): void {
  for (const [name, value] of secretValues(s)) expect(text.includes(value), `${name} was sent`).toBe(false);
}

describe('a trace full of secrets', () => {
  it('shows none of them in `/gl job trace`, each marked [redacted]', async () => {
    const s = secretsOf();
    // Bob's token as a replica that never opened it holds it: only the database knows it.
    forgetSecret(s.bobsToken);
    h.sim.editJob(8, { trace: traceHolding(s) });
    const seen = await h.ask('alice', 'job trace demo/web 8 --lines 100', /Trace of job #8/);
    expectNoSecret(JSON.stringify(seen.message), s);
    expect(seen.text).toContain('https://oauth2:[redacted]@gitlab.example.com/demo/web.git');
    expect(seen.text).toContain('PRIVATE-TOKEN: [redacted]');
    expect(seen.text).toContain('postgres://bot:[redacted]@db.internal:5432/bot');
    expect(seen.text).toContain('AWS_ACCESS_KEY_ID=[redacted]');
    expect(seen.text).toContain('Authorization: Bearer [redacted]');
    expect(seen.text).toContain('ERROR: Job failed: exit code 1');
    expect(seen.text).not.toContain('BEGIN RSA PRIVATE KEY');
  });

  it('shows none of them behind the Trace button, even when the excerpt starts inside a PEM block', async () => {
    const s = secretsOf();
    h.sim.editJob(8, { trace: traceHolding(s) });
    const card = await h.ask('alice', 'job demo/web 8', /Job #8 /);
    const seen = await h.press('alice', buttonOf(card, /^Trace$/), /Trace of job #8/);
    expectNoSecret(JSON.stringify(seen.message), s);
    const short = await h.ask('bob', 'job trace demo/web 8 --lines 12', /Trace of job #8/);
    expectNoSecret(JSON.stringify(short.message), s);
  });

  it('uploads none of them with --full, in a direct message or shared', async () => {
    const s = secretsOf();
    h.sim.editJob(8, { trace: traceHolding(s) });
    for (const share of ['', ' --share']) {
      const seen = await h.ask('alice', `job trace demo/web 8 --full${share}`, /whole trace/);
      const done = seen.it.records((r) => r.method === 'files.completeUploadExternal');
      expect(done).toHaveLength(1);
      const fileId = ((done[0] as (typeof done)[number]).body.files as [{ id: string }])[0].id;
      const content = h.bot.fake.files.get(fileId)?.content ?? '';
      expect(content).toContain('ERROR: Job failed: exit code 1');
      expect(content).toContain('[redacted]');
      expectNoSecret(content, s);
      expectNoSecret(JSON.stringify(seen.message), s);
    }
  });
});
