/**
 * Window hardening (docs/security.md): nothing in the renderer may navigate, open windows, ask for permissions
 * or reach the network. Links to web pages go to the OS browser once the user agrees, never into the app.
 */
import { app, BrowserWindow, dialog, session, shell, type WebContents } from 'electron';
import { rendererCsp } from '../core/renderer-csp';

export const APP_HOST = 'gateway';
export const APP_ORIGIN = `app://${APP_HOST}`;

/** The renderer's policy with no connection at all: the window reaches the core only through the preload. */
export const CSP = rendererCsp("'none'");

/** A link that may leave the app: http or https, with no credentials in it; undefined for anything else. */
export function externalLink(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password) return undefined;
  return u.toString();
}

/**
 * A link from the window (gateway text chose it) opens in the OS browser only after a native dialog, which the
 * page cannot draw or answer, names the whole address and the user says yes (docs/security.md §10).
 */
export async function openLinkIfConfirmed(url: string, contents?: WebContents): Promise<boolean> {
  const link = externalLink(url);
  if (!link) return false;
  const parent = contents ? BrowserWindow.fromWebContents(contents) : null;
  const options = {
    type: 'question' as const,
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
    message: `Open ${link} in your browser?`,
    detail: 'The link is in text the gateway sent. Check the address before you open it.',
  };
  const { response } = await (parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options));
  if (response !== 0) return false;
  await shell.openExternal(link);
  return true;
}

/** Every web contents the app creates: no navigation, no webview, no new window (web links go outside, if asked). */
export function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    // A plain click on a link navigates; an address outside the app is offered to the OS browser instead.
    if (!url.startsWith(`${APP_ORIGIN}/`)) void openLinkIfConfirmed(url, contents);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void openLinkIfConfirmed(url, contents);
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
