/**
 * The one place HTTP requests to a gateway are built and sent: auth per profile, anthropic-version on the first
 * family's routes, a redacted copy of the headers for the ledger. Timeouts are RequestTimer's (timer.ts).
 */
import type { Profile } from '../profiles';
import { joinUrl } from '../../../shared/url';
import { requestHeaders, SECRET_HEADER } from '../../../shared/request-headers';
import { describeNetworkError } from '../../../shared/errors';
import type { GatewayErrorInfo } from '../../../shared/contract';
import { redact, requestSecrets, scrub, urlSecrets } from '../secrets';
import { scrubberFor } from '../scrubber';
import { decodedBody } from './decode';
import { proxyFor, proxySecrets, proxyShown, routeFor } from './proxy';
import type { RequestSignal } from './timer';
import { sendOverKeptAlive } from './kept-alive';
import { dispatchRequest } from './dispatch';

/** A gateway's answer: status, headers as received, and the body as it arrives. */
export interface GatewayResponse {
  status: number;
  statusText: string;
  ok: boolean;
  /** Lower-case names; a repeated header's values joined with ", " (set-cookie too: it is redacted by name). */
  headers: Record<string, string>;
  /** Decoded bytes: a body the gateway compressed unasked (it is never asked to) is inflated here. */
  body: AsyncIterable<Uint8Array>;
  /**
   * Whether the whole body has arrived (some of it may be unread): a stream read to its terminal event is then
   * read to its end instead of cancelled (runs/stream.ts). Always false for a body inflated here.
   */
  arrived(): boolean;
}

/**
 * The core's one way to send a built request: undici's dispatch through gatewayDispatcher or a proxy's pool
 * (routeFor), so RequestTimer is the only clock. Not fetch, for two reasons. What is sent is exactly what the
 * ledger shows: fetch adds its own accept-encoding, accept-language and sec-fetch-mode headers, and follows
 * redirects, turning a redirected POST into a GET without its body (a 3xx is shown as it came, with its
 * Location). And speed: fetch hands the body through WHATWG streams, which cost a 20k-event firehose about
 * 5 ms of CPU more than undici's own stream (npm run bench); undici's `request()` through a Readable, which cost
 * a load request about 35 µs more than the dispatch handler (dispatch.ts).
 */
export async function gatewayRequest(req: BuiltRequest, signal: RequestSignal): Promise<GatewayResponse> {
  const { dispatcher, headers: sent } = routeFor(req);
  const res = await sendOverKeptAlive(dispatcher, signal, () =>
    dispatchRequest(dispatcher, req.url, { method: req.method, headers: sent, body: req.body }, signal),
  );
  try {
    const headers: Record<string, string> = {};
    for (const name in res.headers) {
      const value = res.headers[name];
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const encoding = headers['content-encoding'];
    const body = decodedBody(res.body, encoding);
    const arrived = body === res.body ? () => res.body.complete : () => false;
    const ok = res.statusCode >= 200 && res.statusCode <= 299;
    return { status: res.statusCode, statusText: res.statusText, ok, headers, body, arrived };
  } catch (err) {
    // Nothing will read this body: without this the connection stays open until the gateway closes it.
    void res.body.return();
    throw err;
  }
}

export interface BuiltRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Same headers with every secret replaced: safe for the ledger, history and the renderer. */
  redactedHeaders: Record<string, string>;
  body?: string;
  /** The proxy the request goes through (see proxyFor), credentials included: it stays in the core. */
  proxy?: string;
  /**
   * Everything every text derived from the answer is scrubbed of: the profile's secrets, and the user names
   * and passwords in the gateway's and the proxy's URLs.
   */
  secrets: string[];
}

export function buildRequest(
  profile: Profile,
  key: string | undefined,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  opts: {
    stream?: boolean;
    query?: Record<string, string>;
    /** The profile store's list (`ProfileStore.secretsFor`): the ledger hides what answers are scrubbed of. */
    secrets?: readonly string[];
    /** A client's own headers, replayed (agent checks, docs/agents.md); see withClientHeaders. */
    clientHeaders?: Readonly<Record<string, string>>;
  } = {},
): BuiltRequest {
  let url = joinUrl(profile.baseUrl, path);
  if (opts.query && Object.keys(opts.query).length) url += `?${new URLSearchParams(opts.query).toString()}`;
  const headers: Record<string, string> = withClientHeaders(profile, opts.clientHeaders, {
    ...requestHeaders({
      path,
      authScheme: profile.authScheme,
      extraHeaders: profile.extraHeaders,
      key,
      stream: opts.stream,
      hasBody: body !== undefined,
    }),
    'user-agent': 'GatewayPlayground/0.1',
  });
  // Neither a profile nor a replayed client names the server: the URL does (docs/security.md §3).
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'host') delete headers[name];
  // A plain header may repeat a value sent under a credential's name (a tenant id built from a token, say).
  const secrets = opts.secrets ?? requestSecrets(key, profile.extraHeaders, (name) => SECRET_HEADER.test(name));
  const redactedHeaders: Record<string, string> = {};
  // A header marked secret in the profile form is hidden whole like one named as a credential, whatever its length.
  const marked = new Set(profile.secretHeaders?.map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(headers)) {
    const secret = SECRET_HEADER.test(name) || marked.has(name);
    redactedHeaders[name] = secret ? redact(value, key, secrets) : scrub(value, secrets);
  }
  const proxy = proxyFor(url);
  const all = secretsOfRequest(url, secrets);
  const sent = body === undefined ? undefined : JSON.stringify(body);
  return { url, method, headers, redactedHeaders, body: sent, ...(proxy ? { proxy } : {}), secrets: all };
}

