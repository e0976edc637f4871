/**
 * Which file of the built renderer a request path names, for both hosts (Electron's app:// handler and the
 * browser host's HTTP server), so they cannot disagree on what is reachable.
 */
import path from 'node:path';

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

export type RendererFile = { file: string; rel: string; contentType: string } | { status: 400 | 404 };

/**
 * `/` is index.html. Broken percent-encoding (`/%E0%A4%A`) is a 400: decodeURIComponent throws on it, and a
 * throw in a protocol or request handler must not take the host down. A path that resolves outside `root`,
 * encoded dots included (`/%2e%2e/…`), is a 404.
 */
export function rendererFile(root: string, pathname: string): RendererFile {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { status: 400 };
  }
  // A NUL would reach the file system call and make it throw a TypeError rather than a not-found.
  if (decoded.includes('\0')) return { status: 404 };
  const base = path.resolve(root);
  const rel = decoded === '/' ? 'index.html' : decoded.slice(1);
  const file = path.resolve(base, rel);
  if (!file.startsWith(base + path.sep)) return { status: 404 };
  return { file, rel, contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' };
}
