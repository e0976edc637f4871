import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { launchHost } from './fixtures';

test('a corrupt profile file is moved aside, reported in the UI, and the app still starts on the Demo gateway', async ({ page }) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-corrupt-'));
  writeFileSync(path.join(dataDir, 'profiles.json'), '{"version":1,"profiles":[{"id":"x", TRUNCATED');
  const host = await launchHost({ dataDir });
  try {
    await page.goto(host.url);
    await expect(page.getByRole('alert', { name: 'Data folder problems' })).toContainText('profiles.json is not valid JSON');
    await expect(page.getByRole('alert', { name: 'Data folder problems' })).toContainText('moved aside');
    await expect(page.getByRole('combobox', { name: 'Profile' })).toHaveValue('demo');
    expect(readdirSync(dataDir).some((f) => f.startsWith('profiles.json.corrupt-'))).toBe(true);
  } finally {
    await host.stop();
  }
});

test('the browser host refuses a page without its token', async ({ page }) => {
  const host = await launchHost();
  try {
    const res = await page.goto(host.url.replace(/\?token=.*/, ''));
    expect(res?.status()).toBe(401);
    await expect(page.locator('body')).toContainText('Unauthorized');
  } finally {
    await host.stop();
  }
});
