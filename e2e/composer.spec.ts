import { expect, test } from './fixtures';
import { openTab, output, pickModel, status } from './helpers';
import type { Page } from '@playwright/test';

/** The request body as the Ledger shows it was sent, for the run on screen. */
async function sentBody(page: Page): Promise<Record<string, unknown>> {
  await page.getByRole('tab', { name: 'Ledger' }).click();
  const text = await page.getByRole('region', { name: 'Ledger' }).locator('pre.body').innerText();
  return JSON.parse(text) as Record<string, unknown>;
}

test('temperature and top_p take a decimal typed key by key, and the request carries it', async ({ app }) => {
  await pickModel(app, 'claude-sim-sonnet');
  const temperature = app.getByLabel('temperature', { exact: true });
  await temperature.pressSequentially('0.7');
  await expect(temperature).toHaveValue('0.7');
  const topP = app.getByLabel('top_p', { exact: true });
  await topP.pressSequentially('.95');
  await expect(topP).toHaveValue('.95');
  const maxTokens = app.getByLabel('max_tokens', { exact: true });
  await maxTokens.fill('');
  await maxTokens.pressSequentially('512');
  // Text that is no number keeps the last value and says so.
  await temperature.press('End');
  await temperature.press('x');
  await expect(temperature).toHaveValue('0.7x');
  await expect(temperature).toHaveAttribute('aria-invalid', 'true');
  await expect(app.getByText('Not a number: the request keeps the last valid value.')).toBeVisible();
  await temperature.press('Backspace');
  await expect(temperature).not.toHaveAttribute('aria-invalid', 'true');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  expect(await sentBody(app)).toMatchObject({ temperature: 0.7, top_p: 0.95, max_tokens: 512 });
});

test('Enter in the stop sequences starts a second one, and both are sent', async ({ app }) => {
  await openTab(app, 'Chat Completions');
  await pickModel(app, 'gpt-sim-4o');
  const stops = app.getByLabel('Stop sequences');
  await stops.pressSequentially('END');
  await stops.press('Enter');
  await stops.pressSequentially('STOP');
  await expect(stops).toHaveValue('END\nSTOP');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  expect((await sentBody(app)).stop).toEqual(['END', 'STOP']);
});

test('Ctrl+Enter in a tool result box sends the tool results', async ({ app }) => {
  await openTab(app, 'Chat Completions');
  await pickModel(app, 'gpt-sim-4o');
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
  await app.getByLabel('Tools', { exact: true }).fill(JSON.stringify(tools));
  await app.getByLabel('Tool choice').selectOption('required');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(output(app)).toContainText('get_weather');
  await app.getByLabel('Tool choice').selectOption('auto');
  const result = app.getByLabel('Result for get_weather');
  await result.fill('18°C and sunny, nonce K7Q2');
  await result.press('ControlOrMeta+Enter');
  await expect(output(app)).toContainText('The tool returned: 18°C and sunny, nonce K7Q2', { timeout: 15_000 });
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const messages = (await sentBody(app)).messages as { role: string; content?: unknown }[];
  expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  expect(messages[2].content).toBe('18°C and sunny, nonce K7Q2');
  await expect(app.getByRole('region', { name: 'Conversation' }).locator('.turn')).toHaveCount(3);
});

test('a finished reply shows HTML-looking text as written, neither rendered nor dropped', async ({ app }) => {
  await pickModel(app, 'claude-sim-sonnet');
  await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Wrap it in a <div> of Array<string>');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(output(app).locator('.markdown')).toContainText('"Wrap it in a <div> of Array<string>"');
  await expect(output(app).locator('.markdown strong')).toHaveCount(1);
});

test('while the JSON does not parse the form is read-only, so what is typed in the JSON is kept', async ({ app }) => {
  const editor = app.getByLabel('Request JSON').locator('.cm-content');
  await editor.click();
  await app.keyboard.press('ControlOrMeta+End');
  await app.keyboard.type(',');
  await expect(app.getByText(/the form is read-only until this parses/)).toBeVisible();
  const temperature = app.getByLabel('temperature', { exact: true });
  await expect(temperature).toBeDisabled();
  await expect(app.getByRole('combobox', { name: 'Model' })).toBeDisabled();
  await expect(app.getByLabel('Request JSON')).toContainText('},');
  await app.keyboard.press('Backspace');
  await expect(temperature).toBeEnabled();
});

test('Responses: Continue by id sends only the next turn with previous_response_id, and the gateway answers it', async ({ app }) => {
  await openTab(app, 'Responses');
  await pickModel(app, 'gpt-sim-4o');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const id = await app.getByLabel('Response', { exact: true }).locator('dd').first().innerText();
  expect(id).toMatch(/^resp_/);
  await app.getByRole('button', { name: 'Continue by id' }).click();
  await app.getByLabel('Message', { exact: true }).fill('And then?');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const sent = await sentBody(app);
  expect(sent.previous_response_id).toBe(id);
  expect(sent.input).toEqual([{ role: 'user', content: 'And then?' }]);
});
