/**
 * Electron host: lifecycle, the hardened window, the app:// protocol serving the built renderer, and the IPC
 * transport. Everything else is the core, shared with the browser host.
 */
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { app, BrowserWindow, dialog, protocol } from 'electron';
import { createCore, startupFailureMessage, type Core } from '../core/service';
import { rendererFile } from '../core/renderer-files';
import { registerIpc } from './ipc';
import { createSafeStorageVault } from './safe-storage-vault';
import { APP_ORIGIN, CSP, hardenSessions } from './security';

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true } }]);

// Tests and portable installs may point the data dir elsewhere; the key vault follows it.
if (process.env.GATEWAY_PLAYGROUND_DATA) app.setPath('userData', path.resolve(process.env.GATEWAY_PLAYGROUND_DATA));

const rendererDir = path.join(__dirname, '../renderer');
function serveRenderer(): void {
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    const target = url.host === 'gateway' ? rendererFile(rendererDir, url.pathname) : ({ status: 404 } as const);
    if ('status' in target) return new Response(target.status === 400 ? 'Bad request' : 'Not found', { status: target.status });
    try {
      const body = await fs.readFile(target.file);
      return new Response(body, {
        headers: {
          'content-type': target.contentType,
          'content-security-policy': CSP,
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    show: false,
    backgroundColor: '#0f1115',
    title: 'Gateway Playground',
    webPreferences: {
      preload: path.join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

let core: Core | undefined;

/** Brings the running app forward when it is launched again. */
function showExistingWindow(): void {
  const win = BrowserWindow.getAllWindows()[0];
  // With no window left (macOS keeps the app running), a launch means "open it", once the core is up to serve one.
  if (!win) {
    if (core) createWindow();
    return;
  }
  if (win.isMinimized()) win.restore();
  win.focus();
}

async function start(): Promise<void> {
  hardenSessions();
  serveRenderer();
  const dataDir = app.getPath('userData');
  try {
    core = await createCore({
      dataDir,
      host: 'electron',
      version: app.getVersion(),
      vault: createSafeStorageVault(dataDir),
      env: { baseUrl: process.env.GATEWAY_BASE_URL, apiKey: process.env.GATEWAY_API_KEY },
    });
  } catch (err) {
    // No window exists yet, so a rejected start-up would leave the app running with nothing on screen.
    const message = startupFailureMessage(err, 'start the app with GATEWAY_PLAYGROUND_DATA set to a folder you can write to');
    console.error(message);
    dialog.showErrorBox('Gateway Playground cannot start', message);
    app.exit(1);
    return;
  }
  registerIpc(core);
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

// Two processes on one data folder would race each other's writes to presets, history and keys. Electron keys
// the lock on the userData path, so this comes after GATEWAY_PLAYGROUND_DATA is applied: instances on
// different folders (tests, portable installs) still run side by side. app.quit() is asynchronous, so a second
// instance must not reach start() in the meantime.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showExistingWindow);
  void app.whenReady().then(start);
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

let closing = false;
app.on('will-quit', (event) => {
  if (closing || !core) return;
  // Quitting waits for the core: runs stopped by the quit are written to history before the process ends.
  event.preventDefault();
  closing = true;
  void core.close().finally(() => app.quit());
});
