/**
 * The Load tab against the built-in simulated gateway: a run whose every summary figure is recomputed here
 * from the per-request rows it exports, a run stopped mid-way, and two runs compared.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { LoadRecord } from '../shared/contract';
import { expect, test } from './fixtures';

async function openLoad(page: Page) {
  await page.getByRole('tab', { name: 'Load' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Load' })).toBeVisible();
}

async function configure(page: Page, opts: { model: string; requests: number; concurrency: number }) {
  await page.getByLabel('Model', { exact: true }).fill(opts.model);
  await page.getByLabel('Requests', { exact: true }).fill(String(opts.requests));
  await page.getByLabel('Concurrency', { exact: true }).fill(String(opts.concurrency));
}

const loadStatus = (page: Page) => page.getByRole('status', { name: 'Load status' });

/** numpy's default percentile (linear between closest ranks), written here apart from the app's. */
function pct(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const pos = ((s.length - 1) * q) / 100;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.ceil(pos)] - s[lo]) * (pos - lo);
}
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

test('a load run: progress, charts, and a summary whose every figure follows from its rows', async ({ app }) => {
  await openLoad(app);
  await configure(app, { model: 'claude-sim-haiku', requests: 20, concurrency: 4 });
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(loadStatus(app)).toContainText('Finished: 20 of 20 done, 0 in flight, 0 failed', { timeout: 30_000 });
  await expect(app.getByRole('progressbar', { name: 'Load progress' })).toHaveAttribute('aria-valuenow', '20');
  await expect(app.getByRole('img', { name: 'TTFT and total time per request' })).toBeVisible();
  await expect(app.getByRole('img', { name: 'Rate-limit headers over time' })).toBeVisible();
  const summary = app.getByRole('region', { name: 'Load summary' });
  await expect(summary).toBeVisible();

  const download = app.waitForEvent('download');
  await summary.getByRole('button', { name: 'Export JSON' }).click();
  const record = JSON.parse(readFileSync((await (await download).path())!, 'utf8')) as LoadRecord;
  const rows = record.rows;
  expect(rows).toHaveLength(20);
  expect(JSON.stringify(record)).not.toContain('demo-key');
  const ok = rows.filter((r) => r.verdict === 'complete');
  const duration = Math.max(...rows.map((r) => r.startMs + r.e2eMs)) - Math.min(...rows.map((r) => r.startMs));
  const tokens = ok.reduce((s, r) => s + r.outputTokens!, 0);
  const item = (label: string) => summary.getByLabel(label, { exact: true }).locator('dd');
  await expect(item('Requests sent')).toHaveText('20');
  await expect(item('Success rate')).toHaveText(`${((100 * ok.length) / rows.length).toFixed(1)} %`);
  const ended = rows.filter((r) => r.verdict !== 'cancelled');
  await expect(item('Requests/s')).toHaveText(`${((ended.length * 1000) / duration).toFixed(2)} req/s`);
  await expect(item('Completed/s')).toHaveText(`${((ok.length * 1000) / duration).toFixed(2)} req/s`);
  await expect(item('Output tokens/s')).toHaveText(`${((tokens * 1000) / duration).toFixed(2)} tok/s`);
  await expect(item('Output tokens')).toHaveText(String(tokens));

  const latencies: [string, number[]][] = [
    ['Time to first token', ok.map((r) => r.ttftMs!)],
    ['Inter-token latency', ok.flatMap((r) => r.itlMs)],
    ['Time per output token', ok.map((r) => (r.e2eMs - r.ttftMs!) / (r.outputTokens! - 1))],
    ['End-to-end latency', ok.map((r) => r.e2eMs)],
  ];
  const table = summary.getByRole('table', { name: 'Latency percentiles' });
  for (const [label, values] of latencies) {
    const row = table.getByRole('row', { name: label });
    const expected = [mean(values), pct(values, 50), pct(values, 90), pct(values, 99)].map((v) => `${v.toFixed(1)} ms`);
    await expect(row.locator('td[data-stat]')).toHaveText(expected);
  }

  const csv = app.waitForEvent('download');
  await summary.getByRole('button', { name: 'Export CSV' }).click();
  const lines = readFileSync((await (await csv).path())!, 'utf8')
    .trim()
    .split('\r\n');
  expect(lines).toHaveLength(21);
  expect(lines[1]).toMatch(/^0,[\d.]+,complete,200,/);
  await expect(app.getByRole('list', { name: 'Saved load runs' }).getByRole('listitem')).toHaveCount(1);
});

test('Stop mid-way cancels what is in flight and sends no more', async ({ app }) => {
  await openLoad(app);
  await configure(app, { model: 'sim-fault-slow', requests: 40, concurrency: 4 });
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(loadStatus(app)).toContainText('4 in flight');
  await app.getByRole('button', { name: 'Stop' }).click();
  await expect(loadStatus(app)).toContainText('Stopped:', { timeout: 10_000 });
  const summary = app.getByRole('region', { name: 'Load summary' });
  await expect(summary.getByLabel('Cancelled', { exact: true }).locator('dd')).toHaveText('4');
  // Drawn as the summary counts them: cancelled (grey, in the legend), not failed.
  await expect(summary.getByLabel('Failed', { exact: true }).locator('dd')).toHaveText('0');
  await expect(loadStatus(app)).toContainText('0 failed, 4 cancelled');
  await expect(app.locator('.load-chart path.dots.failed')).toHaveAttribute('d', '');
  await expect(app.locator('.load-chart path.dots.cancelled')).not.toHaveAttribute('d', '');
  await expect(summary).toContainText('Stopped by you');
  const sent = Number(await summary.getByLabel('Requests sent', { exact: true }).locator('dd').textContent());
  expect(sent).toBeLessThan(40);
  await expect(app.getByRole('button', { name: 'Start' })).toBeEnabled();
});

