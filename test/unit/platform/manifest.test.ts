import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SPEC, usageHint } from '../../../src/grammar/index.js';
import { ShortcutIds } from '../../../src/ids.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const shared = path.resolve(root, '../shared/conformance/slack-manifest');
const manifest = parse(fs.readFileSync(path.join(root, 'manifest.yml'), 'utf8'));

describe('manifest.yml', () => {
  it("validates against Slack's published 1.0.0 manifest schema", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(shared, 'schemas/manifest.schema.1.0.0.json'), 'utf8'));
    // Slack's schema carries a few non-standard keywords (e.g. `regex`): strict mode would reject the schema itself.
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(schema);
    const ok = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    // The same validator refuses Slack's own invalid sample, so it is really checking.
    const invalid = JSON.parse(fs.readFileSync(path.join(shared, 'tests/manifests/v1/manifest.invalid.json'), 'utf8'));
    expect(validate(invalid)).toBe(false);
  });

  it('declares the slash command with the usage hint generated from the command table', () => {
    const commands = manifest.features.slash_commands;
    expect(commands).toHaveLength(1);
    expect(commands[0].command).toBe('/gl');
    expect(commands[0].usage_hint).toBe(usageHint());
    expect(SPEC.length).toBeGreaterThan(0);
  });

  it('declares the message shortcut "Create issue" with the callback id the bot listens to', () => {
    expect(manifest.features.shortcuts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Create issue', type: 'message', callback_id: ShortcutIds.issueFromMessage }),
      ]),
    );
    expect(ShortcutIds.issueFromMessage).toBe('gl_issue_from_message');
  });

  it('asks for the scopes the features need, with interactivity, App Home, link previews and placeholder URLs', () => {
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(['commands', 'chat:write', 'chat:write.public', 'im:write', 'users:read', 'files:write']),
    );
    // Digests settle an interrupted run by finding its message in the destination's history.
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(['channels:history', 'groups:history', 'im:history', 'mpim:history']),
    );
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.features.app_home.home_tab_enabled).toBe(true);
    expect(manifest.features.bot_user.display_name).toBeTruthy();
    expect(manifest.settings.event_subscriptions.bot_events).toContain('app_home_opened');
    // Link previews: the link_shared event and the scopes to read links and unfurl them, for a placeholder host.
    expect(manifest.settings.event_subscriptions.bot_events).toContain('link_shared');
    expect(manifest.oauth_config.scopes.bot).toEqual(expect.arrayContaining(['links:read', 'links:write']));
    expect(manifest.features.unfurl_domains).toEqual(['gitlab.example.com']);
    for (const url of [
      manifest.features.slash_commands[0].url,
      manifest.settings.interactivity.request_url,
      manifest.settings.event_subscriptions.request_url,
    ]) {
      expect(url).toBe('https://YOUR-BOT-HOST.example.com/slack/events');
    }
  });
});

describe('manifest.yml: Workflow Builder steps', () => {
  const typesOf = (params: Record<string, { type: string; is_required?: boolean }>) =>
    Object.fromEntries(Object.entries(params).map(([k, v]) => [k, `${v.type}${v.is_required ? '' : '?'}`]));

  it('declares run_pipeline and create_issue with the inputs and outputs COMMANDS.md lists', () => {
    expect(Object.keys(manifest.functions).sort()).toEqual(['create_issue', 'run_pipeline']);
    const run = manifest.functions.run_pipeline;
    expect(typesOf(run.input_parameters)).toEqual({
      project: 'string',
      ref: 'string',
      user_id: 'slack#/types/user_id',
    });
    expect(typesOf(run.output_parameters)).toEqual({ pipeline_id: 'number', pipeline_url: 'string', status: 'string' });
    const issue = manifest.functions.create_issue;
    expect(typesOf(issue.input_parameters)).toEqual({
      project: 'string',
      title: 'string',
      description: 'string?',
      labels: 'string?',
      user_id: 'slack#/types/user_id',
    });
    expect(typesOf(issue.output_parameters)).toEqual({ issue_iid: 'number', issue_url: 'string' });
  });

  it('is org-ready with remote functions and receives function_executed', () => {
    expect(manifest.settings.org_deploy_enabled).toBe(true);
    expect(manifest.settings.function_runtime).toBe('remote');
    expect(manifest.settings.event_subscriptions.bot_events).toContain('function_executed');
  });
});

describe('packaging', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');

  it('runs the Docker image on a Node major that the engines field allows', () => {
    const majors = [...dockerfile.matchAll(/^FROM node:(\d+)/gm)].map((m) => m[1]);
    expect(majors.length).toBeGreaterThanOrEqual(2);
    for (const major of majors) expect(pkg.engines.node).toContain(`^${major}.`);
    expect(pkg.engines.node).toContain('^20.');
  });

  it('pins the stack to exact versions of the majors the project supports', () => {
    const deps = { ...pkg.dependencies, ...pkg.devDependencies } as Record<string, string>;
    const majors: Record<string, number> = {
      '@slack/bolt': 5,
      got: 14,
      zod: 4,
      'better-sqlite3': 12,
      'node-cron': 4,
      vitest: 4,
    };
    for (const [name, major] of Object.entries(majors))
      expect(deps[name]).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
  });

  it('builds with a non-root user, a /data volume, an exposed port and a health check', () => {
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(dockerfile).toMatch(/^EXPOSE 3000$/m);
    expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
  });
});
