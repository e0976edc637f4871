/**
 * History that finds things, as a user drives it: after a Capabilities check it still shows only the user's own
 * runs until Source says otherwise; a word of a prompt finds its run; Export HAR downloads a file a browser's
 * network panel reads, with no key in it; Diff shows two runs side by side.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openTab, pickModel, status } from './helpers';

const KEY = 'sk-history-e2e-key-0123456789abcdef';

test('History: Source, a prompt word, Export HAR without the key, and Diff', async ({ relaunch, startGateway }) => {
  test.setTimeout(120_000);
  const sim = await startGateway({ keys: { [KEY]: ['claude-sim-sonnet', 'gpt-sim-mini', 'sim-no-tools'] } });
  const app = await relaunch({ env: { GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: KEY } });
  // Two runs of the user's own, one per protocol tab, so neither request holds the other's prompt.
  const sent: [Parameters<typeof openTab>[1], string, string][] = [
    ['Messages', 'claude-sim-sonnet', 'Where do KINGFISHERS nest in winter?'],
    ['Chat Completions', 'gpt-sim-mini', 'How fast can an otter swim?'],
  ];
  for (const [tab, model, prompt] of sent) {
    await openTab(app, tab);
    await pickModel(app, model);
    await app.getByRole('textbox', { name: 'Message', exact: true }).fill(prompt);
    await app.getByRole('button', { name: 'Send' }).click();
    await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  }

  await app.getByRole('tab', { name: 'Capabilities' }).click();
  await app.getByLabel('Filter models').fill('sim-no-tools');
  await app.getByRole('button', { name: 'Probe row sim-no-tools' }).click();
  await expect(app.getByRole('progressbar', { name: 'Probe progress' })).toBeVisible();
  await expect(app.getByRole('progressbar', { name: 'Probe progress' })).toBeHidden({ timeout: 60_000 });

  await app.getByRole('tab', { name: 'History' }).click();
  const source = app.getByRole('combobox', { name: 'Source' });
  const runs = app.getByRole('list', { name: 'Runs' });
  await expect(source.locator('option:checked')).toHaveText('Mine');
  await expect(runs.getByRole('button')).toHaveCount(2);
  await expect(runs).not.toContainText('probe');
  await source.selectOption('Capabilities');
  const check = runs.getByRole('button', { name: /Capabilities · sim-no-tools · \d+ probes/ });
  await expect(check).toHaveCount(1);
  await expect(runs.getByRole('button')).toHaveCount(1);
  await check.click();
  await expect(check).toHaveAttribute('aria-expanded', 'true');
  expect(await runs.getByRole('button').count()).toBeGreaterThan(2);
  await source.selectOption('Mine');
  await expect(runs.getByRole('button')).toHaveCount(2);

  // A word only the first prompt holds (the answers do not repeat it).
  const search = app.getByRole('textbox', { name: 'Search history' });
  await search.fill('kingfishers');
  await expect(runs.getByRole('button')).toHaveCount(1);
  await runs.getByRole('checkbox').first().check();
  const download = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export HAR', exact: true }).click();
  const file = await (await download).path();
  const text = readFileSync(file, 'utf8');
  const har = JSON.parse(text) as {
    log: {
      version: string;
      entries: { request: { method: string; postData: { text: string } }; response: { status: number } }[];
    };
  };
  expect(har.log.version).toBe('1.2');
  expect(har.log.entries).toHaveLength(1);
  expect(har.log.entries[0].request.method).toBe('POST');
  expect(har.log.entries[0].request.postData.text).toContain('KINGFISHERS');
  expect(har.log.entries[0].response.status).toBe(200);
  for (const piece of [KEY, KEY.slice(0, 16), KEY.slice(-16)]) expect(text).not.toContain(piece);

  await search.fill('');
  await expect(runs.getByRole('button')).toHaveCount(2);
  await runs.getByRole('checkbox').first().check();
  await app.getByRole('button', { name: 'Diff', exact: true }).click();
  const diff = app.getByRole('region', { name: 'Diff' });
  await expect(diff.getByLabel('Request diff')).toContainText('KINGFISHERS');
  await expect(diff.getByLabel('Request diff')).toContainText('otter');
  await expect(diff.getByLabel('Request diff').locator('.removed, .added')).not.toHaveCount(0);
});
