/**
 * The Load tab's way to Locust in the real browser (docs/load.md "Locust"): a load run on the Demo gateway,
 * the same load exported as a locustfile with no key in it, run by Debian's Locust, and its CSV imported as a
 * run marked Locust that compares with the app's. Skipped without /usr/bin/locust (.ci/run installs it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_KEY } from '../electron/core/simulator';
import { expect, test } from './fixtures';

test.skip(!existsSync('/usr/bin/locust'), 'Debian’s python3-locust is not installed');

test('export a load as Locust, run it, import its results and compare them with the app’s run', async ({ app }) => {
  test.setTimeout(90_000);
  await app.getByRole('tab', { name: 'Load' }).click();
  await app.getByLabel('Model', { exact: true }).fill('claude-sim-haiku');
  await app.getByLabel('Requests', { exact: true }).fill('12');
  await app.getByLabel('Concurrency', { exact: true }).fill('3');
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(app.getByRole('status', { name: 'Load status' })).toContainText('Finished: 12 of 12 done', {
    timeout: 30_000,
  });

  const download = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export as Locust' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('locustfile.py');
  const text = readFileSync((await file.path())!, 'utf8');
  expect(text).not.toContain(DEMO_KEY);
  expect(text).toContain('claude-sim-haiku');

  const work = mkdtempSync(path.join(tmpdir(), 'gp-e2e-locust-'));
  try {
    writeFileSync(path.join(work, 'locustfile.py'), text);
    const run = spawnSync('/usr/bin/locust', ['-f', 'locustfile.py', '--headless', '--csv', 'r', '--only-summary'], {
      cwd: work,
      env: { PATH: '/usr/bin:/bin', HOME: work, GATEWAY_API_KEY: DEMO_KEY },
      timeout: 60_000,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);

    await app
      .getByLabel('Locust CSV files')
      .setInputFiles(['r_stats.csv', 'r_stats_history.csv', 'r_failures.csv'].map((f) => path.join(work, f)));
    // The page reads the chosen files when it imports them: they stay until it says it has.
    await expect(app.getByRole('status').filter({ hasText: 'as a Locust run' })).toBeVisible();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const summary = app.getByRole('region', { name: 'Load summary' });
  await expect(summary).toContainText('Locust');
  await expect(summary.getByLabel('Requests sent', { exact: true }).locator('dd')).toHaveText('12');
  await expect(summary.getByLabel('Success rate', { exact: true }).locator('dd')).toHaveText('100.0 %');

  const compare = app.getByRole('region', { name: 'Compare load runs' });
  // Newest first: option 1 is the Locust run, option 2 the app's.
  await compare.getByLabel('Load run A').selectOption({ index: 2 });
  await compare.getByLabel('Load run B').selectOption({ index: 1 });
  const table = compare.getByRole('table', { name: 'Load comparison' });
  await expect(table.getByRole('row', { name: 'Profile' }).locator('td')).toHaveText(['Demo gateway', 'Locust']);
  await expect(table.getByRole('row', { name: 'Success rate' }).locator('td')).toHaveText(['100.0 %', '100.0 %']);
  const ttft = table.getByRole('row', { name: 'Time to first token p50' }).locator('td');
  await expect(ttft.nth(1)).toHaveText(/^\d+\.\d ms$/);
  await expect(table.getByRole('row', { name: 'Output tokens/s per request (mean)' }).locator('td').nth(1)).toHaveText(
    '—',
  );
});
