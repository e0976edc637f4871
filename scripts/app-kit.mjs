// The browser host on a temp data dir (the Demo gateway) with Debian's Chromium and the flags this machine
// needs: what the README screenshots and the benches that drive the window share. Builds first when stale.
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAll, isStale } from './build.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';

/** Starts the browser host and resolves its URL (with the token) once it prints it. */
function startHost(dataDir) {
  const host = spawn(process.execPath, ['dist/web/cli.mjs', '--port', '0', '--no-open', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = new Promise((resolve) => {
    let buf = '';
    host.stdout.on('data', (d) => {
      buf += d;
      const m = /(http:\/\/\S+)/.exec(buf);
      if (m) resolve(m[1]);
    });
  });
  return { host, url };
}

/** @param {string[]} [chromiumArgs] flags beyond the usual ones (e.g. precise memory info for a bench) */
export async function startApp(chromiumArgs = []) {
  if (isStale()) await buildAll({ quiet: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-app-'));
  const { host, url } = startHost(dataDir);
  const browser = await chromium.launch(chromiumLaunchOptions(chromiumArgs));
  return {
    browser,
    url: await url,
    async close() {
      await browser.close();
      host.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
