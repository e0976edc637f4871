import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, launchHost, test } from './fixtures';
import { openTab, output, pickModel, status } from './helpers';

test('save a preset, restart the host on the same data dir, load it and send', async ({ app: page, relaunch }) => {
  await openTab(page, 'Chat Completions');
  await pickModel(page, 'gpt-sim-mini');
  await page.getByLabel('System prompt', { exact: true }).fill('Answer like a pirate.');
  await page.getByRole('button', { name: 'Save preset' }).click();
  await page.getByLabel('Preset name').fill('Pirate chat');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved “Pirate chat”.')).toBeVisible();
  await relaunch();
  await page.getByRole('tab', { name: 'Presets' }).click();
  await page.getByRole('button', { name: 'Load Pirate chat' }).click();
  await expect(page.getByRole('tab', { name: 'Chat Completions' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('System prompt', { exact: true })).toHaveValue('Answer like a pirate.');
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('gpt-sim-mini');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(status(page)).toContainText('complete', { timeout: 15_000 });

  // Saving the edited request under the same name asks first, and Replace saves over the one preset.
  await page.getByLabel('System prompt', { exact: true }).fill('Answer like a sailor.');
  await page.getByRole('button', { name: 'Save preset' }).click();
  await page.getByLabel('Preset name').fill('pirate chat');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('A preset named "Pirate chat" already exists.');
  await page.getByRole('button', { name: 'Replace it' }).click();
  await expect(page.getByText('Saved “pirate chat”.')).toBeVisible();
  await page.getByRole('tab', { name: 'Presets' }).click();
  await expect(page.getByRole('button', { name: /^Load / })).toHaveCount(1);
  await page.getByRole('button', { name: 'Load pirate chat' }).click();
  await expect(page.getByLabel('System prompt', { exact: true })).toHaveValue('Answer like a sailor.');
});

test('a run appears in history, opens as it was, and replays its events in order', async ({ app: page }) => {
  await pickModel(page, 'sim-fault-cut');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(status(page)).toContainText('truncated', { timeout: 15_000 });
  await page.getByRole('tab', { name: 'History' }).click();
  const runs = page.getByRole('list', { name: 'Runs' });
  await expect(runs.getByRole('button')).toHaveCount(1);
  await runs.getByRole('button').first().click();
  await expect(status(page)).toContainText('truncated');
  await expect(status(page)).toContainText('message_stop');
  await page.getByRole('button', { name: 'Step through' }).click();
  await expect(status(page)).toContainText('streaming');
  await page.getByRole('button', { name: 'Next event' }).click();
  await page.getByRole('button', { name: 'Next event' }).click();
  const events = page.getByRole('region', { name: 'Events' });
  await expect(events.locator('.event-row')).toHaveCount(2);
  await expect(events.locator('.event-row').first()).toContainText('message_start');
  await page.getByRole('button', { name: 'Replay fast' }).click();
  await expect(status(page)).toContainText('truncated', { timeout: 10_000 });
  const seqs = await events.locator('.event-row .seq').allInnerTexts();
  expect(seqs.map(Number)).toEqual([...seqs.keys()].map((i) => i + Number(seqs[0])));
  await expect(output(page)).toContainText('this is Fault');
});

test('export a preset and import it into a fresh data dir; a name clash asks first', async ({ app: page }) => {
  await pickModel(page, 'claude-sim-haiku');
  await page.getByRole('button', { name: 'Save preset' }).click();
  await page.getByLabel('Preset name').fill('Shared one');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved “Shared one”.')).toBeVisible();
  await page.getByRole('tab', { name: 'Presets' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const file = await (await download).path();
  expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
    format: 'gateway-playground-presets',
    version: 2,
    presets: [{ name: 'Shared one', model: 'claude-sim-haiku' }],
  });
  // Another install, so a host of its own: `relaunch` keeps the fixture's data folder, which has the preset.
  const b = await launchHost();
  try {
    await page.goto(b.url);
    await page.getByRole('tab', { name: 'Presets' }).click();
    await page.getByLabel('Import presets file').setInputFiles(file);
    await expect(page.getByRole('list', { name: 'Preset list' })).toContainText('Shared one');
    await page.getByLabel('Import presets file').setInputFiles(file);
    await expect(page.getByRole('alertdialog', { name: 'Import conflicts' })).toContainText('Shared one');
    await page.getByRole('button', { name: 'Keep both' }).click();
    await expect(page.getByRole('list', { name: 'Preset list' })).toContainText('Shared one (2)');
  } finally {
    await b.stop();
    rmSync(b.dataDir, { recursive: true, force: true });
  }
});

test('export as code writes <API_KEY>; a pasted curl opens the right tab and says the key was not stored', async ({
  app: page,
}) => {
  await pickModel(page, 'claude-sim-sonnet');
  await page.getByRole('button', { name: 'Code…' }).click();
  const code = page.getByLabel('Exported code');
  await expect(code).toContainText("-H 'x-api-key: <API_KEY>'");
  await expect(code).toContainText('/v1/messages');
  await page.getByLabel('Language').selectOption('python');
  await expect(code).toContainText('import anthropic');
  await page.getByRole('tab', { name: 'Import from curl' }).click();
  await page
    .getByLabel('curl command')
    .fill(
      `curl https://gw.example.com/v1/responses -H 'Authorization: Bearer sk-pasted-secret-1' -d '{"model":"gpt-sim-4o","input":"from curl"}'`,
    );
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Code' }).getByRole('status')).toContainText(
    'The key in the command was not stored',
  );
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('tab', { name: 'Responses' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('gpt-sim-4o');
  expect(await page.content()).not.toContain('sk-pasted-secret-1');
});

test('a run that cannot be saved to history still ends, and opening History says why', async ({ app: page, host }) => {
  await pickModel(page, 'claude-sim-haiku');
  // A file where the history folder should be: writes fail even for root.
  rmSync(path.join(host.dataDir, 'history'), { recursive: true, force: true });
  writeFileSync(path.join(host.dataDir, 'history'), 'not a folder');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(status(page)).toContainText('complete', { timeout: 15_000 });
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByRole('alert', { name: 'Data folder problems' })).toContainText(
    'The last run was not saved to history',
  );
});

test('a run that skipped an event reads "complete, with warnings" in amber; History finds it', async ({
  app: page,
}) => {
  await pickModel(page, 'sim-fault-malformed');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(status(page)).toContainText('complete, with warnings', { timeout: 15_000 });
  await expect(status(page)).toHaveClass(/\bwarn\b/);
  await pickModel(page, 'claude-sim-sonnet');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(status(page)).toHaveText(/^complete —/, { timeout: 15_000 });
  await expect(status(page)).toHaveClass(/\bok\b/);

  await page.getByRole('tab', { name: 'History' }).click();
  const runs = page.getByRole('list', { name: 'Runs' });
  await expect(runs.getByRole('listitem')).toHaveCount(2);
  const verdict = page.getByRole('combobox', { name: 'Filter by verdict' });
  await verdict.selectOption('complete, with warnings');
  await expect(runs.getByRole('listitem')).toHaveCount(1);
  await expect(runs).toContainText('sim-fault-malformed');
  await verdict.selectOption('complete');
  await expect(runs.getByRole('listitem')).toHaveCount(1);
  await expect(runs).toContainText('claude-sim-sonnet');
});

test('History: stepping keeps the clock still between steps; Stop ends a 1× replay', async ({ app: page }) => {
  await pickModel(page, 'sim-fault-slow');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(status(page)).toContainText('complete', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();

  await page.getByRole('button', { name: 'Step through' }).click();
  await page.getByRole('button', { name: 'Next event' }).click();
  await expect(status(page)).toContainText('1 event · stepping, clock paused');
  const total = page.getByLabel('Metrics').locator('div', { hasText: 'total' }).locator('dd');
  const before = await total.innerText();
  // The user reads for a while: nothing moves, and no stall is reported.
  await page.waitForTimeout(3_000);
  await expect(total).toHaveText(before);
  await expect(status(page)).not.toContainText('no data');

  await page.getByRole('button', { name: 'Replay 1×' }).click();
  await expect(status(page)).toContainText('streaming');
  await page.getByRole('button', { name: 'Stop' }).click();
  const stopped = /cancelled — Replay stopped after \d+ of \d+ events; the recorded run ended complete/;
  await expect(status(page)).toContainText(stopped);
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  // Esc stops a replay too.
  await page.getByRole('button', { name: 'Replay 1×' }).click();
  await expect(status(page)).toContainText('streaming');
  await page.keyboard.press('Escape');
  await expect(status(page)).toContainText(stopped);
});

test('Presets: Load says "Loaded …" with Undo; a deleted preset imported back offers no Undo', async ({
  app: page,
}) => {
  await pickModel(page, 'claude-sim-haiku');
  await page.getByRole('button', { name: 'Save preset' }).click();
  await page.getByLabel('Preset name').fill('weather tool');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved “weather tool”.')).toBeVisible();
  // Unsaved work and an output on view.
  await page.getByLabel('System prompt', { exact: true }).fill('My unsaved system prompt.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(status(page)).toContainText('complete', { timeout: 15_000 });

  await page.getByRole('tab', { name: 'Presets' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const file = await (await download).path();
  await page.getByRole('button', { name: 'Load weather tool' }).click();
  const note = page.getByRole('status', { name: 'Last change' });
  await expect(note).toContainText('Loaded preset “weather tool”');
  await expect(page.getByLabel('System prompt', { exact: true })).toHaveValue('');
  await expect(status(page)).toHaveText('idle');
  await note.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByLabel('System prompt', { exact: true })).toHaveValue('My unsaved system prompt.');
  await expect(status(page)).toContainText('complete');

  await page.getByRole('tab', { name: 'Presets' }).click();
  await page.getByRole('button', { name: 'Delete weather tool' }).click();
  await expect(page.getByRole('button', { name: 'Undo' })).toBeVisible();
  await page.getByLabel('Import presets file').setInputFiles(file);
  await expect(page.getByRole('button', { name: 'Load weather tool' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Preset list' })).not.toContainText('weather tool (2)');
});
