import { XMLParser } from 'fast-xml-parser';
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openTab, pickModel, status } from './helpers';

async function savePreset(page: import('@playwright/test').Page, name: string, message: string) {
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(message);
  await page.getByRole('button', { name: 'Save preset' }).click();
  await page.getByLabel('Preset name').fill(name);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(`Saved “${name}”.`)).toBeVisible();
}

test('a folder with variables runs against the Demo gateway; a failed expectation shows and exports as JUnit', async ({
  app: page,
  relaunch,
}) => {
  await openTab(page, 'Messages');
  await pickModel(page, 'claude-sim-haiku');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Tell me about {{topic}}');
  // A variable without a value holds Send and names it.
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await expect(page.getByText('Send is held: no value for {{topic}}.', { exact: false })).toBeVisible();
  await savePreset(page, 'Topic', 'Tell me about {{topic}}');
  await savePreset(page, 'Never said', 'Say hello about {{topic}}');

  await page.getByRole('tab', { name: 'Presets' }).click();
  await page.getByRole('button', { name: 'New folder', exact: true }).click();
  await page.getByLabel('Folder name').fill('Smoke');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await page.getByRole('combobox', { name: 'Move Topic to' }).selectOption({ label: 'Smoke' });
  await page.getByRole('combobox', { name: 'Move Never said to' }).selectOption({ label: 'Smoke' });
  const folder = page.getByRole('list', { name: 'Folder Smoke' });
  await expect(folder.getByRole('button', { name: /^Load / })).toHaveCount(2);

  await page.getByRole('button', { name: 'Variables of Smoke' }).click();
  const dialog = page.getByRole('dialog', { name: 'Variables' });
  await dialog.getByLabel('Variable 1 name').fill('topic');
  await dialog.getByLabel('Variable 1 value').fill('tides');
  await dialog.getByRole('button', { name: 'Save variables' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Expectations of Never said' }).click();
  await page.getByLabel('Reply contains').fill('a phrase the model never says');
  await page.getByRole('button', { name: 'Save expectations' }).click();
  await expect(page.getByText('expects says “a phrase the model never says”')).toBeVisible();

  await page.getByRole('button', { name: 'Run collection Smoke' }).click();
  const run = page.getByRole('region', { name: 'Collection run' });
  await expect(run.getByRole('status')).toHaveText('Finished: 1 of 2 requests passed, 1 failed', { timeout: 20_000 });
  await expect(run.getByRole('row', { name: /Never said/ })).toContainText('✗ text contains');
  await expect(run.getByRole('row', { name: /Topic/ })).toContainText('passed');
  // The Demo gateway's models have no list price: the run says so rather than guessing a figure.
  await expect(run.getByRole('note')).toContainText('cost no price');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    run.getByRole('button', { name: 'Export JUnit' }).click(),
  ]);
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });
  const xml = parser.parse(readFileSync((await download.path())!, 'utf8')) as {
    testsuites: { testsuite: Record<string, unknown> };
  };
  expect(xml.testsuites.testsuite).toMatchObject({ tests: '2', failures: '1' });

  // The folder's variable reaches a request loaded from it: Send is no longer held, and the run goes out resolved.
  await page.getByRole('button', { name: 'Load Topic' }).click();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(status(page)).toContainText('complete', { timeout: 15_000 });

  // Folders, order and variables come back after a restart.
  await relaunch();
  await page.getByRole('tab', { name: 'Presets' }).click();
  await expect(page.getByRole('list', { name: 'Folder Smoke' }).getByRole('button', { name: /^Load / })).toHaveCount(2);
  await expect(page.getByText('2 requests · 1 variable')).toBeVisible();
});

test('a Postman collection with a Messages request imports into its own folder, listing what was left out', async ({
  app: page,
}) => {
  const postman = {
    info: { name: 'Relay suite', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: [
      {
        name: 'Hello',
        request: {
          method: 'POST',
          header: [{ key: 'x-api-key', value: '{{key}}' }],
          url: '{{baseUrl}}/v1/messages',
          body: {
            mode: 'raw',
            raw: JSON.stringify({
              model: 'claude-sim-haiku',
              max_tokens: 64,
              messages: [{ role: 'user', content: 'hi' }],
            }),
          },
        },
      },
      { name: 'Models', request: { method: 'GET', url: '{{baseUrl}}/v1/models' } },
    ],
  };
  await page.getByRole('tab', { name: 'Presets' }).click();
  await page.getByLabel('Import Postman or Bruno collection').setInputFiles({
    name: 'relay.postman_collection.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(postman)),
  });
  await expect(page.getByText('Imported 1 request from Postman into “Relay suite”.')).toBeVisible();
  await page.getByText('Left out: 2 items').click();
  await expect(page.getByRole('list', { name: 'Left out' })).toContainText('Models');
  await page.getByRole('list', { name: 'Folder Relay suite' }).getByRole('button', { name: 'Load Hello' }).click();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(status(page)).toContainText('complete', { timeout: 15_000 });
});
