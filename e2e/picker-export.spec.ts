import { expect, test } from './fixtures';
import { output, status } from './helpers';

test('a model id typed and left for Send is the one sent; History exports that run exactly as it was sent', async ({
  app,
}) => {
  const box = app.getByRole('combobox', { name: 'Model' });
  await box.click();
  await box.fill('claude-sim-haiku');
  await app.getByRole('textbox', { name: 'Message' }).fill('Which model answers?');
  // No Enter: the mouse goes straight from the boxes to Send, as people do.
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(output(app)).toContainText('Claude Sim Haiku');
  await expect(box).toHaveValue('claude-sim-haiku');

  // The composer moves on; the recorded run does not.
  await box.fill('claude-sim-sonnet');
  await box.press('Enter');
  await app.getByRole('textbox', { name: 'Message' }).fill('a draft that was never sent');
  await app.getByRole('button', { name: 'Code…' }).click();
  const code = app.getByLabel('Exported code');
  // From the composer, the export is what Send would send now: the draft included.
  await expect(code).toContainText('a draft that was never sent');
  await expect(code).toContainText('"model": "claude-sim-sonnet"');
  await app.getByRole('button', { name: 'Close' }).click();

  await app.getByRole('tab', { name: 'History' }).click();
  await app.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await app.getByRole('button', { name: 'Code…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Code' });
  await expect(dialog).toContainText('as it was sent');
  await expect(code).toContainText("-H 'x-api-key: <API_KEY>'");
  await expect(code).toContainText('"model": "claude-sim-haiku"');
  await expect(code).toContainText('Which model answers?');
  await expect(code).not.toContainText('a draft that was never sent');
  await dialog.getByLabel('Language').selectOption('typescript');
  await expect(code).toContainText("import Anthropic from '@anthropic-ai/sdk';");
  await expect(code).toContainText('"claude-sim-haiku"');
});

test('Escape in the Model box keeps the id typed and closes the list; Send goes to that model', async ({ app }) => {
  const box = app.getByRole('combobox', { name: 'Model' });
  await box.click();
  await box.fill('claude-sim-haiku');
  await expect(app.getByRole('listbox', { name: 'Models' })).toBeVisible();
  await box.press('Escape');
  await expect(app.getByRole('listbox', { name: 'Models' })).toHaveCount(0);
  await expect(box).toHaveValue('claude-sim-haiku');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(output(app)).toContainText('Claude Sim Haiku');
});

test('Ctrl/Cmd+K focuses the model picker', async ({ app }) => {
  await app.getByRole('textbox', { name: 'Message' }).click();
  await app.keyboard.press('ControlOrMeta+k');
  await expect(app.getByRole('combobox', { name: 'Model' })).toBeFocused();
});
