import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function openCompare(page: import('@playwright/test').Page) {
  await page.getByRole('tab', { name: 'Compare' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Compare' })).toBeVisible();
}

test('same model, three protocols: every column completes and the summary table marks the best values', async ({
  app: page,
}) => {
  await openCompare(page);
  // The columns start on a model the Demo gateway lists, once its list is in.
  await expect(page.getByLabel('Column 1 model')).toHaveValue('claude-sim-sonnet');
  await page.getByRole('button', { name: 'Same model, three protocols' }).click();
  for (let i = 1; i <= 3; i++) await expect(page.getByLabel(`Column ${i} model`)).toHaveValue('claude-sim-sonnet');
  await expect(page.getByRole('region', { name: 'Column 1' })).toContainText('Request for this column');
  await page.getByRole('button', { name: 'Run all' }).click();
  for (let i = 1; i <= 3; i++) {
    await expect(
      page.getByRole('region', { name: `Column ${i}` }).getByRole('status', { name: 'Stream status' }),
    ).toContainText('complete', { timeout: 20_000 });
  }
  const table = page.getByRole('table', { name: 'Comparison summary' });
  await expect(table.getByRole('row', { name: /^verdict/ })).toContainText(
    'complete complete complete'.replace(/ /g, ''),
  );
  await expect(table.getByRole('row', { name: /time to first token/ }).locator('td.best')).toHaveCount(1);
  await expect(table.getByRole('row', { name: /output tokens\b/ }).first()).not.toContainText('—');
});

test('a fault column shows its verdict while the others complete; the diff shows two models differ', async ({
  app: page,
}) => {
  await openCompare(page);
  await expect(page.getByLabel('Column 1 model')).toHaveValue('claude-sim-sonnet');
  await page.getByLabel('Column 2 protocol').selectOption('messages');
  await page.getByLabel('Column 2 model').fill('gpt-sim-4o');
  await page.getByRole('button', { name: '+ Column' }).click();
  await page.getByLabel('Column 3 protocol').selectOption('messages');
  await page.getByLabel('Column 3 model').fill('sim-fault-cut');
  await page.getByRole('button', { name: 'Run all' }).click();
  const col = (i: number) =>
    page.getByRole('region', { name: `Column ${i}` }).getByRole('status', { name: 'Stream status' });
  await expect(col(3)).toContainText('truncated', { timeout: 20_000 });
  await expect(col(1)).toContainText('complete', { timeout: 20_000 });
  await expect(col(2)).toContainText('complete', { timeout: 20_000 });
  const diff = page.getByLabel('Output diff');
  await expect(diff.locator('.removed').first()).toBeVisible();
  await expect(diff.locator('.added').first()).toBeVisible();
  await expect(diff).toContainText('Claude Sim Sonnet');
  await expect(diff).toContainText('GPT Sim 4o');
});

test('a saved comparison re-runs after a restart, and its runs are in history', async ({ app: page, relaunch }) => {
  await openCompare(page);
  await expect(page.getByLabel('Column 1 model')).toHaveValue('claude-sim-sonnet');
  await page.getByLabel('Shared user turn').fill('Compare me across protocols');
  await page.getByLabel('Column 2 model').fill('gpt-sim-mini');
  await page.getByLabel('Comparison name').fill('Two columns');
  await page.getByRole('button', { name: 'Save comparison' }).click();
  await expect(page.getByText('Saved “Two columns”.')).toBeVisible();
  await relaunch();
  await page.getByRole('tab', { name: 'Presets' }).click();
  await page.getByRole('button', { name: 'Load Two columns' }).click();
  await expect(page.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Shared user turn')).toHaveValue('Compare me across protocols');
  await expect(page.getByLabel('Column 2 model')).toHaveValue('gpt-sim-mini');
  await page.getByRole('button', { name: 'Run all' }).click();
  for (let i = 1; i <= 2; i++) {
    await expect(
      page.getByRole('region', { name: `Column ${i}` }).getByRole('status', { name: 'Stream status' }),
    ).toContainText('complete', { timeout: 20_000 });
  }
  await page.getByRole('tab', { name: 'History' }).click();
  // History shows the user's own runs until its Source says otherwise: Compare's columns are Compare's.
  await page.getByRole('combobox', { name: 'Source' }).selectOption('Compare');
  await expect(page.getByRole('list', { name: 'Runs' }).getByRole('button')).toHaveCount(2);
  await expect(page.getByRole('list', { name: 'Runs' })).toContainText('compare');
});

test('an Environment profile listing other models: the columns use its models and each completes', async ({
  relaunch,
  startGateway,
}) => {
  // A second gateway whose key lists none of the Demo gateway's default model.
  const sim = await startGateway({ keys: { 'sk-env-only': ['gpt-sim-4o', 'gpt-sim-mini', 'sim-chat-only'] } });
  const page = await relaunch({ env: { GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: 'sk-env-only' } });
  await expect(page.getByRole('combobox', { name: 'Profile', exact: true })).toHaveValue('env');
  await openCompare(page);
  for (let i = 1; i <= 2; i++) await expect(page.getByLabel(`Column ${i} model`)).toHaveValue('gpt-sim-4o');
  // Ctrl/Cmd+Shift+Enter runs all, wherever the focus is in the tab.
  await page.getByLabel('Shared user turn').focus();
  await page.keyboard.press('ControlOrMeta+Shift+Enter');
  const col = (i: number) =>
    page.getByRole('region', { name: `Column ${i}` }).getByRole('status', { name: 'Stream status' });
  for (let i = 1; i <= 2; i++) await expect(col(i)).toContainText('complete', { timeout: 20_000 });

  await page.getByRole('button', { name: 'Same model, three protocols' }).click();
  for (let i = 1; i <= 3; i++) await expect(page.getByLabel(`Column ${i} model`)).toHaveValue('gpt-sim-4o');
  await page.getByRole('button', { name: 'Run all' }).click();
  for (let i = 1; i <= 3; i++) await expect(col(i)).toContainText('complete', { timeout: 20_000 });
  const table = page.getByRole('table', { name: 'Comparison summary' });
  await expect(table.getByRole('row', { name: /^status/ })).toContainText('200200200');
});

test('at 1280×720 the stream checkbox is clear of max_tokens: a click on its edge edits, never toggles', async ({
  app,
}) => {
  await app.setViewportSize({ width: 1280, height: 720 });
  await openCompare(app);
  const maxTokens = app.getByLabel('Shared max_tokens');
  const stream = app.getByRole('checkbox', { name: 'stream' });
  const before = await stream.isChecked();
  const box = (await maxTokens.boundingBox())!;
  const label = (await app.locator('label.stream-toggle').boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(label.x);
  await app.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
  await expect(maxTokens).toBeFocused();
  expect(await stream.isChecked()).toBe(before);
});

/**
 * `count` columns run at this window size: the Compare area does not scroll sideways, each column ends inside
 * the window, and each reply reads as lines of words (a paragraph no taller than a few words a line would give).
 */
async function expectReadableColumns(page: Page, count: number): Promise<void> {
  await openCompare(page);
  await expect(page.getByLabel('Column 1 model')).toHaveValue('claude-sim-sonnet');
  for (let i = 3; i <= count; i++) await page.getByRole('button', { name: '+ Column' }).click();
  await expect(page.getByRole('region', { name: /^Column \d$/ })).toHaveCount(count);
  await page.getByRole('button', { name: 'Run all' }).click();
  const width = page.viewportSize()!.width;
  const panel = page.getByRole('tabpanel', { name: 'Compare' });
  for (let i = 1; i <= count; i++) {
    const column = page.getByRole('region', { name: `Column ${i}`, exact: true });
    await expect(column.getByRole('status', { name: 'Stream status' })).toContainText('complete', { timeout: 20_000 });
    const box = (await column.boundingBox())!;
    expect(box.x + box.width, `column ${i}'s right edge`).toBeLessThanOrEqual(width);
    const output = column.getByRole('region', { name: 'Output' });
    expect((await output.boundingBox())!.width, `column ${i}'s output width`).toBeGreaterThanOrEqual(150);
    const paragraph = output.locator('p').filter({ hasText: 'A deterministic simulator wrote this' });
    const shape = await paragraph.evaluate((p) => ({
      lines: p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight),
      words: (p.textContent ?? '').split(/\s+/).length,
    }));
    expect(shape.words / shape.lines, `column ${i}: words per line`).toBeGreaterThanOrEqual(3);
  }
  const overflow = await panel.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow, 'the Compare area scrolls sideways').toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
}

test('six columns at 1440×900 stay readable: no sideways scroll, every column in view, lines of words', async ({
  app,
}) => {
  await expectReadableColumns(app, 6);
});

test('four columns at 1280×720 stay readable: no sideways scroll, every column in view, lines of words', async ({
  app,
}) => {
  await app.setViewportSize({ width: 1280, height: 720 });
  await expectReadableColumns(app, 4);
});
