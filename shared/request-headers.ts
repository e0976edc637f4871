/**
 * The headers the app sends on each route (docs/protocols.md §0, §1.1): auth per the profile's scheme, the
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
    if (s === 'bearer' || s === 'both' || (s === 'native' && !anthropicRoute))
      headers.authorization = `Bearer ${opts.key}`;
  }
  // Host always comes from the URL: a profile saved before it was refused must not steer the key (docs/security.md §3).
  for (const [name, value] of Object.entries(opts.extraHeaders)) {
    if (name.toLowerCase() !== 'host') headers[name.toLowerCase()] = value;
  }
  return headers;
}

/**
 * Header names that suggest a credential: any name with one of these words in it, in any case
 * (`x-portkey-virtual-key`, `x-functions-key`, `x-jwt`, `helicone-auth`, `cookie`…). `key` only as a part of
 * its own (`-key`, `apikey`): inside a word it is Portkey's name, and `x-portkey-provider` is no credential.
 * Their values are kept in the vault, redacted in ledgers and history, and a `<NAME>` placeholder in exported
 * code. Broad on purpose: a gateway invents its own names, and a header hidden by mistake costs a look at the
 * profile form, while one shown by mistake sends a credential to disk and to the window. Other headers can be
 * marked secret in the profile form (see docs/security.md).
 */
export const SECRET_HEADER =
  /(^|[-_]|api|access)key|token|secret|auth|password|passwd|jwt|signature|cookie|credential/i;

/** The placeholder exported code writes for a secret header: `x-portkey-virtual-key` → `<X_PORTKEY_VIRTUAL_KEY>`. */
export function secretPlaceholder(name: string): string {
  return `<${
    name
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toUpperCase() || 'SECRET'
  }>`;
}
