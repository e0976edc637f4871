/**
 * The headers the app sends on each route (protocols.md §0, §1.1): auth per the profile's scheme, the
 * first family's version header, and the profile's extra headers. Shared by the gateway client and the code
 * exporter so exported code sends exactly what the app sends.
 */
import type { AuthScheme } from './auth-schemes';

export const ANTHROPIC_VERSION = '2023-06-01';

export function requestHeaders(opts: {
  path: string;
  authScheme: AuthScheme;
  extraHeaders: Record<string, string>;
  key: string | undefined;
  stream?: boolean;
  hasBody: boolean;
}): Record<string, string> {
  const anthropicRoute = opts.path.startsWith('/v1/messages');
  const headers: Record<string, string> = { accept: opts.stream ? 'text/event-stream' : 'application/json' };
  if (opts.hasBody) headers['content-type'] = 'application/json';
  // On /v1/models the version header is what makes relays (new-api, LiteLLM) answer in the first family's
  // paginated shape when the key is also sent as x-api-key; both shapes are read either way.
  if (anthropicRoute || opts.path === '/v1/models') headers['anthropic-version'] = ANTHROPIC_VERSION;
  if (opts.key) {
    const s = opts.authScheme;
    if (s === 'x-api-key' || s === 'both' || (s === 'native' && anthropicRoute)) headers['x-api-key'] = opts.key;
    if (s === 'bearer' || s === 'both' || (s === 'native' && !anthropicRoute)) headers.authorization = `Bearer ${opts.key}`;
  }
  for (const [name, value] of Object.entries(opts.extraHeaders)) headers[name.toLowerCase()] = value;
  return headers;
}

/**
 * Header names that carry credentials: redacted in ledgers and history, `<SECRET>` in exported code. Named
 * ones that gateways invent (`helicone-auth`, `ocp-apim-subscription-key`, `x-goog-api-key`) plus name parts
 * that only credentials use. Bare parts such as `key`, `session` or `auth` are not enough: they would hide
 * `x-litellm-key-spend`, `x-portkey-provider`, `idempotency-key` or a session-affinity header, and make an
 * exported command fail. The key and these headers' values are scrubbed from every value whatever the name.
 */
export const SECRET_HEADER =
  /authorization|^(cookie|set-cookie)$|api[-_]?key|access[-_]?key|subscription[-_]?key|secret|password|passwd|credential|(^|[-_])(token|auth)$|(^|[-_])auth[-_]/i;
