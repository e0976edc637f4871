/**
 * The desktop host's lifecycle: one instance per data folder, the core started once the app is ready, the
 * window, menu, protocol and IPC wired to it, and a quit that waits for runs and the window state to be saved.
 * main.ts only calls launch(); tests drive the same code against a fake `electron` module.
 */
import path from 'node:path';
import { app, BrowserWindow, dialog } from 'electron';
import { createCore, startupFailureMessage, type Core } from '../core/service';
import { registerAppScheme, serveRenderer } from './app-protocol';
import { registerIpc } from './ipc';
import { createDialogConfirmer } from './confirm-dialog';
import { installMenu } from './menu';
import { createSafeStorageVault } from './safe-storage-vault';
import { hardenSessions } from './security';
import { createMainWindow, preloadPath, type MainWindow } from './window';
import { loadWindowState } from './window-state';

export interface DesktopHost {
  /** Resolves once start-up has finished (or failed and asked the app to exit). */
  ready: Promise<void>;
  core(): Core | undefined;
  window(): MainWindow | undefined;
}

/** `bundleDir` is where main.cjs and preload.cjs are; the built renderer is beside it in ../renderer. */
export function launch(bundleDir: string): DesktopHost {
  registerAppScheme();
  // Tests and portable installs may point the data dir elsewhere; the key vault follows it.
  const dataDirOverride = process.env.GATEWAY_PLAYGROUND_DATA;
  if (dataDirOverride) app.setPath('userData', path.resolve(dataDirOverride));
  let core: Core | undefined;
  let main: MainWindow | undefined;

  const openWindow = async (dataDir: string) => {
    main = createMainWindow({ preload: preloadPath(bundleDir), dataDir, saved: await loadWindowState(dataDir) });
  };

  /** Brings the running app forward when it is launched again. */
  const showExistingWindow = () => {
    const win = BrowserWindow.getAllWindows()[0];
    // With no window left (macOS keeps the app running), a launch means "open it", once the core is up.
    if (!win) {
      if (core) void openWindow(app.getPath('userData'));
      return;
    }
    if (win.isMinimized()) win.restore();
    win.focus();
  };

  const start = async (): Promise<void> => {
    hardenSessions();
    serveRenderer(path.join(bundleDir, '../renderer'));
    installMenu({ isPackaged: app.isPackaged, platform: process.platform, appName: app.getName() });
    const dataDir = app.getPath('userData');
    core = await startCore(dataDir, () => main?.win);
    if (!core) return;
    registerIpc(core);
    await openWindow(dataDir);
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) void openWindow(dataDir);
    });
  };

  let ready: Promise<void> = Promise.resolve();
  // Two processes on one data folder would race each other's writes to presets, history and keys. Electron
  // keys the lock on the userData path, so this comes after GATEWAY_PLAYGROUND_DATA is applied: instances on
  // different folders (tests, portable installs) still run side by side. app.quit() is asynchronous, so a
  // second instance must not reach start() in the meantime.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
  } else {
    app.on('second-instance', showExistingWindow);
    ready = app.whenReady().then(start);
  }

  quitAfterSaving(
    () => core,
    () => main,
  );

  return { ready, core: () => core, window: () => main };
}

/** The core, or undefined when it cannot start: then the user is told why in a dialog and the app exits. */
async function startCore(dataDir: string, window: () => BrowserWindow | undefined): Promise<Core | undefined> {
  const env = { baseUrl: process.env.GATEWAY_BASE_URL, apiKey: process.env.GATEWAY_API_KEY };
  // Read once, then gone from this process's environment: the OS browser that shell.openExternal starts (and
  // any other child) inherits it, and must not get the key (docs/security.md §8).
  delete process.env.GATEWAY_API_KEY;
  delete process.env.GATEWAY_BASE_URL;
  try {
    return await createCore({
      dataDir,
      host: 'electron',
      version: app.getVersion(),
      vault: createSafeStorageVault(dataDir),
      env,
      confirmer: createDialogConfirmer(window),
    });
  } catch (err) {
    // No window exists yet, so a rejected start-up would leave the app running with nothing on screen.
    const how = 'start the app with GATEWAY_PLAYGROUND_DATA set to a folder you can write to';
    const message = startupFailureMessage(err, how);
    console.error(message);
    dialog.showErrorBox('Gateway Playground cannot start', message);
    app.exit(1);
    return undefined;
  }
}

/** Quitting waits for the core (runs stopped by the quit reach history) and for the window's state file. */
function quitAfterSaving(core: () => Core | undefined, main: () => MainWindow | undefined): void {
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  let closing = false;
  app.on('will-quit', (event) => {
    const running = core();
    if (closing || !running) return;
    event.preventDefault();
    closing = true;
    const state = main()?.flushState() ?? Promise.resolve();
    void Promise.allSettled([running.close(), state]).finally(() => app.quit());
  });
}
