/**
 * The renderer's Content Security Policy, one list for both hosts (docs/security.md §10): they differ only in
 * where the page may connect. Electron allows nowhere; the browser host only its own WebSocket, on the port it
 * listens on. The page repeats its host's policy as a `<meta>` tag: `renderer/index.html` carries Electron's,
 * and the browser host writes its own into the page it serves, so tag and header always say the same.
 */

/** The policy, allowing connections to `connectSrc` only. */
export function rendererCsp(connectSrc: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    // CodeMirror injects its theme as <style> elements at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connectSrc}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The same policy as a `<meta>` tag can hold it: without frame-ancestors, which the CSP spec ignores there. */
export function metaPolicy(policy: string): string {
  return policy
    .split('; ')
    .filter((d) => !d.startsWith('frame-ancestors '))
    .join('; ');
}

const META = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)("[^>]*>)/i;

/** The policy of a page's CSP `<meta>` tag, if it has one. */
export function metaCspOf(html: string): string | undefined {
  return META.exec(html)?.[2];
}

/** The page with its CSP `<meta>` tag saying `policy` (as a tag can). */
export function withMetaCsp(html: string, policy: string): string {
  return html.replace(META, (_, open: string, _old: string, close: string) => `${open}${metaPolicy(policy)}${close}`);
}
