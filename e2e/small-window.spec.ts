/**
 * 1280×720 is a supported window (the minimum is 960×600): on every tab nothing is wider than the window, and
 * each key control is on screen or reachable by its own container's scroll — never cut off or covered.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openTab, pickModel, appTab } from './helpers';

test.use({ viewport: { width: 1280, height: 720 } });

/** The page is no wider than the window (a long string in one pane must not push the top bar off screen). */
async function expectNoWiderThanWindow(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, 'the page is wider than the window').toBeLessThanOrEqual(innerWidth);
}

/** On screen once its container scrolls to it, whole, and not covered by anything else. */
async function expectReachable(control: Locator): Promise<void> {
  // Brought to the middle of its container, as a person scrolls to it: scrolled only as far as its edge, a
  // control can sit a rounded sub-pixel short of it.
  await control.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'nearest' }));
  await expect(control).toBeInViewport({ ratio: 1 });
  const hit = await control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!at && (at === el || el.contains(at) || (el as HTMLElement).contains(at) || at.contains(el));
  });
  expect(hit, 'the control is covered by another element').toBe(true);
  expect(await control.page().evaluate(() => window.scrollX), 'the page scrolled sideways').toBe(0);
}

/** A region (it may be taller than the window): scrolled to, on screen, and within the window's width. */
async function expectRegionFits(region: Locator): Promise<void> {
  await region.scrollIntoViewIfNeeded();
  await expect(region).toBeInViewport();
  const box = (await region.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(await region.page().evaluate(() => window.innerWidth));
}

/** The top bar and the tab list: the same on every tab. */
async function expectTopBar(page: Page): Promise<void> {
  await expectReachable(page.getByRole('combobox', { name: 'Profile', exact: true }));
  await expectReachable(page.getByRole('button', { name: 'Connections…' }));
  for (const name of ['Messages', 'Compare', 'History', 'Presets', 'Capabilities', 'Load', 'Agents']) {
    await expectReachable(appTab(page, name));
  }
}

for (const tab of ['Messages', 'Chat Completions', 'Responses'] as const) {
  test(`${tab}: the composer, Send and the viewer fit, before and after a run`, async ({ app }) => {
    await openTab(app, tab);
    await expectNoWiderThanWindow(app);
    await expectTopBar(app);
    await expectReachable(app.getByRole('combobox', { name: 'Model' }));
    await expectReachable(app.getByRole('textbox', { name: 'Message' }));
    await pickModel(app, 'claude-sim-sonnet');
    const send = app.getByRole('button', { name: 'Send' });
    await expectReachable(send);
    await send.click();
    await expect(app.getByRole('status', { name: 'Stream status' })).toContainText('complete', { timeout: 20_000 });
    await expectNoWiderThanWindow(app);
    await expectRegionFits(app.getByRole('region', { name: 'Output' }));
    await expectTopBar(app);
  });
}

// A 1×1 PNG padded to ~12 KB of base64: one long unbroken string, as a small screenshot would be.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const BIG_IMAGE = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(9000)]);

test('Messages: a run whose ledger holds an image keeps the page within the window', async ({ app }) => {
  await openTab(app, 'Messages');
  await pickModel(app, 'claude-sim-sonnet');
  await app.getByLabel('Attach image').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: BIG_IMAGE });
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(app.getByRole('status', { name: 'Stream status' })).not.toContainText('streaming', { timeout: 20_000 });
  await app.getByRole('tab', { name: 'Ledger' }).click();
  await expectNoWiderThanWindow(app);
  await expectTopBar(app);
});

test('Compare: three columns, run, summary and diff fit', async ({ app }) => {
  await app.getByRole('tab', { name: 'Compare' }).click();
  await app.getByRole('button', { name: 'Same model, three protocols' }).click();
  await expectNoWiderThanWindow(app);
  await expectTopBar(app);
  for (const name of ['Run all', '+ Column', 'Save comparison']) {
    await expectReachable(app.getByRole('button', { name }));
  }
  await expectReachable(app.getByRole('checkbox', { name: 'stream' }));
  await expectReachable(app.getByLabel('Shared max_tokens'));
  for (let i = 1; i <= 3; i++) await expectReachable(app.getByLabel(`Column ${i} model`));
  await app.getByRole('button', { name: 'Run all' }).click();
  for (let i = 1; i <= 3; i++) {
    const status = app.getByRole('region', { name: `Column ${i}` }).getByRole('status', { name: 'Stream status' });
    await expect(status).toContainText('complete', { timeout: 20_000 });
  }
  await expectNoWiderThanWindow(app);
  await expectRegionFits(app.getByRole('table', { name: 'Comparison summary' }));
  await expectRegionFits(app.getByLabel('Output diff'));
  await expectReachable(app.getByRole('button', { name: 'Remove column 3' }));
});

test('Capabilities: the toolbar, the whole matrix and the evidence panel fit', async ({ app }) => {
  await app.getByRole('tab', { name: 'Capabilities' }).click();
  await expect(app.getByRole('table', { name: 'Capability matrix' })).toContainText('claude-sim-sonnet');
  await expectNoWiderThanWindow(app);
  await expectTopBar(app);
  await expectReachable(app.getByRole('button', { name: /^Probe everything shown/ }));
  await expectReachable(app.getByLabel('Filter models'));
  await app.getByRole('button', { name: 'claude-sim-sonnet Messages tools: not probed' }).click();
  const detail = app.getByRole('complementary', { name: 'Cell evidence' });
  await expectReachable(detail.getByRole('button', { name: 'Close cell evidence' }));
  await expectReachable(detail.getByRole('button', { name: 'Probe this cell' }));
  await expectReachable(app.getByRole('button', { name: 'Probe column Responses background' }));
  await expectRegionFits(app.getByRole('region', { name: 'Matrix legend' }));
  await expectNoWiderThanWindow(app);
});

