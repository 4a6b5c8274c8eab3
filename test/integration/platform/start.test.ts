import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('npm start', () => {
  it('with an empty environment exits non-zero with one message naming every missing variable', () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    const r = spawnSync('npm', ['start', '--silent'], { cwd: root, env, encoding: 'utf8', timeout: 180_000 });
    expect(r.status).not.toBe(0);
    expect(r.status).not.toBeNull();
    const messages = r.stderr.match(/Configuration error/g) ?? [];
    expect(messages).toHaveLength(1);
    for (const name of ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'GITLAB_URL', 'TOKEN_ENCRYPTION_KEY']) {
      expect(r.stderr).toContain(`${name} is missing`);
    }
  }, 200_000);
});
