// Chromium as every part of the project launches it (e2e, screenshots, benches): Playwright's own browser where
// PLAYWRIGHT_CHROMIUM_PATH or a system Chromium does not say otherwise (Playwright's browsers cannot be
// downloaded on CI here, so Debian's is used), with the flags this machine needs.
import { existsSync } from 'node:fs';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's (or another distribution's) Chromium, looked for at each call: ensure-chromium.mjs may install it. */
export const systemChromium = () => ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** @param {string[]} [extraArgs] flags beyond the usual ones (e.g. precise memory info for a bench) */
export function chromiumLaunchOptions(extraArgs = []) {
  return {
    executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? systemChromium(),
    args: [...CHROMIUM_ARGS, ...extraArgs],
  };
}
