import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium package: the browser tests need it installed (`apt-get install -y chromium`). */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless, and quiet: no sandbox (CI runs as root), no network of its own beyond the pages. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts the headless Chromium the browser tests drive through playwright-core. */
export async function launchChromium(): Promise<Browser> {
  return await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
