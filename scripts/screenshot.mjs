// Takes the README screenshot (docs/screenshot.png) of the browser host on the Demo gateway:
// node scripts/screenshot.mjs [out.png] [--tab "Chat Completions"] [--model claude-sim-sonnet] [--no-send]
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAll, isStale } from './build.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const out = args[0] && !args[0].startsWith('--') ? args[0] : 'docs/screenshot.png';
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
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(url);
  await page.getByRole('tab', { name: flag('--tab', 'Messages'), exact: true }).click();
  const model = flag('--model', 'claude-sim-sonnet');
  const picker = page.getByRole('combobox', { name: 'Model' });
  await picker.click();
  await picker.fill(model);
  await page
    .getByRole('option', { name: new RegExp(model) })
    .first()
    .click();
  if (!args.includes('--no-send')) {
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('status', { name: 'Stream status' })
      .filter({ hasText: 'complete' })
      .waitFor({ timeout: 20_000 });
  }
  await page.waitForTimeout(300);
  mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`Saved ${out}`);
} finally {
  await browser.close();
  host.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
