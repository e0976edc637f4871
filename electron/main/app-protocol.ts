/**
 * The app:// protocol: serves the built renderer from one folder, with the CSP on every response. Which file a
 * path names is decided by rendererFile (shared with the browser host), so traversal is refused the same way.
 */
import { promises as fs } from 'node:fs';
import { protocol } from 'electron';
import { rendererFile } from '../core/renderer-files';
import { APP_HOST, CSP } from './security';

export const APP_SCHEME = 'app';

/** Must run before the app is ready: app:// is a standard, secure origin (fetch, modules, storage work). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true } }]);
}

export function appProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return new Response('Bad request', { status: 400 });
    }
    const target = url.host === APP_HOST ? rendererFile(rendererDir, url.pathname) : ({ status: 404 } as const);
    if ('status' in target) {
      return new Response(target.status === 400 ? 'Bad request' : 'Not found', { status: target.status });
    }
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
  };
}

export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, appProtocolHandler(rendererDir));
}