test('History: the list, its filters and a run fit', async ({ app }) => {
  await pickModel(app, 'claude-sim-sonnet');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(app.getByRole('status', { name: 'Stream status' })).toContainText('complete', { timeout: 20_000 });
  await app.getByRole('tab', { name: 'History' }).click();
  await expectNoWiderThanWindow(app);
  await expectTopBar(app);
  for (const name of ['Search history', 'Filter by protocol', 'Filter by verdict', 'Filter by model']) {
    await expectReachable(app.getByLabel(name));
  }
  const run = app.getByRole('list', { name: 'Runs' }).getByRole('button').first();
  await expectReachable(run);
  await run.click();
  await expectNoWiderThanWindow(app);
  await expectRegionFits(app.getByRole('region', { name: 'Output' }));
});

test('Presets: search, export, import and a saved preset fit', async ({ app }) => {
  await app.getByRole('tab', { name: 'Compare' }).click();
  await app.getByLabel('Comparison name').fill('A comparison with a name long enough to need some room in the list');
  await app.getByRole('button', { name: 'Save comparison' }).click();
  await expect(app.getByText(/^Saved “/)).toBeVisible();
  await app.getByRole('tab', { name: 'Presets' }).click();
  await expectNoWiderThanWindow(app);
  await expectTopBar(app);
  await expectReachable(app.getByLabel('Search presets'));
  await expectReachable(app.getByRole('button', { name: 'Export all' }));
  await expectReachable(app.getByRole('button', { name: 'Import…' }));
  await expectReachable(app.getByRole('list', { name: 'Preset list' }).getByRole('button').first());
});

test('Connections: the dialog and its Add profile button fit the window', async ({ app }) => {
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await expect(dialog).toBeVisible();
  await expectNoWiderThanWindow(app);
  await expectReachable(dialog.getByRole('button', { name: 'Close' }));
  await expectReachable(dialog.getByLabel('Base URL'));
  const add = dialog.getByRole('button', { name: 'Add profile' });
  await expectReachable(add);
  const [button, box] = [(await add.boundingBox())!, (await dialog.boundingBox())!];
  expect(button.y + button.height).toBeLessThanOrEqual(box.y + box.height);
});

test("Connections: an added profile's Save profile button fits the dialog", async ({ app, startGateway }) => {
  const sim = await startGateway();
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByLabel('Name').fill('Second gateway');
  await dialog.getByLabel('Base URL').fill(sim.url);
  await dialog.getByLabel('API key').fill('demo-key');
  await dialog.getByRole('button', { name: 'Add profile' }).click();
  const save = dialog.getByRole('button', { name: 'Save profile' });
  await expect(save).toBeAttached();
  await expectNoWiderThanWindow(app);
  await expectReachable(save);
  const [button, box] = [(await save.boundingBox())!, (await dialog.boundingBox())!];
  expect(button.y + button.height).toBeLessThanOrEqual(box.y + box.height);
});

test("Load: the form, Start, Stop and a finished run's summary fit", async ({ app }) => {
  await appTab(app, 'Load').click();
  await expectNoWiderThanWindow(app);
  await expectTopBar(app);
  await app.getByLabel('Model', { exact: true }).fill('claude-sim-haiku');
  await app.getByLabel('Requests', { exact: true }).fill('8');
  await expectReachable(app.getByLabel('Concurrency', { exact: true }));
  await expectReachable(app.getByRole('button', { name: 'Stop' }));
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(app.getByRole('status', { name: 'Load status' })).toContainText('Finished', { timeout: 30_000 });
  await expectRegionFits(app.getByRole('region', { name: 'Load summary' }));
  await expectNoWiderThanWindow(app);
});

test('Agents: the controls, a verdict and the matrix fit', async ({ app }) => {
  await appTab(app, 'Agents').click();
  await expectNoWiderThanWindow(app);
  await expectTopBar(app);
  await app.getByRole('combobox', { name: 'Model', exact: true }).selectOption('gpt-sim-o3');
  await expectReachable(app.getByRole('button', { name: 'Check', exact: true }));
  await expectReachable(app.getByRole('button', { name: /^Check all/ }));
  await app.getByRole('button', { name: 'Check', exact: true }).click();
  const verdict = app.getByRole('region', { name: 'Agent verdict' });
  await expect(verdict).toContainText(/^ready/, { timeout: 60_000 });
  await expectRegionFits(verdict);
  await expectNoWiderThanWindow(app);
});

test('Agents: the agent session and its lines to paste fit', async ({ app }) => {
  await appTab(app, 'Agents').click();
  await app.getByRole('button', { name: 'Connect an agent' }).click();
  const session = app.getByRole('region', { name: 'Agent session' });
  await expect(session.getByLabel('Codex CLI', { exact: true })).toContainText('wire_api="responses"');
  await expectRegionFits(session);
  await expectReachable(session.getByRole('button', { name: 'Copy Codex CLI' }));
  await expectNoWiderThanWindow(app);
});
