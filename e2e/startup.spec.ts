import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, launchHost, test } from './fixtures';
import { appTab, output, pickModel, status } from './helpers';

test('a corrupt profile file is moved aside, reported in the UI, and the app still starts on the Demo gateway', async ({
  page,
}) => {
  // Its own host, not the fixture's: the folder must be damaged before any host has started on it.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-corrupt-'));
  writeFileSync(path.join(dataDir, 'profiles.json'), '{"version":1,"profiles":[{"id":"x", TRUNCATED');
  const host = await launchHost({ dataDir });
  try {
    await page.goto(host.url);
    await expect(page.getByRole('alert', { name: 'Data folder problems' })).toContainText(
      'profiles.json is not valid JSON',
    );
    await expect(page.getByRole('alert', { name: 'Data folder problems' })).toContainText('moved aside');
    await expect(page.getByRole('combobox', { name: 'Profile', exact: true })).toHaveValue('demo');
    expect(readdirSync(dataDir).some((f) => f.startsWith('profiles.json.corrupt-'))).toBe(true);
  } finally {
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the browser host refuses a page without its token', async ({ page, host }) => {
  const res = await page.goto(host.url.replace(/\?token=.*/, ''));
  expect(res?.status()).toBe(401);
  await expect(page.locator('body')).toContainText('Unauthorized');
});

test('Theme: light, dark or the system; the JSON editor follows; kept across a restart', async ({
  app: page,
  host,
  relaunch,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const theme = page.getByRole('combobox', { name: 'Theme' });
  await expect(theme).toHaveValue('system');
  const html = page.locator('html');
  const editor = page.locator('.json-editor', { has: page.getByRole('textbox', { name: 'Request JSON' }) });
  // Following the system: light now, dark as soon as the system says so.
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(editor).toHaveClass(/cm-theme-light/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(editor).toHaveClass(/cm-theme-dark/);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await background();

  await theme.selectOption('light');
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(editor).toHaveClass(/cm-theme-light/);
  expect(await background()).not.toBe(dark);
  const editorBackground = await editor.locator('.cm-editor').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(editorBackground).toBe(await background());
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
  const saved = JSON.parse(readFileSync(path.join(host.dataDir, 'settings.json'), 'utf8')) as {
    settings: { theme: string };
  };
  expect(saved.settings.theme).toBe('light');

  await relaunch();
  await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('light');
  await expect(html).toHaveAttribute('data-theme', 'light');
});

test('the tab open when the app was quit is the one it opens on', async ({ app: page, host, relaunch }) => {
  await appTab(page, 'History').click();
  await expect(appTab(page, 'History')).toHaveAttribute('aria-selected', 'true');
  // The app keeps the tab as soon as the core has written it: quit only after that, as a user a moment later.
  const kept = () => {
    try {
      const file = JSON.parse(readFileSync(path.join(host.dataDir, 'settings.json'), 'utf8')) as {
        settings?: { lastTab?: string };
      };
      return file.settings?.lastTab;
    } catch {
      return undefined;
    }
  };
  await expect.poll(kept).toBe('history');
  const again = await relaunch();
  await expect(appTab(again, 'History')).toHaveAttribute('aria-selected', 'true');
  await expect(again.getByRole('tabpanel', { name: 'History' })).toBeVisible();
});

test('keyboard: Ctrl+1…9 pick tabs, arrows move, ? lists shortcuts, Esc stops the run', async ({ app: page }) => {
  const tab = (name: string) => appTab(page, name);
  await page.keyboard.press('ControlOrMeta+5');
  await expect(tab('History')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ControlOrMeta+2');
  await expect(tab('Chat Completions')).toHaveAttribute('aria-selected', 'true');
  // Roving tabindex: only the selected tab is in the Tab order; arrows move the focus and the selection. (The
  // protocol tab's own list "Requests" has its own selected tab in the Tab order.)
  const protocols = page.getByRole('tablist', { name: 'Protocols' });
  await expect(protocols.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
  await tab('Chat Completions').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab('Responses')).toHaveAttribute('aria-selected', 'true');
  await expect(tab('Responses')).toBeFocused();
  await page.keyboard.press('End');
  await expect(tab('Agents')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(tab('Messages')).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toContainText('Ctrl/Cmd+Shift+Enter');
  await expect(dialog).toContainText('Stop the run in view');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // "?" typed in a text field is text.
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill('why');
  await message.press('?');
  await expect(message).toHaveValue('why?');
  await expect(dialog).toBeHidden();

  const box = page.getByRole('combobox', { name: 'Model' });
  await box.click();
  await box.fill('sim-fault-slow');
  await expect(page.getByRole('option', { name: /^sim-fault-slow/ }).first()).toBeVisible();
  await box.press('Enter');
  await page.getByRole('button', { name: 'Send' }).click();
  const status = page.getByRole('status', { name: 'Stream status' });
  await expect(page.getByRole('region', { name: 'Output' })).toContainText('this is', { timeout: 10_000 });
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Escape');
  await expect(status).toContainText('cancelled');

  await page.keyboard.press('ControlOrMeta+k');
  await expect(box).toBeFocused();

  // Ctrl/Cmd+Shift+Enter runs every Compare column, as its Run all button does.
  await page.keyboard.press('ControlOrMeta+4');
  await expect(tab('Compare')).toHaveAttribute('aria-selected', 'true');
  // The key is bound by the tab itself, whose code arrives when it is first opened.
  await expect(page.getByRole('button', { name: 'Run all' })).toBeVisible();
  await page.keyboard.press('ControlOrMeta+Shift+Enter');
  const column = page.getByRole('region', { name: 'Column 1' }).getByRole('status', { name: 'Stream status' });
  await expect(column).toContainText('complete', { timeout: 20_000 });
});

test('Esc stops a run sent with Ctrl/Cmd+Enter while the focus is still in the message', async ({ app: page }) => {
  await pickModel(page, 'sim-fault-slow');
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.click();
  await message.press('ControlOrMeta+Enter');
  await expect(output(page)).toContainText('this is', { timeout: 10_000 });
  await expect(message).toBeFocused();
  await message.press('Escape');
  await expect(status(page)).toContainText('cancelled');
});

test('a dismissed "Bring the … request here" offer stays so for that pair, after a restart', async ({
  app: page,
  relaunch,
}) => {
  const offer = page.getByRole('note').filter({ hasText: 'Bring the Messages request here' });
  await appTab(page, 'Chat Completions').click();
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'Dismiss' }).click();
  await appTab(page, 'Messages').click();
  // Another pair is still offered.
  await expect(page.getByRole('note').filter({ hasText: 'Bring the Chat Completions request here' })).toBeVisible();
  await appTab(page, 'Chat Completions').click();
  const chat = appTab(page, 'Chat Completions');
  await expect(chat).toHaveAttribute('aria-selected', 'true');
  await expect(offer).toHaveCount(0);

  await relaunch();
  await appTab(page, 'Chat Completions').click();
  await appTab(page, 'Responses').click();
  await expect(page.getByRole('note').filter({ hasText: 'Bring the Chat Completions request here' })).toBeVisible();
  await appTab(page, 'Messages').click();
  await appTab(page, 'Chat Completions').click();
  await expect(offer).toHaveCount(0);
});
