import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openTab, pickModel, status } from './helpers';

const KEY = 'sk-e2e-secret-key-0123456789-zyxw';
const HELICONE = 'Bearer sk-helicone-e2e-secret-4321-hlcn';

test('first launch opens on the Demo gateway with its models', async ({ app }) => {
  await expect(app.getByRole('combobox', { name: 'Profile' })).toHaveValue('demo');
  await expect(app.getByRole('combobox', { name: 'Profile' }).locator('option:checked')).toHaveText('Demo gateway');
  await app.getByRole('combobox', { name: 'Model' }).click();
  await expect(app.getByRole('option', { name: /claude-sim-sonnet/ })).toBeVisible();
  await expect(app.getByLabel('Models fetched')).toContainText(/\d+ models · fetched/);
});

test('a second gateway: add a profile with a key and a credential header, see its own models, and what changed after a refresh', async ({ app, startGateway, host, received }) => {
  // What the key may use on this gateway: changed below, as a relay's admin would.
  const served: Record<string, string[]> = { [KEY]: ['gpt-sim-mini', 'sim-chat-only'] };
  const second = await startGateway({ keys: served });
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('Second gateway');
  await dialog.getByLabel('Base URL').fill(`${second.url}/v1`);
  await expect(dialog.getByLabel('Endpoint URLs')).toContainText(`${second.url}/v1/messages/count_tokens`);
  await expect(dialog.getByLabel('Endpoint URLs')).toContainText('trailing /v1');
  await dialog.getByLabel('API key').fill(KEY);
  await dialog.getByRole('button', { name: '+ Add header' }).click();
  await dialog.getByLabel('Header 1 name').fill('helicone-auth');
  await dialog.getByLabel('Header 1 value').fill(HELICONE);
  await dialog.getByRole('button', { name: 'Add profile' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved.');
  await expect(dialog.getByLabel('API key')).toHaveValue('');
  await expect(dialog.getByText('…zyxw').first()).toBeVisible();
  await expect(dialog.getByLabel('Header 1 value')).toHaveValue('');
  await expect(dialog.getByLabel('Header 1 value')).toHaveAttribute('placeholder', 'stored (…hlcn) — type to replace');

  await dialog.getByRole('button', { name: 'Close' }).click();

  await expect(app.getByRole('combobox', { name: 'Profile' }).locator('option:checked')).toHaveText('Second gateway');
  await expect(app.getByLabel('Models fetched')).toContainText('2 models');
  expect([...new Set(second.requests.filter((q) => q.path === '/v1/models').map((q) => q.headers['helicone-auth']))]).toEqual([HELICONE]);
  served[KEY] = ['gpt-sim-mini', 'claude-sim-haiku'];
  await app.getByRole('button', { name: 'Refresh models' }).click();
  await expect(app.getByLabel('Model changes')).toContainText('+1 new: claude-sim-haiku');
  await expect(app.getByLabel('Model changes')).toContainText('−1 gone: sim-chat-only');
  await app.getByRole('combobox', { name: 'Model' }).click();
  await expect(app.getByRole('listbox', { name: 'Models' }).getByRole('option')).toHaveCount(2);

  // The key test, for the key and the credential header: nowhere in the renderer, its storage, what it
  // received, or the profile file.
  const storage = await app.evaluate(async () => {
    const dbs = (await indexedDB.databases?.()) ?? [];
    return JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, dbs });
  });
  expect(received.length).toBeGreaterThan(3);
  const page = await app.content();
  for (const secret of [KEY, HELICONE]) {
    expect(page).not.toContain(secret);
    expect(storage).not.toContain(secret);
    expect(received.join('\n')).not.toContain(secret);
    for (const f of readdirSync(host.dataDir)) {
      if (f.endsWith('.json')) expect(readFileSync(path.join(host.dataDir, f), 'utf8')).not.toContain(secret);
    }
  }
  expect(readFileSync(path.join(host.dataDir, 'profiles.json'), 'utf8')).toContain('Second gateway');
});

test('a profile with a wrong key shows the status code and the gateway message, not "failed"', async ({ app, startGateway }) => {
  const gw = await startGateway({ keys: { 'right-key-123456': ['gpt-sim-mini'] } });
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('Wrong key');
  await dialog.getByLabel('Base URL').fill(gw.url);
  await dialog.getByLabel('API key').fill('wrong-key-999999');
  await dialog.getByRole('button', { name: 'Add profile' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  const err = app.getByLabel('Models error');
  await expect(err).toContainText('HTTP 401');
  await expect(err).toContainText('invalid x-api-key');
  await expect(err).toContainText('request id');
});

test('a base URL that is not http(s) is a field error and nothing is saved', async ({ app }) => {
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('FTP');
  await dialog.getByLabel('Base URL').fill('ftp://files.example.com');
  await dialog.getByRole('button', { name: 'Add profile' }).click();
  await expect(dialog.getByText('must be an http:// or https:// URL').first()).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Profiles' })).not.toContainText('FTP');
});

test('a run brought back from History goes to the gateway it was sent to, and says so', async ({ app, startGateway }) => {
  const second = await startGateway({ keys: { [KEY]: ['gpt-sim-mini'] } });
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('Second gateway');
  await dialog.getByLabel('Base URL').fill(second.url);
  await dialog.getByLabel('API key').fill(KEY);
  await dialog.getByRole('button', { name: 'Add profile' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  const profile = app.getByRole('combobox', { name: 'Profile' });
  await expect(profile.locator('option:checked')).toHaveText('Second gateway');

  await openTab(app, 'Chat Completions');
  await pickModel(app, 'gpt-sim-mini');
  await app.getByLabel('System prompt', { exact: true }).fill('Sent to the second gateway.');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });

  await profile.selectOption('demo');
  await expect(profile.locator('option:checked')).toHaveText('Demo gateway');
  await app.getByRole('tab', { name: 'History' }).click();
  await app.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await app.getByRole('button', { name: 'Open in composer' }).click();

  await expect(app.getByRole('tab', { name: 'Chat Completions', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(app.getByLabel('System prompt', { exact: true })).toHaveValue('Sent to the second gateway.');
  await expect(profile.locator('option:checked')).toHaveText('Second gateway');
  await expect(app.getByRole('note', { name: 'Where this request goes' })).toContainText('Switched to profile “Second gateway”');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(app.getByRole('note', { name: 'Where this request goes' })).toHaveCount(0);
  await app.getByRole('tab', { name: 'Ledger' }).click();
  await expect(app.getByRole('region', { name: 'Ledger' })).toContainText(`${second.url}/v1/chat/completions`);

  // The run's profile is gone: the request still opens, and the note says where Send now goes.
  await app.getByRole('button', { name: 'Connections…' }).click();
  await dialog.getByRole('list', { name: 'Profiles' }).getByRole('button', { name: /Second gateway/ }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog.getByRole('list', { name: 'Profiles' }).getByRole('button', { name: /Second gateway/ })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(profile.locator('option:checked')).toHaveText('Demo gateway');
  await app.getByRole('tab', { name: 'History' }).click();
  await app.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await app.getByRole('button', { name: 'Open in composer' }).click();
  await expect(app.getByRole('note', { name: 'Where this request goes' })).toContainText('“Second gateway”, which no longer exists: Send goes to “Demo gateway”');
  await app.getByRole('button', { name: 'Dismiss note' }).click();
  await expect(app.getByRole('note', { name: 'Where this request goes' })).toHaveCount(0);
});
