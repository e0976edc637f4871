/**
 * Window hardening (docs/security.md): nothing in the renderer may navigate, open windows, ask for permissions
 * or reach the network. Links to https pages go to the OS browser after a check, never into the app.
 */
import { app, session, shell, type WebContents } from 'electron';
import { rendererCsp } from '../core/renderer-csp';

export const APP_HOST = 'gateway';
export const APP_ORIGIN = `app://${APP_HOST}`;

/** The renderer's policy with no connection at all: the window reaches the core only through the preload. */
export const CSP = rendererCsp("'none'");

/** Only plain https links, with no credentials in them, leave the app (to the OS browser). */
export function openExternalSafely(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username || u.password) return false;
  void shell.openExternal(u.toString());
  return true;
}

/** Every web contents the app creates: no navigation, no webview, no new window (https links go outside). */
export function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url);
    return { action: 'deny' };
  });
}

export function hardenSessions(): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_event, contents: WebContents) => hardenContents(contents));
}

/** Only the app's own top frame may call the contract (not sub-frames, not anything loaded from elsewhere). */
export function isAppFrame(frame: Electron.WebFrameMain | null | undefined): boolean {
  if (!frame || frame.parent) return false;
  try {
    return new URL(frame.url).origin === APP_ORIGIN || frame.url.startsWith(`${APP_ORIGIN}/`);
  } catch {
    return false;
  }
}