/**
 * A replayed client's headers over the app's own (its user-agent replaces ours), with two exceptions: a name
 * that suggests a credential is never taken from them, so the key goes only where the profile's auth scheme
 * puts it, and a header the profile sets keeps the profile's value (a relay may demand its own user-agent).
 */
function withClientHeaders(
  profile: Pick<Profile, 'extraHeaders'>,
  client: Readonly<Record<string, string>> | undefined,
  headers: Record<string, string>,
): Record<string, string> {
  if (!client) return headers;
  const own = new Map(Object.entries(profile.extraHeaders).map(([name, value]) => [name.toLowerCase(), value]));
  for (const [raw, value] of Object.entries(client)) {
    const name = raw.toLowerCase();
    // The profile's value even where the app's default replaced it (user-agent): the client's would otherwise.
    if (!SECRET_HEADER.test(name)) headers[name] = own.get(name) ?? value;
  }
  return headers;
}

/**
 * Every secret the answer to a request for `url` is scrubbed of (BuiltRequest.secrets): the profile's, and the
 * user names and passwords in the gateway's URL and in the proxy's it goes through.
 */
export function secretsOfRequest(url: string, profileSecrets: readonly string[]): string[] {
  const proxy = proxyFor(url);
  return [
    ...new Set([
      ...profileSecrets,
      ...urlSecrets(url),
      ...(proxy ? [...proxySecrets(proxy), ...urlSecrets(proxy)] : []),
    ]),
  ];
}

/** Every secret a profile's answers are scrubbed of, whichever endpoint answered. */
export function secretsOfProfile(profile: Pick<Profile, 'baseUrl'>, profileSecrets: readonly string[]): string[] {
  return secretsOfRequest(joinUrl(profile.baseUrl, '/v1/models'), profileSecrets);
}

/** A URL as the ledger shows it: without the user name and password it may carry. */
export function urlShown(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

/**
 * Response headers fit to leave the core: a gateway may echo the request's secrets back (debug headers, a
 * reflected Authorization or helicone-auth) or set its own (set-cookie, session tokens). Token *counts*
 * (`…-ratelimit-…-tokens`) and auth *challenges* (`www-authenticate`, which says why a 401 happened) are what a
 * user came to see, so those names alone do not make a value secret; the secrets are still scrubbed from them.
 * `key` is named apart so that a reflected credential shows which key it was, by its hint. Names are scrubbed
 * too: a gateway may echo a secret as a header's name.
 */
export function safeResponseHeaders(
  h: Record<string, string>,
  secrets: readonly string[],
  key: string | undefined,
): Record<string, string> {
  // Nearly always no name or value holds any form of a secret: one look through them all (a form found in one
  // is found in all of them joined) instead of one per name and per value.
  let all = '';
  for (const name in h) all += `${name}\n${h[name]}\n`;
  const clean = secrets.length === 0 || !scrubberFor(secrets).mayHold(all);
  const out: Record<string, string> = {};
  for (const name in h) {
    const value = h[name];
    if (isSecretHeaderName(name)) out[clean ? name : scrub(name, secrets)] = redact(value, key, secrets);
    else if (clean) out[name] = value;
    else out[scrub(name, secrets)] = scrub(value, secrets);
  }
  return out;
}

/** Names already judged: a gateway sends the same few on every response, and a load run asks for each one. */
const secretNames = new Map<string, boolean>();
const SECRET_NAMES_CAP = 1_000;

function isSecretHeaderName(name: string): boolean {
  let secret = secretNames.get(name);
  if (secret === undefined) {
    secret = !/^(www|proxy)-authenticate$/i.test(name) && SECRET_HEADER.test(name.replace(/tokens/gi, ''));
    if (secretNames.size < SECRET_NAMES_CAP) secretNames.set(name, secret);
  }
  return secret;
}

/**
 * What a failed request (refused, reset, a header value undici rejects) means, in words fit to leave the core:
 * an error's text can quote the request, so every secret of it is scrubbed here, for every caller.
 */
export function describeRequestError(err: unknown, secrets: readonly string[], proxy?: string): GatewayErrorInfo {
  const info = describeNetworkError(err);
  // "Connection refused by host:port" names the proxy's address when there is one: say it was the proxy's.
  const via = proxy && info.type !== 'network:proxy' ? ` The request went through the proxy ${proxyShown(proxy)}.` : '';
  return { ...info, message: scrub(info.message + via, proxy ? [...secrets, ...proxySecrets(proxy)] : secrets) };
}
