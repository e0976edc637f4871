/** Base URL handling (docs/protocols.md §0): accept a base with or without a trailing /v1 and say which URL results. */

export const ENDPOINTS = [
  { method: 'POST', path: '/v1/messages' },
  { method: 'POST', path: '/v1/chat/completions' },
  { method: 'POST', path: '/v1/responses' },
  { method: 'GET', path: '/v1/models' },
  { method: 'POST', path: '/v1/messages/count_tokens' },
] as const;

export type NormalizedBase = { ok: true; normalized: string; note?: string } | { ok: false; error: string };

export function normalizeBaseUrl(raw: string): NormalizedBase {
  const input = raw.trim();
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, error: 'must be an http:// or https:// URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, error: 'must be an http:// or https:// URL' };
  }
  if (url.username || url.password) return { ok: false, error: 'put credentials in the API key field, not in the URL' };
  const notes: string[] = [];
  if (url.search || url.hash) notes.push('the query string and fragment are ignored');
  let path = url.pathname.replace(/\/+$/, '');
  // Users paste both "https://gw.example" and "https://gw.example/v1": fold the second into the first once.
  if (/\/v1$/i.test(path)) {
    path = path.slice(0, -3);
    notes.push('the trailing /v1 is part of each endpoint path, so it was folded in');
  }
  const normalized = `${url.protocol}//${url.host}${path}`;
  return { ok: true, normalized, note: notes.length ? `Note: ${notes.join('; ')}.` : undefined };
}

export function joinUrl(baseUrl: string, path: string): string {
  const n = normalizeBaseUrl(baseUrl);
  if (!n.ok) throw new Error(`Invalid base URL: ${n.error}`);
  return n.normalized + path;
}

export function endpointUrls(
  baseUrl: string,
):
  | { ok: true; normalized: string; note?: string; urls: { method: string; path: string; url: string }[] }
  | { ok: false; error: string } {
  const n = normalizeBaseUrl(baseUrl);
  if (!n.ok) return n;
  return {
    ok: true,
    normalized: n.normalized,
    note: n.note,
    urls: ENDPOINTS.map((e) => ({ method: e.method, path: e.path, url: n.normalized + e.path })),
  };
}

/**
 * A base URL that already names an endpoint (`…/v1/chat/completions`) or `/v1` twice (`…/v1/v1`): every URL
 * joined to it would be wrong (`…/chat/completions/v1/messages`). Returns what was found and the base URL the
 * user most likely meant, or undefined when the base is fine (or not a URL at all).
 */
export function endpointInBase(raw: string): { found: string; suggestion: string } | undefined {
  const n = normalizeBaseUrl(raw);
  if (!n.ok) return undefined;
  const url = new URL(n.normalized);
  const path = url.pathname.replace(/\/+$/, '');
  const lower = path.toLowerCase();
  // Longest first: /v1/messages/count_tokens before /v1/messages; the /v1 prefix is optional (already folded).
  const paths = ENDPOINTS.map((e) => e.path).sort((a, b) => b.length - a.length);
  for (const p of paths.flatMap((p) => [p, p.slice(3)])) {
    if (lower.endsWith(p)) {
      return { found: path.slice(path.length - p.length), suggestion: `${url.origin}${path.slice(0, -p.length)}/v1` };
    }
  }
  // `…/v1/v1`: one /v1 was folded already, and the one left would double every endpoint's.
  if (/\/v1$/i.test(path)) return { found: '/v1/v1', suggestion: `${url.origin}${path}` };
  return undefined;
}
