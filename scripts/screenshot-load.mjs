// Takes the README's Load tab screenshot (docs/load-screenshot.png): a load run on the Demo gateway, finished,
// with its summary. node scripts/screenshot-load.mjs [out.png] — light theme, as scripts/screenshot.mjs.
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAll, isStale } from './build.mjs';

const out = process.argv[2] ?? 'docs/load-screenshot.png';
if (isStale()) await buildAll({ quiet: true });

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-shot-'));
const host = spawn(process.execPath, ['dist/web/cli.mjs', '--port', '0', '--no-open', '--data-dir', dataDir], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve) => {
  let buf = '';
  host.stdout.on('data', (d) => {
    buf += d;
    const m = /(http:\/\/\S+)/.exec(buf);
    if (m) resolve(m[1]);
  });
});
const browser = await chromium.launch({
  executablePath: ['/usr/bin/chromium'].find((p) => existsSync(p)),
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, deviceScaleFactor: 1 });
  await page.goto(url);
  await page.getByRole('tab', { name: 'Load', exact: true }).click();
  await page.getByLabel('Model', { exact: true }).fill('claude-sim-haiku');
  await page.getByLabel('Requests', { exact: true }).fill('120');
  await page.getByLabel('Concurrency', { exact: true }).fill('16');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('status', { name: 'Load status' }).filter({ hasText: 'Finished' }).waitFor({ timeout: 120_000 });
  await page.getByRole('region', { name: 'Load summary' }).waitFor();
  await page.waitForTimeout(300);
  mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`Saved ${out}`);
} finally {
  await browser.close();
  host.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
