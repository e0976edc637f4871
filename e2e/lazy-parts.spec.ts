import { expect, test } from './fixtures';
import { appTab, output, pickModel, status } from './helpers';

test('a tab whose code cannot be fetched says so, and Retry fetches it and opens the tab', async ({ app: page }) => {
  let refuse = true;
  await page.route(/\/assets\/CompareTab-[^/]*\.js$/, (route) => (refuse ? route.abort() : route.continue()));
  await appTab(page, 'Compare').click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Could not load the Compare tab');
  await expect(appTab(page, 'Compare')).toHaveAttribute('aria-selected', 'true');

  refuse = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('button', { name: 'Run all' })).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test('a reply whose Markdown renderer cannot be fetched shows as text, and Retry renders it', async ({
  page,
  host,
}) => {
  let refuse = true;
  // Refused from the start: the window fetches the renderer once it has started, before any reply.
  await page.route(/\/assets\/MarkdownView-[^/]*\.js$/, (route) => (refuse ? route.abort() : route.continue()));
  await page.goto(host.url);
  await expect(page.getByRole('combobox', { name: 'Profile', exact: true })).toBeVisible();
  await pickModel(page, 'claude-sim-sonnet');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(status(page)).toContainText('complete', { timeout: 20_000 });
  // The reply shows in the Output and in the Conversation region: each block offers its own Retry.
  const retry = page.getByRole('button', { name: 'Retry' });
  await expect(output(page).getByRole('alert').first()).toContainText('Could not load Markdown rendering');
  const text = (await output(page).locator('.md-pending').first().textContent()) ?? '';
  expect(text.replace('Could not load Markdown rendering', '').length).toBeGreaterThan(20);

  refuse = false;
  while ((await retry.count()) > 0) await retry.first().click();
  await expect(output(page).getByRole('alert')).toHaveCount(0);
  await expect(output(page).locator('.md-pending')).toHaveCount(0);
  await expect(output(page).locator('.md-block p').first()).toBeVisible();
});
