import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { bundleBot } from './bundle-bot.js';

// vitest globalSetup: the bot built ONCE per test run, for every test that starts it as a process
// (test/support/built-bot.ts, spawn-bot.ts, built-entry.ts): a bundle per program (bundle-bot.ts). Removed when the
// run ends.

declare module 'vitest' {
  export interface ProvidedContext {
    botBuildDir: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-build-'));
  await bundleBot(root, dir);
  project.provide('botBuildDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
