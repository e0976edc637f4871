import { expect, test } from './fixtures';
import { openTab, pickModel, status } from './helpers';

test('typing in the Messages composer updates "Input tokens" from the gateway, and it matches the usage after sending', async ({
  app,
}) => {
  await pickModel(app, 'claude-sim-sonnet');
  const tokens = app.getByRole('status', { name: 'Input tokens' });
  await expect(tokens).toContainText('gateway count');
  const before = await tokens.innerText();
  await app
    .getByLabel('System prompt', { exact: true })
    .fill('You are a careful assistant who explains network protocols with precise, short sentences.');
  await expect(tokens).not.toHaveText(before);
  await expect(tokens).toHaveText(/^Input tokens: [\d,]+ · gateway count$/);
  const counted = Number(/Input tokens: ([\d,]+)/.exec(await tokens.innerText())![1].replace(/,/g, ''));
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(app.getByLabel('Usage', { exact: true })).toContainText(`input${counted.toLocaleString('en-US')}`);
  await expect(app.getByLabel('Count vs usage')).toContainText(
    `sent ${counted.toLocaleString('en-US')}, gateway reported ${counted.toLocaleString('en-US')} (+0)`,
  );
});

test('invalid JSON: the counter says to fix it and Send is off', async ({ app }) => {
  await pickModel(app, 'claude-sim-sonnet');
  const editor = app.getByRole('textbox', { name: 'Request JSON' });
  await editor.click();
  await app.keyboard.press('ControlOrMeta+End');
  await app.keyboard.type(' oops');
  await expect(app.getByRole('status', { name: 'Input tokens' })).toContainText('fix the JSON');
  await expect(app.getByRole('button', { name: 'Send' })).toBeDisabled();
  await expect(app.getByRole('alert').filter({ hasText: 'Invalid JSON' })).toBeVisible();
});

test('a Chat tab on a second-family model shows an estimate', async ({ app }) => {
  await openTab(app, 'Chat Completions');
  await pickModel(app, 'gpt-sim-4o');
  await expect(app.getByRole('status', { name: 'Input tokens' })).toContainText('estimate');
});

test('bringing a Messages request with a cache_control mark to Chat shows the loss list naming it before anything is sent', async ({
  app,
}) => {
  await pickModel(app, 'claude-sim-sonnet');
  await app.getByLabel('System prompt', { exact: true }).fill('Long shared instructions.');
  await app.getByLabel('cache_control on the system prompt').check();
  await app
    .getByLabel('Tools', { exact: true })
    .fill(
      JSON.stringify([{ name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }]),
    );
  await openTab(app, 'Chat Completions');
  await app.getByRole('button', { name: 'Bring this request along' }).click();
  const losses = app.getByRole('list', { name: 'Loss list' });
  await expect(losses).toContainText('system[0].cache_control');
  await expect(app.getByRole('list', { name: 'Capability check' })).toContainText('tools');
  await expect(status(app)).toContainText('idle');
  await app.getByRole('button', { name: /Use this request/ }).click();
  await expect(app.getByLabel('System prompt', { exact: true })).toHaveValue('Long shared instructions.');
  await expect(app.getByRole('combobox', { name: 'Model' })).toHaveValue('claude-sim-sonnet');
  await expect(app.getByRole('status', { name: 'Input tokens' })).toContainText('gateway count, via translation');
});

test('the protocol-switch guard: probe an unknown capability on the target, then send anyway with the warning kept in the ledger', async ({
  app,
}) => {
  await pickModel(app, 'sim-no-tools');
  await app.getByLabel('Tools', { exact: true }).fill(
    JSON.stringify([
      {
        name: 'get_weather',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ]),
  );
  await openTab(app, 'Responses');
  await app.getByRole('button', { name: 'Bring this request along' }).click();
  const check = app.getByRole('list', { name: 'Capability check' });
  await expect(check).toContainText(/unknown\s*tools/);
  await app.getByRole('button', { name: /^Probe .*tools.* now$/ }).click();
  await expect(check).toContainText(/not-supported\s*tools/, { timeout: 30_000 });
  await app.getByRole('button', { name: 'Use this request anyway' }).click();
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await app.getByRole('tab', { name: 'Ledger' }).click();
  await expect(app.getByRole('region', { name: 'Ledger' })).toContainText(/tools/i);
  await expect(app.getByRole('region', { name: 'Ledger' }).locator('.warnings')).toContainText(
    /not supported|not-supported/i,
  );
});

test('the Demo gateway opens on a model: the count asks with it, and Send works at once', async ({ app }) => {
  await expect(app.getByRole('combobox', { name: 'Model' })).toHaveValue('claude-sim-sonnet');
  const tokens = app.getByRole('status', { name: 'Input tokens' });
  await expect(tokens).toHaveText(/^Input tokens: [\d,]+ · gateway count$/);
  await expect(app.getByText(/count_tokens answered 404/)).toHaveCount(0);
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
});
