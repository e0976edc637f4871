import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { appTab, openTab, pickModel, status } from './helpers';

/** Geometry a user sees at the smallest window the app supports (docs/architecture.md §8). */
test.use({ viewport: { width: 1280, height: 720 } });

const box = async (l: Locator) => (await l.boundingBox())!;

async function runOnce(page: Page): Promise<void> {
  await pickModel(page, 'claude-sim-sonnet');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(status(page)).toContainText('complete', { timeout: 20_000 });
}

test('History "Step through": the viewer still fills the window down to its bottom edge', async ({ app }) => {
  await runOnce(app);
  await appTab(app, 'History').click();
  await app.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await app.getByRole('button', { name: 'Step through' }).click();
  await expect(app.getByRole('button', { name: 'Next event' })).toBeVisible();
  const viewer = await box(app.getByRole('tabpanel', { name: 'History' }).locator('.viewer'));
  expect(viewer.y + viewer.height, 'the viewer ends this far down').toBeGreaterThanOrEqual(720 - 2);
});

test('the token Breakdown opens below the count, covering none of the form above it', async ({ app }) => {
  await openTab(app, 'Chat Completions');
  await pickModel(app, 'gpt-sim-4o');
  await app.getByRole('button', { name: 'Breakdown' }).click();
  const breakdown = await box(app.getByRole('list', { name: 'Token breakdown' }));
  const form = await box(app.locator('.composer-scroll'));
  expect(breakdown.y, 'the breakdown starts inside the form').toBeGreaterThanOrEqual(form.y + form.height - 1);
});

test('Agents: the verdict sits beside the matrix with no empty gap and does not scroll sideways', async ({ app }) => {
  await appTab(app, 'Agents').click();
  await app.getByRole('combobox', { name: 'Agent' }).selectOption('codex');
  await app.getByRole('combobox', { name: 'Model', exact: true }).selectOption('gpt-sim-o3');
  await app.getByRole('button', { name: 'Check', exact: true }).click();
  const verdict = app.getByRole('region', { name: 'Agent verdict' });
  await expect(verdict).toContainText(/^ready/, { timeout: 45_000 });
  const pane = app.getByRole('tabpanel', { name: 'Agents' }).getByRole('complementary');
  const matrix = await box(app.getByRole('table', { name: 'Agent matrix' }));
  const detail = await box(pane);
  expect(detail.x - (matrix.x + matrix.width), 'the gap between matrix and verdict').toBeLessThanOrEqual(40);
  const sideways = await pane.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(sideways, 'the verdict pane scrolls sideways by').toBeLessThanOrEqual(0);
});

test('the "Bring the … request here?" offer is one slim line, and not offered again once taken', async ({ app }) => {
  const offer = app.getByRole('note').filter({ hasText: 'Bring the Messages request here' });
  // The model is the user's before anything is brought: a default picked later would make it another request.
  await pickModel(app, 'claude-sim-sonnet');
  await openTab(app, 'Chat Completions');
  await expect(offer).toBeVisible();
  expect((await box(offer)).height, 'the offer is this tall').toBeLessThanOrEqual(36);
  await offer.getByRole('button', { name: 'Bring this request along' }).click();
  await app.getByRole('button', { name: /^Use this request/ }).click();
  await expect(app.getByRole('note')).toHaveCount(0);
  // The same Messages request: neither this tab nor another offers it again.
  await openTab(app, 'Messages');
  await openTab(app, 'Chat Completions');
  await expect(offer).toHaveCount(0);
  await openTab(app, 'Messages');
  await openTab(app, 'Responses');
  await expect(offer).toHaveCount(0);
  // An edited request is a new one: offered again.
  await openTab(app, 'Messages');
  await app.getByLabel('max_tokens', { exact: true }).fill('512');
  await openTab(app, 'Chat Completions');
  await expect(offer).toBeVisible();
});

test("Capabilities: each row's ▶ stands clear of its model name, in both themes", async ({ app }) => {
  await appTab(app, 'Capabilities').click();
  for (const theme of ['light', 'dark']) {
    await app.getByRole('combobox', { name: 'Theme' }).selectOption(theme);
    const probe = app.getByRole('button', { name: 'Probe row claude-sim-sonnet' });
    const name = app.locator('.matrix .row-head', { has: probe }).locator('.mono');
    const [b, n] = [await box(probe), await box(name)];
    expect(b.x - (n.x + n.width), `the ▶ starts this far after the name (${theme})`).toBeGreaterThanOrEqual(4);
  }
});
