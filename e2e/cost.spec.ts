import { expect, test } from './fixtures';
import { pickModel, status } from './helpers';
import type { Page } from '@playwright/test';

/** A figure of the Usage line, as a number ("1,234" → 1234; 0 when not reported). */
async function usageFigure(page: Page, name: string): Promise<number> {
  const row = page
    .getByLabel('Usage')
    .locator('div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) });
  const text = await row.locator('dd').innerText();
  return text === 'not reported' ? 0 : Number(text.replace(/,/g, ''));
}

test('a run on a model no price list knows says "no price"; a price set in Prices gives its cost', async ({ app }) => {
  await pickModel(app, 'claude-sim-sonnet');
  await app.getByRole('textbox', { name: 'Message' }).fill('What does a run cost?');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const cost = app.getByLabel('Metrics').getByRole('button', { name: /^cost / });
  await expect(cost).toHaveAccessibleName('cost no price');

  await cost.click();
  const dialog = app.getByRole('dialog', { name: 'Prices' });
  await expect(dialog.getByLabel('Model')).toHaveValue('claude-sim-sonnet');
  await dialog.getByLabel('Input $ per 1M tokens').fill('1000');
  await dialog.getByLabel('Output $ per 1M tokens').fill('2000');
  await dialog.getByLabel('Cache read $ per 1M tokens').fill('100');
  await dialog.getByLabel('Cache write $ per 1M tokens').fill('1250');
  await dialog.getByRole('button', { name: 'Set price' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  // Worked out from the usage the gateway reported, each part at its own rate.
  const input = await usageFigure(app, 'input');
  const read = await usageFigure(app, 'cache read');
  const write = await usageFigure(app, 'cache write');
  const out = await usageFigure(app, 'output');
  const usd = ((input - read - write) * 1000 + read * 100 + write * 1250 + out * 2000) / 1e6;
  expect(usd).toBeGreaterThan(0);
  await expect(cost).toHaveAccessibleName(`cost $${usd.toFixed(4)} (your price)`);

  // The price is kept by the core, not the page: a reload still lists it.
  await app.reload();
  await app.getByRole('button', { name: 'Prices…' }).click();
  await expect(app.getByRole('list', { name: 'Your prices' })).toContainText('claude-sim-sonnet');
});
