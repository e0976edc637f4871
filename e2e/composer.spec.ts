import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { appTab, openTab, output, pickModel, status } from './helpers';
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
  // Text that is no number keeps the last value, says so, and holds Send.
  await temperature.press('End');
  await temperature.press('x');
  await expect(temperature).toHaveValue('0.7x');
  await expect(temperature).toHaveAttribute('aria-invalid', 'true');
  await expect(app.getByText('Not a number. Send waits until it is one, or empty.', { exact: true })).toBeVisible();
  await expect(app.getByLabel('Why Send is off')).toContainText('Fix temperature before sending');
  await expect(app.getByRole('button', { name: 'Send' })).toBeDisabled();
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
  const tools = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
  ];
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
  await expect(app.getByRole('region', { name: 'Turns' }).locator('.turn')).toHaveCount(3);
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
  const editor = app.getByRole('textbox', { name: 'Request JSON' });
  await editor.click();
  await app.keyboard.press('ControlOrMeta+End');
  await app.keyboard.type(',');
  await expect(app.getByText(/the form is read-only until this parses/)).toBeVisible();
  const temperature = app.getByLabel('temperature', { exact: true });
  await expect(temperature).toBeDisabled();
  await expect(app.getByRole('combobox', { name: 'Model' })).toBeDisabled();
  await expect(app.getByRole('textbox', { name: 'Request JSON' })).toContainText('},');
  await app.keyboard.press('Backspace');
  await expect(temperature).toBeEnabled();
});

test('Responses: Continue by id sends only the next turn with previous_response_id, and the gateway answers it', async ({
  app,
}) => {
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

test('Messages: removing every turn takes the old tool call with it, and "hello" is what is sent', async ({ app }) => {
  await pickModel(app, 'claude-sim-sonnet');
  const tools = [
    {
      name: 'get_weather',
      description: 'Weather',
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ];
  await app.getByLabel('Tools', { exact: true }).fill(JSON.stringify(tools));
  await app.getByLabel('Tool choice').selectOption('any');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const panel = app.getByRole('region', { name: 'Tool calls' });
  await expect(panel).toContainText('get_weather');
  await app.getByRole('button', { name: 'Remove turn 1' }).click();
  await expect(app.getByRole('region', { name: 'Turns' })).toContainText('0 turns');
  await expect(panel).toHaveCount(0);
  await app.getByLabel('Tool choice').selectOption('auto');
  await app.getByRole('textbox', { name: 'Message' }).fill('hello');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(app.getByRole('region', { name: 'Turns' })).toContainText('1 turn');
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect.poll(async () => (await sentBody(app)).messages).toEqual([{ role: 'user', content: 'hello' }]);
});

test('Messages: after "Send tool results" the counter compares the usage with the body sent (+0)', async ({ app }) => {
  await pickModel(app, 'claude-sim-sonnet');
  const tools = [
    {
      name: 'get_weather',
      description: 'Weather',
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ];
  await app.getByLabel('Tools', { exact: true }).fill(JSON.stringify(tools));
  await app.getByLabel('Tool choice').selectOption('any');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await app.getByLabel('Tool choice').selectOption('auto');
  await app.getByLabel('Result for get_weather').fill('42');
  await app.getByRole('button', { name: 'Send tool results' }).click();
  await expect(app.getByRole('region', { name: 'Turns' })).toContainText('3 turns');
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(app.getByLabel('Count vs usage')).toHaveText(/sent ([\d,]+), gateway reported \1 \(\+0\)/, {
    timeout: 10_000,
  });
});

test('Attach image refuses a text file named .png, and the conversation is unchanged', async ({ app }) => {
  await app
    .locator('[data-composer="messages"]')
    .getByLabel('Attach image')
    .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
  await expect(app.getByRole('alert').filter({ hasText: 'fake.png' })).toHaveText(
    'fake.png: This file is not a PNG, JPEG, GIF or WebP image, so it was not attached.',
  );
  await expect(app.getByRole('region', { name: 'Turns' })).toContainText('1 turn');
  await expect(app.getByRole('region', { name: 'Turns' }).getByRole('img')).toHaveCount(0);
});

test('Attach image refuses a PNG header over garbage data, saying so; nothing broken is shown', async ({ app }) => {
  const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  await app
    .locator('[data-composer="messages"]')
    .getByLabel('Attach image')
    .setInputFiles({
      name: 'broken.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([header, Buffer.alloc(400, 7)]),
    });
  await expect(app.getByRole('alert').filter({ hasText: 'broken.png' })).toHaveText(
    'broken.png: It starts like a PNG image but its image data cannot be decoded (damaged or cut short), so it was not attached.',
  );
  await expect(app.getByRole('region', { name: 'Turns' })).toContainText('1 turn');
  await expect(app.getByRole('region', { name: 'Turns' }).getByRole('img')).toHaveCount(0);
});

test('each tab keeps its composer across a restart of the host, and Reset to sample brings the sample back', async ({
  app: page,
  host,
  relaunch,
}) => {
  const drafts = () => {
    try {
      return readFileSync(path.join(host.dataDir, 'drafts.json'), 'utf8');
    } catch {
      return '';
    }
  };
  await page.getByLabel('Turn 1 text').fill('My own question');
  await page.getByRole('textbox', { name: 'Message' }).fill('half a thought');
  await openTab(page, 'Chat Completions');
  await page.getByLabel('temperature', { exact: true }).fill('0.4');
  await expect.poll(drafts).toContain('half a thought');
  await expect.poll(drafts).toContain('"temperature": 0.4');
  await relaunch();
  // The app opens on the tab last open (Chat Completions): the Messages tab is a click away.
  await expect(appTab(page, 'Chat Completions')).toHaveAttribute('aria-selected', 'true');
  await openTab(page, 'Messages');
  await expect(page.getByLabel('Turn 1 text')).toHaveValue('My own question');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('half a thought');
  await openTab(page, 'Chat Completions');
  const temperature = page.getByLabel('temperature', { exact: true });
  await expect(temperature).toHaveValue('0.4');
  await page.getByRole('button', { name: 'Reset to sample' }).click();
  await expect(temperature).toHaveValue('');
  await expect(page.getByRole('status', { name: 'Last change' })).toContainText('Reset to sample.');
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(temperature).toHaveValue('0.4');
});

test('loading a preset says so and sets the old output aside; Undo brings back the unsaved work and its output', async ({
  app,
}) => {
  const system = app.getByLabel('System prompt', { exact: true });
  await system.fill('Saved system prompt');
  await app.getByRole('button', { name: 'Save preset' }).click();
  await app.getByLabel('Preset name').fill('Saved one');
  await app.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(app.getByText('Saved “Saved one”.')).toBeVisible();
  await system.fill('My unsaved work');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });

  await app.getByRole('tab', { name: 'Presets' }).click();
  await app.getByRole('button', { name: 'Load Saved one' }).click();
  await expect(app.getByRole('status', { name: 'Last change' })).toHaveText(/Loaded preset “Saved one”\./);
  await expect(system).toHaveValue('Saved system prompt');
  await expect(status(app)).toHaveText('idle');
  await app.getByRole('button', { name: 'Undo' }).click();
  await expect(system).toHaveValue('My unsaved work');
  await expect(status(app)).toContainText('complete');
});
