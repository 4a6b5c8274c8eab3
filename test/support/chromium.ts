import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

// The OS's Chromium (on Debian the `chromium` package; CHROMIUM_PATH names another), driven by playwright-core: no
// browser is downloaded at install time. Each launch gets a fresh profile, removed when it closes.

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const HOW_TO_GET_CHROMIUM = `no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`;

export function hasChromium(): boolean {
  try {
    fs.accessSync(CHROMIUM_PATH, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// As root in a container Chromium needs --no-sandbox; the rest keep it from reaching the network on its own.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 860 },
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
