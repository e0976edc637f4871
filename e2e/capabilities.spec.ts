import { expect, test } from './fixtures';

test('run a matrix row, then open a cell and its evidence run', async ({ app }) => {
  await app.getByRole('tab', { name: 'Capabilities' }).click();
  const matrix = app.getByRole('table', { name: 'Capability matrix' });
  await expect(matrix).toContainText('claude-sim-sonnet');
  await app.getByLabel('Filter models').fill('sim-no-tools');
  await app.getByRole('button', { name: 'Probe row sim-no-tools' }).click();
  await expect(app.getByRole('progressbar', { name: 'Probe progress' })).toBeVisible();
  const toolsCell = app.getByRole('button', { name: 'sim-no-tools Messages tools: not-supported' });
  await expect(toolsCell).toBeVisible({ timeout: 45_000 });
  const streaming = app.getByRole('button', { name: 'sim-no-tools Messages streaming: proven' });
  await expect(streaming).toBeVisible({ timeout: 45_000 });
  await toolsCell.click();
  const detail = app.getByRole('complementary', { name: 'Cell evidence' });
  await expect(detail).toContainText('not-supported');
  await detail
    .getByRole('button', { name: /Open evidence run/ })
    .first()
    .click();
  await expect(detail.getByRole('status', { name: 'Stream status' })).toContainText('complete');
  await expect(detail.getByRole('region', { name: 'Output' })).not.toContainText('tool call');
  await expect(app.getByRole('progressbar', { name: 'Probe progress' })).toBeHidden({ timeout: 60_000 });
});

test('the column heads are explained by a title and a legend', async ({ app }) => {
  await app.getByRole('tab', { name: 'Capabilities' }).click();
  const head = app.getByRole('button', { name: 'Probe column Messages caching' });
  await expect(head).toHaveText('cache');
  await expect(head).toHaveAttribute('title', /Prompt caching — proven by .*cache/);
  const legend = app.getByRole('region', { name: 'Matrix legend' });
  for (const [short, label] of [
    ['str', 'Streaming'],
    ['rt', 'Tool-result round trip'],
    ['think', 'Thinking / reasoning'],
    ['json', 'Structured output'],
    ['bg', 'Background tasks'],
  ]) {
    await expect(legend.getByRole('term').filter({ hasText: new RegExp(`^${short}$`) })).toBeVisible();
    await expect(legend.getByRole('definition').filter({ hasText: label })).toBeVisible();
  }
});

test('a rate-limited model shows its wait; other rows can be probed meanwhile; cancel ends it', async ({ app }) => {
  await app.getByRole('tab', { name: 'Capabilities' }).click();
  await app.getByLabel('Filter models').fill('sim-fault');
  await app.getByRole('button', { name: 'Probe row sim-fault-429' }).click();
  // Only the job's own row is busy.
  await expect(app.getByRole('button', { name: 'Probe row sim-fault-429' })).toBeDisabled();
  await expect(app.getByRole('button', { name: 'Probe row sim-fault-cut' })).toBeEnabled();
  // The simulator asks for 30 s: shown on the row and in the progress, counting down.
  const wait = app.getByRole('status', { name: 'sim-fault-429 rate limited' });
  await expect(wait).toContainText(/waits (2\d|30) s/, { timeout: 20_000 });
  const progress = app.getByRole('progressbar', { name: 'Probe progress' });
  await expect(progress).toContainText(/rate limited: sim-fault-429 waits \d+ s \(other models go on\)/);
  await app.getByRole('group', { name: 'Probe jobs' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toBeHidden({ timeout: 20_000 });
});

test('at 1280×720 the evidence panel leaves every column in view, closes, shows all its text', async ({ app }) => {
  await app.setViewportSize({ width: 1280, height: 720 });
  await app.getByRole('tab', { name: 'Capabilities' }).click();
  await app.getByLabel('Filter models').fill('sim-no-tools');
  await app.getByRole('button', { name: 'sim-no-tools Messages tools: not probed' }).click();
  const detail = app.getByRole('complementary', { name: 'Cell evidence' });
  await detail.getByRole('button', { name: 'Probe this cell' }).click();
  await expect(detail).toContainText('not-supported', { timeout: 45_000 });

  const panel = (await detail.boundingBox())!;
  expect(panel.x + panel.width).toBeLessThanOrEqual(1280);
  const last = (await app.getByRole('button', { name: 'Probe column Responses background' }).boundingBox())!;
  expect(last.x + last.width).toBeLessThanOrEqual(panel.x);
  expect(await app.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);

  const text = detail.getByLabel('Evidence text');
  await expect(text).toBeVisible();
  const fits = await text.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const panelBox = el.closest('aside')!.getBoundingClientRect();
    return {
      inside: box.left >= panelBox.left && box.right <= panelBox.right + 0.5,
      wrapped: el.scrollWidth <= el.clientWidth,
      // Shown in full, or in a box of its own that scrolls (not squeezed to a sliver).
      tall: el.clientHeight >= Math.min(el.scrollHeight, 60),
    };
  });
  expect(fits).toEqual({ inside: true, wrapped: true, tall: true });

  await detail.getByRole('button', { name: 'Close cell evidence' }).click();
  await expect(detail).toBeHidden();
});

test('a profile that cannot list models: the same error as the protocol tabs, and nothing to probe', async ({
  relaunch,
  startGateway,
}) => {
  const sim = await startGateway();
  const env = { GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: 'sk-not-a-key-of-this-gateway' };
  const page = await relaunch({ env });
  const pickerError = page.getByRole('alert', { name: 'Models error' });
  await expect(pickerError).toBeVisible({ timeout: 20_000 });
  const said = (await pickerError.textContent())!.trim();
  expect(said).toMatch(/HTTP 401/);
  await page.getByRole('tab', { name: 'Capabilities' }).click();
  await expect(page.getByRole('alert', { name: 'Models error' })).toHaveText(said);
  await expect(page.getByRole('button', { name: 'Probe everything shown (0 models)' })).toBeDisabled();
});