test('two load runs side by side, with the differences marked', async ({ app }) => {
  await openLoad(app);
  await configure(app, { model: 'claude-sim-haiku', requests: 8, concurrency: 4 });
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(loadStatus(app)).toContainText('Finished:', { timeout: 30_000 });
  await configure(app, { model: 'sim-fault-429', requests: 8, concurrency: 4 });
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(loadStatus(app)).toContainText('Finished: 8 of 8 done, 0 in flight, 8 failed', { timeout: 30_000 });
  const summary = app.getByRole('region', { name: 'Load summary' });
  await expect(summary.getByRole('list', { name: 'Errors by class' })).toContainText('HTTP 429 × 8');

  const compare = app.getByRole('region', { name: 'Compare load runs' });
  // Newest first: option 1 is the 429 run, option 2 the healthy one.
  await compare.getByLabel('Load run A').selectOption({ index: 2 });
  await compare.getByLabel('Load run B').selectOption({ index: 1 });
  const table = compare.getByRole('table', { name: 'Load comparison' });
  await expect(table.getByRole('row', { name: 'Model' })).toContainText('differs');
  await expect(table.getByRole('row', { name: 'Concurrency' })).not.toContainText('differs');
  const success = table.getByRole('row', { name: 'Success rate' });
  await expect(success.locator('td')).toHaveText(['100.0 %', '0.0 %']);
  await expect(success.locator('td').first()).toHaveClass(/best/);
  await expect(success.locator('td.best')).toHaveCount(1);
});

test('the browser host refuses more than 100 requests to a gateway that is not the Demo gateway, and says how', async ({
  app,
  startGateway,
}) => {
  const key = 'sk-paid-gateway-0123456789';
  const paid = await startGateway({ keys: { [key]: ['claude-sim-haiku'] } });
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('Paid gateway');
  await dialog.getByLabel('Base URL').fill(paid.url);
  await dialog.getByLabel('API key').fill(key);
  await dialog.getByRole('button', { name: 'Add and use' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved.');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await openLoad(app);
  await configure(app, { model: 'claude-sim-haiku', requests: 101, concurrency: 8 });
  const sent = () => paid.requests.filter((q) => q.path === '/v1/messages').length;
  await app.getByRole('button', { name: 'Start' }).click();
  // It cannot ask outside the page, and a yes inside it is what any token holder could send.
  await expect(app.getByRole('alert')).toContainText(
    'Run 100 or fewer, or use the desktop app (npm start), which asks you in its own dialog.',
  );
  expect(sent()).toBe(0);

  await configure(app, { model: 'claude-sim-haiku', requests: 100, concurrency: 8 });
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(loadStatus(app)).toContainText('Finished: 100 of 100 done', { timeout: 30_000 });
  expect(sent()).toBe(100);
});

test('the Load form and Compare two load runs fit at 1280×720 and 1440×900: no select cut off, the header aligned', async ({
  app,
}) => {
  await openLoad(app);
  for (const model of ['claude-sim-haiku', 'sim-fault-429']) {
    await configure(app, { model, requests: 4, concurrency: 4 });
    await app.getByRole('button', { name: 'Start' }).click();
    await expect(loadStatus(app)).toContainText('Finished:', { timeout: 30_000 });
  }
  const compare = app.getByRole('region', { name: 'Compare load runs' });
  await compare.getByLabel('Load run A').selectOption({ index: 2 });
  await compare.getByLabel('Load run B').selectOption({ index: 1 });
  const table = compare.getByRole('table', { name: 'Load comparison' });
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1440, height: 900 },
  ]) {
    await app.setViewportSize(viewport);
    const at = `${viewport.width}×${viewport.height}`;
    // Each header cell stands over its column: a collapsed header sits apart from the cells below it.
    for (const [k, name] of ['Figure', 'A', 'B'].entries()) {
      const head = await table.getByRole('columnheader', { name, exact: true }).boundingBox();
      const cell = await table.getByRole('row', { name: 'Profile' }).locator('th, td').nth(k).boundingBox();
      expect(Math.abs(head!.x - cell!.x), `${at}: ${name}`).toBeLessThan(1);
      expect(Math.abs(head!.width - cell!.width), `${at}: ${name}`).toBeLessThan(1);
    }
    // The text a select shows fits beside its arrow.
    const cut = await app.evaluate(() => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      return ['Request', 'Load profile', 'Load run A', 'Load run B'].flatMap((label) => {
        const select = document.querySelector<HTMLSelectElement>(`select[aria-label="${label}"]`)!;
        const style = getComputedStyle(select);
        ctx.font = style.font;
        const text = ctx.measureText(select.selectedOptions[0].text).width;
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
        return text > room ? [`${label}: "${select.selectedOptions[0].text}" needs ${text} px, has ${room}`] : [];
      });
    });
    expect(cut, at).toEqual([]);
  }
});
