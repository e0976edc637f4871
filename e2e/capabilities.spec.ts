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
  await expect(app.getByRole('button', { name: 'sim-no-tools Messages streaming: proven' })).toBeVisible({ timeout: 45_000 });
  await toolsCell.click();
  const detail = app.getByRole('complementary', { name: 'Cell evidence' });
  await expect(detail).toContainText('not-supported');
  await detail.getByRole('button', { name: /Open evidence run/ }).first().click();
  await expect(detail.getByRole('status', { name: 'Stream status' })).toContainText('complete');
  await expect(detail.getByRole('region', { name: 'Output' })).not.toContainText('tool call');
  await expect(app.getByRole('progressbar', { name: 'Probe progress' })).toBeHidden({ timeout: 60_000 });
});
