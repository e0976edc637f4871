// Before e2e: make sure a Chromium is there, so `npm install && npm test` works on a fresh laptop. The choice is
// the one scripts/chromium.mjs makes (PLAYWRIGHT_CHROMIUM_PATH, a system Chromium, Playwright's own); when none
// is found Playwright's is downloaded, saying so in one line; where that download is impossible, Debian's
// package is installed when this is a root shell with apt-get (CI), else the exact command to run is printed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { systemChromium } from './chromium.mjs';

/**
 * What to do, from what is on this machine.
 * @param {{ envPath?: string, systemPath?: string, playwrightPath?: string, exists: (p: string) => boolean }} m
 * @returns {{ use: string } | { install: 'playwright' }}
 */
export function chromiumChoice({ envPath, systemPath, playwrightPath, exists }) {
  if (envPath && exists(envPath)) return { use: envPath };
  if (systemPath) return { use: systemPath };
  if (playwrightPath && exists(playwrightPath)) return { use: playwrightPath };
  return { install: 'playwright' };
}

/** Where Playwright's download failed: what to install instead, by platform. */
export function fallbackAfterFailedDownload({ platform, hasApt, isRoot }) {
  if (platform === 'linux' && hasApt && isRoot)
    return {
      run: ['apt-get', 'install', '-y', 'chromium'],
      say: "Installing Debian's chromium (apt-get install chromium)…",
    };
  const how =
    platform === 'linux'
      ? hasApt
        ? 'run `sudo apt-get install chromium`'
        : "install your distribution's chromium package"
      : platform === 'darwin'
        ? 'run `brew install --cask chromium` (or install Google Chrome)'
        : 'install Chromium or Google Chrome';
  return {
    say:
      `Playwright's Chromium could not be downloaded, and no Chromium was found: ${how}, or set ` +
      'PLAYWRIGHT_CHROMIUM_PATH to a Chromium or Chrome binary, then run `npm test` again.',
  };
}

/**
 * @param {{ envPath?: string, systemPath?: () => string | undefined, playwrightPath?: string,
 *   exists: (p: string) => boolean, run: (cmd: string[]) => boolean, say: (line: string) => void,
 *   platform: string, hasApt: boolean, isRoot: boolean }} m
 * @returns {boolean} whether a Chromium is there now
 */
export function ensureChromium(m) {
  const choice = chromiumChoice({ ...m, systemPath: m.systemPath?.() });
  if ('use' in choice) return true;
  m.say("No Chromium found for the e2e tests: downloading Playwright's (npx playwright install chromium)…");
  if (m.run(['npx', 'playwright', 'install', 'chromium']) && m.playwrightPath && m.exists(m.playwrightPath))
    return true;
  const next = fallbackAfterFailedDownload(m);
  m.say(next.say);
  return !!next.run && m.run(next.run) && !!m.systemPath?.();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { chromium } = await import('@playwright/test');
  const ok = ensureChromium({
    envPath: process.env.PLAYWRIGHT_CHROMIUM_PATH,
    systemPath: systemChromium,
    playwrightPath: chromium.executablePath(),
    exists: existsSync,
    run: ([cmd, ...args]) =>
      spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' }).status === 0,
    say: (line) => console.error(line),
    platform: process.platform,
    hasApt: existsSync('/usr/bin/apt-get'),
    isRoot: process.getuid?.() === 0,
  });
  process.exit(ok ? 0 : 1);
}
