/**
 * Window hardening (design.md §6): nothing in the renderer may navigate, open windows, ask for permissions
 * or reach the network. Links to https pages go to the OS browser after a check, never into the app.
 */
import { app, session, shell, type WebContents } from 'electron';

export const APP_ORIGIN = 'app://gateway';

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // CodeMirror injects its theme as <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function openExternalSafely(url: string): void {
  try {
    const u = new URL(url);
    if (u.protocol === 'https:' && !u.username && !u.password) void shell.openExternal(u.toString());
  } catch {
    // Not a URL: ignore.
  }
}

export function hardenSessions(): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      openExternalSafely(url);
      return { action: 'deny' };
    });
  });
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
