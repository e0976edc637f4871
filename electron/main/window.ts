/**
 * The app's one window: hardened web preferences, the renderer from app://, and its size and position
 * restored from the last session (window-state.ts).
 */
import path from 'node:path';
import { BrowserWindow, screen } from 'electron';
import { APP_ORIGIN } from './security';
import { clampToDisplays, MIN_SIZE, trackWindowState, type WindowState } from './window-state';

export interface MainWindow {
  win: BrowserWindow;
  /** Resolves when the window's last size and position are on disk. */
  flushState(): Promise<void>;
}

export function createMainWindow(opts: {
  preload: string;
  dataDir: string;
  saved: WindowState | undefined;
}): MainWindow {
  const bounds = clampToDisplays(
    opts.saved?.bounds,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    backgroundColor: '#0f1115',
    title: 'Gateway Playground',
    webPreferences: {
      preload: opts.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      // A middle click on a link would open it in a new window, around the window.open handler's checks.
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  });
  if (opts.saved?.maximized) win.maximize();
  const state = trackWindowState(win, opts.dataDir);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return { win, flushState: () => state.flush() };
}

export const preloadPath = (bundleDir: string): string => path.join(bundleDir, 'preload.cjs');
