// Takes the README's Agents screenshot (docs/agents.png) of the browser host on the Demo gateway:
// node scripts/screenshot-agents.mjs [out.png]
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAll, isStale } from './build.mjs';

const out = process.argv[2] ?? 'docs/agents.png';
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
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(url);
  await page.getByRole('tab', { name: 'Agents' }).click();
  const verdict = page.getByRole('region', { name: 'Agent verdict' });
  const check = async (agent, model) => {
    await page.getByRole('combobox', { name: 'Agent' }).selectOption(agent);
    await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption(model);
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await verdict.filter({ hasText: new RegExp(model) }).waitFor({ timeout: 60_000 });
  };
  await check('codex', 'gpt-sim-o3');
  await check('claude-code', 'claude-sim-sonnet');
  await check('chat-agent', 'sim-relay-chat-text-tools');
  await check('codex', 'sim-relay-ignores-cache');
  await check('codex', 'sim-relay-key-pool');
  await page.waitForTimeout(300);
  mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`Saved ${out}`);
} finally {
  await browser.close();
  host.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
