import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { appTab, pickModel, status } from './helpers';

/** WCAG 2.0–2.2, levels A and AA: what docs/architecture.md §10 promises. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const TABS = [
  'Messages',
  'Chat Completions',
  'Responses',
  'Compare',
  'History',
  'Presets',
  'Capabilities',
  'Load',
  'Agents',
] as const;

/** The serious and critical violations on the page as it is now, one readable line per element. */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(TAGS)
    // WCAG 2.5.3 (a name that contains the visible label): axe ships it as experimental, off unless asked.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${where} · ${v.impact} ${v.id} (${v.help}) at ${n.target.join(' ')}\n    ${n.failureSummary?.replace(/\n/g, '\n    ')}`,
      ),
    );
}

for (const theme of ['light', 'dark'] as const) {
  test(`${theme}: no serious or critical axe violation on any tab, after a run, nor in Connections`, async ({
    app: page,
  }) => {
    test.setTimeout(240_000);
    await page.getByRole('combobox', { name: 'Theme' }).selectOption(theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    // A run first, so the stream viewer, its verdict and the metrics are on screen where they can be.
    await pickModel(page, 'claude-sim-sonnet');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(status(page)).toContainText('complete', { timeout: 20_000 });

    const found: string[] = [];
    for (const name of TABS) {
      await appTab(page, name).click();
      await expect(appTab(page, name)).toHaveAttribute('aria-selected', 'true');
      // The tab's own panel, not the stand-in shown while its code loads.
      await expect(page.getByRole('tabpanel', { name, exact: true })).not.toHaveAttribute('aria-busy', 'true');
      if (name === 'Compare') {
        await page.getByRole('button', { name: 'Run all' }).click();
        await expect(page.getByRole('status', { name: 'Stream status' }).first()).toContainText('complete', {
          timeout: 20_000,
        });
      }
      if (name === 'History') await page.locator('.history-list button').first().click();
      if (name === 'Capabilities') {
        // Proven and not-supported cells, and the evidence panel beside them.
        await page.getByLabel('Filter models').fill('sim-no-tools');
        await page.getByRole('button', { name: 'Probe row sim-no-tools' }).click();
        const cell = page.getByRole('button', { name: 'sim-no-tools Messages tools: not-supported' });
        await expect(cell).toBeVisible({ timeout: 45_000 });
        await cell.click();
      }
      if (name === 'Agents') {
        await page.getByRole('combobox', { name: 'Agent' }).selectOption('codex');
        await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption('gpt-sim-o3');
        await page.getByRole('button', { name: 'Check', exact: true }).click();
        await expect(page.getByRole('region', { name: 'Agent verdict' })).toContainText(/^ready/, { timeout: 45_000 });
      }
      found.push(...(await seriousViolations(page, name)));
    }
    await page.getByRole('button', { name: 'Connections…' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    found.push(...(await seriousViolations(page, 'Connections dialog')));

    expect(found, `axe found serious or critical violations:\n${found.join('\n')}`).toEqual([]);
  });
}
