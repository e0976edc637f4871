/**
 * The real desktop app, driven by Playwright's Electron support. Runs where the Electron binary exists (a
 * developer's machine after `npm install`); where it cannot be downloaded it skips and says why.
 */
import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function electronBinary(): { path?: string; why?: string } {
  const pkg = path.resolve('node_modules/electron');
  const pathFile = path.join(pkg, 'path.txt');
  if (!existsSync(pathFile))
    return { why: 'the Electron binary was never downloaded here (ELECTRON_SKIP_BINARY_DOWNLOAD, or no network)' };
  const bin = path.join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? { path: bin } : { why: `node_modules/electron/path.txt names ${bin}, which does not exist` };
}

function requireBinary(): string {
  const bin = electronBinary();
  if (!bin.path) console.log(`Skipping the Electron spec: ${bin.why}.`);
  test.skip(!bin.path, `Electron binary unavailable: ${bin.why}`);
  return bin.path!;
}

test('the desktop window opens on the Demo gateway with its models, and the renderer has no Node', async () => {
  const executablePath = requireBinary();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-electron-'));
  const app = await electron.launch({
    executablePath,
    args: [path.resolve('dist/electron/main.cjs')],
    env: { ...process.env, GATEWAY_PLAYGROUND_DATA: dataDir, GATEWAY_BASE_URL: '' },
  });
  try {
    const win = await app.firstWindow();
    await expect(win.getByRole('combobox', { name: 'Profile', exact: true })).toBeVisible();
    await expect(win.getByRole('combobox', { name: 'Profile', exact: true })).toContainText('Demo gateway');
    await win.getByRole('combobox', { name: 'Model' }).click();
    await expect(win.getByRole('option', { name: /claude-sim-sonnet/ })).toBeVisible();
    expect(await win.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await win.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
    // A link asks in a native dialog before it goes to the OS browser (docs/security.md §10): the user cancels.
    await app.evaluate(({ dialog }) => {
      const asked: string[] = [];
      (globalThis as { asked?: string[] }).asked = asked;
      dialog.showMessageBox = (async (...args: unknown[]) => {
        asked.push((args.at(-1) as { message: string }).message);
        return { response: 1, checkboxChecked: false };
      }) as typeof dialog.showMessageBox;
    });
    expect(await win.evaluate(() => window.open('https://example.com') === null)).toBe(true);
    await win.evaluate(() => {
      location.href = 'https://example.com/';
    });
    await win.waitForTimeout(300);
    expect(win.url()).toMatch(/^app:\/\/gateway\//);
    expect(await app.evaluate(() => (globalThis as { asked?: string[] }).asked)).toContain(
      'Open https://example.com/ in your browser?',
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the window reopens at the size it was left, and the app has its own menu', async () => {
  const executablePath = requireBinary();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-electron-'));
  const launch = () =>
    electron.launch({
      executablePath,
      args: [path.resolve('dist/electron/main.cjs')],
      env: { ...process.env, GATEWAY_PLAYGROUND_DATA: dataDir, GATEWAY_BASE_URL: '' },
    });
  try {
    const first = await launch();
    await first.firstWindow();
    const menu = await first.evaluate(({ Menu }) => Menu.getApplicationMenu()?.items.map((i) => i.label) ?? []);
    expect(menu).toEqual(expect.arrayContaining(['File', 'Edit', 'View', 'Window', 'Help']));
    await first.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows()[0].setBounds({ x: 60, y: 40, width: 1100, height: 720 }),
    );
    await first.close();
    const second = await launch();
    await second.firstWindow();
    const bounds = await second.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0].getBounds());
    expect({ width: bounds.width, height: bounds.height }).toEqual({ width: 1100, height: 720 });
    await second.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
