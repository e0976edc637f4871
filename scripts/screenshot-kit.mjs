// The README screenshots' shared harness: a browser host on a temp data dir (the Demo gateway), Debian's
// Chromium with the flags this machine needs, one page; `drive` sets the scene, then the page is saved to `out`.
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAll, isStale } from './build.mjs';

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

/**
 * @param {string} out
 * @param {{ width?: number, height?: number, colorScheme?: 'light' | 'dark' }} view
 * @param {(page: import('@playwright/test').Page) => Promise<void>} drive
 */
export async function shoot(out, view, drive) {
  if (isStale()) await buildAll({ quiet: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-shot-'));
  const { host, url } = startHost(dataDir);
  const browser = await chromium.launch({
    executablePath: ['/usr/bin/chromium'].find((p) => existsSync(p)),
    args: CHROMIUM_ARGS,
  });
  try {
    const viewport = { width: view.width ?? 1440, height: view.height ?? 900 };
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1, colorScheme: view.colorScheme ?? 'dark' });
    await page.goto(await url);
    await drive(page);
    await page.waitForTimeout(300);
    mkdirSync(path.dirname(out), { recursive: true });
    await page.screenshot({ path: out });
    console.log(`Saved ${out}`);
  } finally {
    await browser.close();
    host.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
