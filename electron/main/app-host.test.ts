import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CALL_NAMES } from '../../shared/contract';
import { tempDirs } from '../core/testing/temp-dirs';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  protocol,
  resetFakeElectron,
  screen,
  session,
} from './testing/fake-electron';
import { launch, type DesktopHost } from './app-host';
import { WINDOW_STATE_FILE } from './window-state';

vi.mock('electron', () => import('./testing/fake-electron'));

const dirs = tempDirs('gp-app-host-');
let host: DesktopHost | undefined;

beforeEach(() => {
  resetFakeElectron();
  vi.stubEnv('GATEWAY_BASE_URL', '');
  vi.stubEnv('GATEWAY_API_KEY', '');
});
afterEach(async () => {
  await host?.core()?.close();
  host = undefined;
  vi.unstubAllEnvs();
});

function quit(): Promise<boolean> {
  const quitCalled = new Promise<void>((resolve) => app.once('quit-called', () => resolve()));
  let prevented = false;
  app.emit('will-quit', { preventDefault: () => (prevented = true) });
  return quitCalled.then(() => prevented);
}

describe('the desktop host', () => {
  it('keeps the Environment profile but leaves no GATEWAY_ key in the environment a child would inherit', async () => {
    vi.stubEnv('GATEWAY_PLAYGROUND_DATA', dirs());
    vi.stubEnv('GATEWAY_BASE_URL', 'https://gw.example.test');
    vi.stubEnv('GATEWAY_API_KEY', 'sk-env-key-0123456789');
    host = launch('/opt/gp/dist/electron');
    await host.ready;
    expect(process.env.GATEWAY_API_KEY).toBeUndefined();
    expect(process.env.GATEWAY_BASE_URL).toBeUndefined();
    const r = await host.core()!.dispatch('profiles:list', {}, { send: () => {} });
    const profiles = r.ok ? (r.value as { profiles: { id: string; key: { hasKey: boolean } }[] }).profiles : [];
    expect(profiles.find((p) => p.id === 'env')?.key.hasKey).toBe(true);
  });

  it('starts the core on the data folder and opens one hardened window wired to it', async () => {
    const dataDir = dirs();
    vi.stubEnv('GATEWAY_PLAYGROUND_DATA', dataDir);
    host = launch('/opt/gp/dist/electron');
    await host.ready;
    expect(app.getPath('userData')).toBe(dataDir);
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...CALL_NAMES].sort());
    expect(protocol.handlers.has('app')).toBe(true);
    expect(session.defaultSession.permissionRequest).toBeDefined();
    expect(Menu.applied).toBeDefined();
    expect(BrowserWindow.windows).toHaveLength(1);
    const [win] = BrowserWindow.windows;
    expect(win.loadedUrl).toBe('app://gateway/index.html');
    expect(win.options).toMatchObject({
      width: 1440,
      height: 900,
      webPreferences: {
        preload: path.join('/opt/gp/dist/electron', 'preload.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webviewTag: false,
        webSecurity: true,
        disableBlinkFeatures: 'Auxclick',
      },
    });
    const info = await host.core()!.dispatch('app:info', {}, { send: () => {} });
    expect(info).toMatchObject({ ok: true, value: { host: 'electron', dataDir } });
  });

  it('reopens the window where it was, and saves where it is on quit before quitting', async () => {
    const dataDir = dirs();
    vi.stubEnv('GATEWAY_PLAYGROUND_DATA', dataDir);
    screen.displays = [
      { workArea: { x: 0, y: 0, width: 1920, height: 1080 } },
      { workArea: { x: 1920, y: 0, width: 2560, height: 1440 } },
    ];
    const saved = { version: 1, bounds: { x: 2100, y: 80, width: 1500, height: 950 }, maximized: true };
    writeFileSync(path.join(dataDir, WINDOW_STATE_FILE), JSON.stringify(saved));
    host = launch(dirs());
    await host.ready;
    const [win] = BrowserWindow.windows;
    expect(win.options).toMatchObject(saved.bounds);
    expect(win.maximized).toBe(true);

    win.bounds = { x: 300, y: 200, width: 1200, height: 800 };
    win.maximized = false;
    win.emit('move');
    expect(await quit()).toBe(true);
    const written = JSON.parse(readFileSync(path.join(dataDir, WINDOW_STATE_FILE), 'utf8'));
    expect(written).toEqual({ version: 1, bounds: { x: 300, y: 200, width: 1200, height: 800 }, maximized: false });
    host = undefined;
  });

  it('with a data folder it cannot use, says why in a dialog and exits without a window', async () => {
    const blocker = path.join(dirs(), 'a-file');
    writeFileSync(blocker, '');
    vi.stubEnv('GATEWAY_PLAYGROUND_DATA', blocker);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    host = launch(dirs());
    await host.ready;
    expect(app.exitCode).toBe(1);
    expect(BrowserWindow.windows).toHaveLength(0);
    expect(dialog.errors).toEqual([['Gateway Playground cannot start', expect.stringContaining(blocker)]]);
    expect(dialog.errors[0][1]).toContain('GATEWAY_PLAYGROUND_DATA');
  });
});
