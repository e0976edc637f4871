/**
 * Shapes of traffic in the Load tab against the built-in simulated gateway: a ramp and three stages run with the
 * running stage named live in the status, and the Over time charts drawn with axes and the stage boundaries.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function openLoad(page: Page) {
  await page.getByRole('tab', { name: 'Load' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Load' })).toBeVisible();
  await page.getByLabel('Model', { exact: true }).fill('claude-sim-haiku');
  await page.getByLabel('Requests', { exact: true }).fill('1000');
}

const loadStatus = (page: Page) => page.getByRole('status', { name: 'Load status' });

async function expectAxes(page: Page, chart: string) {
  const img = page.getByRole('region', { name: 'Over time' }).getByRole('img', { name: chart });
  await expect(img.locator('.tick.x text').first()).toHaveText('0 s');
  expect(await img.locator('.tick.x text').count()).toBeGreaterThan(2);
  expect(await img.locator('.tick.y text').count()).toBeGreaterThan(2);
  return img;
}

test('a ramp runs on its line, its stage shown live, and its figures drawn over time', async ({ app }) => {
  await openLoad(app);
  await app.getByRole('combobox', { name: 'Shape' }).selectOption({ label: 'Ramp' });
  await app.getByLabel('From (at once)').fill('1');
  await app.getByLabel('To (at once)').fill('4');
  await app.getByLabel('Over (s)').fill('3');
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(loadStatus(app)).toContainText(/Running: Ramp 1 → 4 · [1-4] at once/);
  // The live chart is there while it runs.
  await expectAxes(app, 'Latency percentiles over time');
  await expect(loadStatus(app)).toContainText('Finished:', { timeout: 30_000 });
  await expect(loadStatus(app)).toContainText('0 failed');
  await expect(app.getByRole('region', { name: 'Load summary' })).toContainText("The shape's 3 s ended");
  await expectAxes(app, 'Requests per second over time');
});

test('three stages run in turn, each named live, marked on the charts and exported per window', async ({ app }) => {
  await openLoad(app);
  await app.getByRole('combobox', { name: 'Shape' }).selectOption({ label: 'Stages' });
  for (const [k, c] of ['2', '6', '3'].entries()) {
    await app.getByLabel(`Stage ${k + 1} concurrency`).fill(c);
    await app.getByLabel(`Stage ${k + 1} duration (s)`).fill('2');
  }
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(loadStatus(app)).toContainText('Stage 1 of 3 · 2 at once');
  await expect(loadStatus(app)).toContainText('Stage 2 of 3 · 6 at once');
  await expect(loadStatus(app)).toContainText('Stage 3 of 3 · 3 at once');
  await expect(loadStatus(app)).toContainText('Finished:', { timeout: 30_000 });
  const latency = await expectAxes(app, 'Latency percentiles over time');
  await expect(latency.locator('.stage-mark')).toHaveCount(2);
  await expect(latency.locator('path.line').first()).toHaveAttribute('d', /^M.+L/);

  const summary = app.getByRole('region', { name: 'Load summary' });
  const csv = app.waitForEvent('download');
  await summary.getByRole('button', { name: 'Export windows CSV' }).click();
  const lines = readFileSync((await (await csv).path())!, 'utf8')
    .trim()
    .split('\r\n');
  const head = lines[0].split(',');
  expect(head.slice(0, 3)).toEqual(['window_start_s', 'window_end_s', 'stage_index']);
  const stages = new Set(lines.slice(1).map((l) => l.split(',')[2]));
  expect([...stages]).toEqual(expect.arrayContaining(['0', '1', '2']));

  const json = app.waitForEvent('download');
  await summary.getByRole('button', { name: 'Export JSON' }).click();
  const record = JSON.parse(readFileSync((await (await json).path())!, 'utf8')) as {
    rows: { stage: number; verdict: string }[];
  };
  expect(new Set(record.rows.map((r) => r.stage))).toEqual(new Set([0, 1, 2]));
  expect(record.rows.every((r) => r.verdict === 'complete')).toBe(true);
});
