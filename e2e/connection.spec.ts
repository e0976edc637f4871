import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openTab, pickModel, status, appTab } from './helpers';
import type { Page } from '@playwright/test';

const KEY = 'sk-e2e-secret-key-0123456789-zyxw';
const HELICONE = 'Bearer sk-helicone-e2e-secret-4321-hlcn';

test('first launch opens on the Demo gateway with its models', async ({ app }) => {
  await expect(app.getByRole('combobox', { name: 'Profile', exact: true })).toHaveValue('demo');
  await expect(app.getByRole('combobox', { name: 'Profile', exact: true }).locator('option:checked')).toHaveText(
    'Demo gateway',
  );
  await app.getByRole('combobox', { name: 'Model' }).click();
  await expect(app.getByRole('option', { name: /claude-sim-sonnet/ })).toBeVisible();
  await expect(app.getByLabel('Models fetched')).toContainText(/\d+ models · fetched/);
});

test('a second gateway: add a profile with a key and a credential header, see its own models, and what changed after a refresh', async ({
  app,
  startGateway,
  host,
  received,
}) => {
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
  await dialog.getByRole('button', { name: 'Add and use' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved. “Second gateway” is the profile in use.');
  await expect(dialog.getByLabel('API key')).toHaveValue('');
  await expect(dialog.getByText('…zyxw').first()).toBeVisible();
  await expect(dialog.getByLabel('Header 1 value')).toHaveValue('');
  await expect(dialog.getByLabel('Header 1 value')).toHaveAttribute('placeholder', 'stored (…hlcn) — type to replace');

  await dialog.getByRole('button', { name: 'Close' }).click();

  await expect(app.getByRole('combobox', { name: 'Profile', exact: true }).locator('option:checked')).toHaveText(
    'Second gateway',
  );
  await expect(app.getByLabel('Models fetched')).toContainText('2 models');
  expect([
    ...new Set(second.requests.filter((q) => q.path === '/v1/models').map((q) => q.headers['helicone-auth'])),
  ]).toEqual([HELICONE]);
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

test('a profile with a wrong key shows the status code and the gateway message, not "failed"', async ({
  app,
  startGateway,
}) => {
  const gw = await startGateway({ keys: { 'right-key-123456': ['gpt-sim-mini'] } });
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('Wrong key');
  await dialog.getByLabel('Base URL').fill(gw.url);
  await dialog.getByLabel('API key').fill('wrong-key-999999');
  await dialog.getByRole('button', { name: 'Add and use' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  const err = app.getByLabel('Models error');
  await expect(err).toContainText('HTTP 401');
  await expect(err).toContainText('invalid x-api-key');
  await expect(err).toContainText('request id');
});

test('a base URL that is not http(s) is one field error and nothing is saved', async ({ app }) => {
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('FTP');
  await dialog.getByLabel('Base URL').fill('ftp://files.example.com');
  await dialog.getByRole('button', { name: 'Add profile' }).click();
  // Said once, under the field, not again in the endpoint preview.
  await expect(dialog.getByText('must be an http:// or https:// URL')).toHaveCount(1);
  await expect(dialog.getByRole('list', { name: 'Profiles' })).not.toContainText('FTP');
});

test('a run brought back from History goes to the gateway it was sent to, and says so', async ({
  app,
  startGateway,
}) => {
  const second = await startGateway({ keys: { [KEY]: ['gpt-sim-mini'] } });
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill('Second gateway');
  await dialog.getByLabel('Base URL').fill(second.url);
  await dialog.getByLabel('API key').fill(KEY);
  await dialog.getByRole('button', { name: 'Add and use' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  const profile = app.getByRole('combobox', { name: 'Profile', exact: true });
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

  await expect(appTab(app, 'Chat Completions')).toHaveAttribute('aria-selected', 'true');
  await expect(app.getByLabel('System prompt', { exact: true })).toHaveValue('Sent to the second gateway.');
  await expect(profile.locator('option:checked')).toHaveText('Second gateway');
  await expect(app.getByRole('note', { name: 'Where this request goes' })).toContainText(
    'Switched to profile “Second gateway”',
  );
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  await expect(app.getByRole('note', { name: 'Where this request goes' })).toHaveCount(0);
  await app.getByRole('tab', { name: 'Ledger' }).click();
  await expect(app.getByRole('region', { name: 'Ledger' })).toContainText(`${second.url}/v1/chat/completions`);

  // The run's profile is gone: the request still opens, and the note says where Send now goes.
  await app.getByRole('button', { name: 'Connections…' }).click();
  await dialog
    .getByRole('list', { name: 'Profiles' })
    .getByRole('button', { name: /Second gateway/ })
    .click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await dialog
    .getByRole('alertdialog', { name: 'Delete profile' })
    .getByRole('button', { name: 'Delete “Second gateway”' })
    .click();
  await expect(
    dialog.getByRole('list', { name: 'Profiles' }).getByRole('button', { name: /Second gateway/ }),
  ).toHaveCount(0);
  await expect(dialog.getByRole('status')).toHaveText('Deleted “Second gateway”.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(profile.locator('option:checked')).toHaveText('Demo gateway');
  await app.getByRole('tab', { name: 'History' }).click();
  await app.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await app.getByRole('button', { name: 'Open in composer' }).click();
  await expect(app.getByRole('note', { name: 'Where this request goes' })).toContainText(
    '“Second gateway”, which no longer exists: Send goes to “Demo gateway”',
  );
  await app.getByRole('button', { name: 'Dismiss note' }).click();
  await expect(app.getByRole('note', { name: 'Where this request goes' })).toHaveCount(0);
});

/** Adds a profile in the Connections dialog, leaving the dialog open. */
async function addProfile(
  app: Page,
  name: string,
  baseUrl: string,
  key: string,
  headers: [string, string, boolean?][] = [],
) {
  await app.getByRole('button', { name: 'Connections…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('button', { name: '+ New profile' }).click();
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Base URL').fill(baseUrl);
  await dialog.getByLabel('API key').fill(key);
  for (const [i, [header, value, mark]] of headers.entries()) {
    await dialog.getByRole('button', { name: '+ Add header' }).click();
    await dialog.getByLabel(`Header ${i + 1} name`).fill(header);
    await dialog.getByLabel(`Header ${i + 1} value`).fill(value);
    if (mark) await dialog.getByRole('checkbox', { name: `Header ${i + 1} secret` }).check();
  }
  await dialog.getByRole('button', { name: 'Add and use' }).click();
  await expect(dialog.getByRole('status')).toHaveText(`Saved. “${name}” is the profile in use.`);
  return dialog;
}

const INVENTED = {
  'x-portkey-virtual-key': 'vk-e2e-SECRET-portkey-01',
  'x-functions-key': 'fn-e2e-SECRET-azure-02',
  'x-jwt': 'eyJ.e2e-SECRET-jwt.03',
};

test('credential headers by name or by the secret switch: sent, but redacted in the ledger, history export and profiles.json', async ({
  app,
  startGateway,
  host,
  received,
}) => {
  const gw = await startGateway({ keys: { [KEY]: ['gpt-sim-mini'] } });
  const dialog = await addProfile(app, 'Relay', gw.url, KEY, [
    ...Object.entries(INVENTED),
    ['x-tenant', 'tnt-42', true] as [string, string, boolean],
  ]);
  await expect(dialog.getByRole('checkbox', { name: 'Header 1 secret' })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Header 1 secret' })).toBeDisabled();
  await expect(dialog.getByRole('checkbox', { name: 'Header 4 secret' })).toBeChecked();
  await expect(dialog.getByLabel('Header 4 value')).toHaveAttribute('placeholder', 'stored (…) — type to replace');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await openTab(app, 'Chat Completions');
  await pickModel(app, 'gpt-sim-mini');
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 15_000 });
  const sent = gw.requests.filter((q) => q.path === '/v1/chat/completions').at(-1)!.headers;
  expect(sent['x-portkey-virtual-key']).toBe(INVENTED['x-portkey-virtual-key']);
  expect(sent['x-tenant']).toBe('tnt-42');

  await app.getByRole('tab', { name: 'Ledger' }).click();
  const ledger = app.getByRole('region', { name: 'Ledger' });
  await expect(ledger).toContainText('x-portkey-virtual-key');
  await expect(ledger).toContainText('[redacted]');

  await app.getByRole('tab', { name: 'History' }).click();
  await app.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await app.getByRole('button', { name: 'Code…' }).click();
  const code = app.getByLabel('Exported code');
  await expect(code).toContainText("-H 'x-portkey-virtual-key: <X_PORTKEY_VIRTUAL_KEY>'");
  await expect(code).toContainText("-H 'x-tenant: <X_TENANT>'");
  await app.getByRole('button', { name: 'Close' }).click();

  const page = await app.content();
  const files = readdirSync(host.dataDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => readFileSync(path.join(host.dataDir, f), 'utf8'));
  for (const secret of [...Object.values(INVENTED), 'tnt-42', KEY]) {
    expect(page).not.toContain(secret);
    expect(received.join('\n')).not.toContain(secret);
    for (const text of files) expect(text).not.toContain(secret);
  }
});

test('in the browser host a key never follows a host or port change: the form says so before Save, and the key is typed again', async ({
  app,
  startGateway,
}) => {
  const first = await startGateway({ keys: { [KEY]: ['gpt-sim-mini'] } });
  const second = await startGateway({ keys: { [KEY]: ['gpt-sim-mini'] } });
  const dialog = await addProfile(app, 'Moving', first.url, KEY, [['helicone-auth', HELICONE]]);
  const secondHost = new URL(second.url).host;
  // Same host, another port: another address, which the form names before anything is saved.
  await dialog.getByLabel('Base URL').fill(second.url);
  await expect(dialog.getByRole('group', { name: 'Host change' })).toContainText(
    `The stored key and secret header values will not follow to the new address ${secondHost}`,
  );
  await expect(dialog.getByRole('checkbox', { name: /Keep the key/ })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save profile' }).click();
  await expect(dialog.getByRole('status')).toHaveText(
    `Saved. “Moving” is the profile in use. The stored key and secret header values were not kept for ${secondHost}.`,
  );
  await expect(dialog.getByLabel('API key')).toHaveAttribute('placeholder', 'sk-…');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(app.getByLabel('Models error')).toContainText('HTTP 401');
  const got = JSON.stringify(second.requests);
  expect(got).not.toContain(KEY);
  expect(got).not.toContain(HELICONE);

  // Typed again for the new address, it is the key of that address.
  await app.getByRole('button', { name: 'Connections…' }).click();
  await dialog.getByLabel('API key').fill(KEY);
  await dialog.getByRole('button', { name: 'Save profile' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved.');
  await expect(dialog.getByText('…zyxw').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(app.getByLabel('Models fetched')).toContainText('1 model');
  expect(second.requests.some((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
});

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('Save profile and Test connection stay in view however long the form, and the test says which auth header worked', async ({
    app,
    startGateway,
  }) => {
    const gw = await startGateway({
      keys: { [KEY]: ['gpt-sim-mini', 'claude-sim-haiku'] },
      authHeaders: ['x-api-key'],
    });
    const dialog = await addProfile(app, 'X only', gw.url, KEY);
    for (let i = 1; i <= 6; i++) {
      await dialog.getByRole('button', { name: '+ Add header' }).click();
      await dialog.getByLabel(`Header ${i} name`).fill(`x-extra-${i}`);
      await dialog.getByLabel(`Header ${i} value`).fill(`v${i}`);
    }
    const save = dialog.getByRole('button', { name: 'Save profile' });
    await expect(save).toBeInViewport({ ratio: 1 });
    await save.click();
    await expect(dialog.getByRole('status')).toHaveText('Saved. “X only” is the profile in use.');
    const box = await dialog.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(720);

    const test = dialog.getByRole('button', { name: 'Test connection' });
    await expect(test).toBeInViewport({ ratio: 1 });
    await test.click();
    const result = dialog.getByRole('region', { name: 'Connection test' });
    // Saved with the default scheme, the model list goes out with Bearer, which this gateway refuses.
    await expect(result).toContainText('Not connected: HTTP 401');
    await expect(result).toContainText("Set the profile's auth scheme to x-api-key everywhere.");
    // Not saved yet: the test takes the form as typed (the stored key, on the address it was saved for).
    await dialog.getByLabel('Auth scheme').selectOption('x-api-key');
    await expect(result).toHaveCount(0);
    await test.click();
    await expect(result).toContainText(
      /Connected: HTTP 200 in \d+ ms, 2 models listed\. The key works as x-api-key; Authorization: Bearer got HTTP 401\./,
    );
    await save.click();
    await expect(result).toHaveCount(0);
    await test.click();
    await expect(result).toContainText('Connected: HTTP 200');
    await expect(result).toContainText('claude-sim-haiku');
    await expect(save).toBeInViewport({ ratio: 1 });
  });
});

test('the browser host sets no cookie: the page URL and the WebSocket carry the token', async ({ app, host }) => {
  expect(await app.context().cookies()).toEqual([]);
  expect(host.url).toMatch(/\?token=/);
  await expect(app.getByLabel('Models fetched')).toContainText(/\d+ models/);
  const bare = await app.request.get(new URL('/', host.url).toString());
  expect(bare.status()).toBe(401);
});
