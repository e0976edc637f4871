/**
 * The one place HTTP requests to a gateway are built and sent. Auth per profile, anthropic-version on the
 * first family's routes, a redacted copy of the headers for the ledger, and timeouts that tell "the gateway
 * never answered" from "the stream went quiet".
 */
import type { Profile } from './profiles';
import { joinUrl } from '../../shared/url';
import { requestHeaders, SECRET_HEADER } from '../../shared/request-headers';
import { StringDecoder } from 'node:string_decoder';
import { Agent, Pool, ProxyAgent, request, type Dispatcher } from 'undici';
import { BlockList, isIP } from 'node:net';
import { pipeline, Transform, type Readable } from 'node:stream';
import { constants as zlibConstants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { keyHint } from './vault';
import { describeNetworkError } from '../../shared/errors';
import type { GatewayErrorInfo } from '../../shared/contract';

export { ANTHROPIC_VERSION } from '../../shared/request-headers';

/**
 * The dispatcher every core request to a gateway goes through. undici's own headers and body timeouts (300 s
 * each) would otherwise end a long non-streamed answer or a quiet stream before `RequestTimer` does, under
 * its own name ("Headers Timeout Error") and regardless of the user's settings: `RequestTimer` is the one
 * clock. The connect timeout stays: it only bounds the TCP/TLS handshake, which no setting covers.
 */
export const gatewayDispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** A gateway's answer: status, headers as received, and the body as it arrives. */
export interface GatewayResponse {
  status: number;
  statusText: string;
  ok: boolean;
  /** Lower-case names; a repeated header's values joined with ", " (set-cookie too: it is redacted by name). */
  headers: Record<string, string>;
  /** Decoded bytes: a body the gateway compressed unasked (it is never asked to) is inflated here. */
  body: AsyncIterable<Uint8Array>;
}

/*
 * Compressed bodies are decoded as leniently as browsers and curl decode them (undici's fetch does the same):
 * a gzip stream without its trailer, or flushed but never finished, still gives the text that arrived.
 */
const SYNC = { flush: zlibConstants.Z_SYNC_FLUSH, finishFlush: zlibConstants.Z_SYNC_FLUSH };
const BROTLI = { flush: zlibConstants.BROTLI_OPERATION_FLUSH, finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH };

/** `deflate` as servers send it: zlib-wrapped per the RFC, or raw deflate as some servers do. */
class AnyInflate extends Transform {
  private inner: Transform | undefined;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    if (!this.inner) {
      if (chunk.length === 0) return done();
      // A zlib header's first byte says "deflate" in its low four bits; raw deflate has no header.
      const inner = (chunk[0] & 0x0f) === 0x08 ? createInflate(SYNC) : createInflateRaw(SYNC);
      this.inner = inner;
      // Back-pressure passes through: a small compressed chunk can inflate a thousandfold, and nothing may
      // pile up faster than the reader takes it.
      inner.on('data', (out: Buffer) => {
        if (!this.push(out)) inner.pause();
      });
      inner.on('error', (err) => this.destroy(err));
    }
    this.inner.write(chunk, done);
  }
  override _read(size: number): void {
    this.inner?.resume();
    super._read(size);
  }
  override _flush(done: (err?: Error | null) => void): void {
    if (!this.inner) return done();
    this.inner.once('end', () => done());
    this.inner.end();
  }
  override _destroy(err: Error | null, done: (err: Error | null) => void): void {
    this.inner?.destroy();
    done(err);
  }
}

const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(SYNC),
  'x-gzip': () => createGunzip(SYNC),
  deflate: () => new AnyInflate(),
  br: () => createBrotliDecompress(BROTLI),
};

/** More layers than this is a decompression bomb, not an answer (curl and undici draw the same line). */
const MAX_ENCODINGS = 5;

/**
 * The core's one way to send a built request: undici's `request` through gatewayDispatcher or a proxy's pool
 * (routeFor), so RequestTimer is the only clock. Not fetch, for two reasons. What is sent is exactly what the
 * ledger shows: fetch adds its own accept-encoding, accept-language and sec-fetch-mode headers, and follows
 * redirects, turning a redirected POST into a GET without its body (a 3xx is shown as it came, with its
 * Location). And speed: fetch hands the body through WHATWG streams, which cost a 20k-event firehose about
 * 5 ms of CPU more than undici's own stream (npm run bench).
 */
export async function gatewayRequest(req: BuiltRequest, signal: AbortSignal): Promise<GatewayResponse> {
  const { dispatcher, headers: sent } = routeFor(req);
  const res = await request(req.url, { method: req.method, headers: sent, body: req.body, signal, dispatcher });
  try {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    // A 204 or an empty 200 labelled gzip decodes to nothing, as the decoders are lenient (above).
    const encodings = (headers['content-encoding'] ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e !== '' && e !== 'identity');
    if (encodings.length > MAX_ENCODINGS) {
      throw Object.assign(new Error(`the answer is labelled with ${encodings.length} content encodings (${encodings.join(', ')}); more than ${MAX_ENCODINGS} are not decoded`), {
        code: 'ERR_CONTENT_DECODING',
      });
    }
    let body: Readable = res.body;
    // Layers were applied in the order listed: undone last first. An unknown one is left as it came.
    if (encodings.every((e) => Object.hasOwn(DECODERS, e))) {
      for (const e of encodings.reverse()) body = pipeline(body, DECODERS[e](), () => undefined);
    }
    return { status: res.statusCode, statusText: res.statusText ?? '', ok: res.statusCode >= 200 && res.statusCode <= 299, headers, body };
  } catch (err) {
    // Nothing will read this body: without this the connection stays open until the gateway closes it.
    // Destroying it aborts the request, which undici then reports on the body: that is expected, not a fault.
    res.body.on('error', () => undefined);
    res.body.destroy();
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
}

/** One NO_PROXY entry: a host name (its subdomains too), an address, or a CIDR block, with an optional port. */
function noProxyEntry(raw: string): { name: string; port?: string; bits?: number } | undefined {
  const entry = raw.trim().toLowerCase().replace(/^\*?\./, '');
  if (entry === '') return undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1], port: bracketed[2] };
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(entry);
  if (cidr) return { name: cidr[1], bits: Number(cidr[2]) };
  if (isIP(entry) === 6) return { name: entry };
  const named = /^([^:]+)(?::(\d+))?$/.exec(entry);
  return named ? { name: named[1], port: named[2] } : undefined;
}

/** Whether NO_PROXY sends a request to this host and port direct, as curl decides it. */
function bypassed(host: string, port: string, noProxy: string): boolean {
  const family = isIP(host);
  for (const raw of noProxy.split(/[\s,]+/)) {
    if (raw.trim() === '*') return true;
    const e = noProxyEntry(raw);
    if (!e || (e.port !== undefined && e.port !== port)) continue;
    if (family === 0) {
      if (host === e.name || host.endsWith(`.${e.name}`)) return true;
      continue;
    }
    // An address matches an equal address or a block holding it, never as a suffix (`2.3` is not 10.1.2.3).
    const kind = isIP(e.name);
    if (kind !== family) continue;
    const list = new BlockList();
    const type = family === 6 ? 'ipv6' : 'ipv4';
    try {
      if (e.bits !== undefined) list.addSubnet(e.name, e.bits, type);
      else list.addAddress(e.name, type);
    } catch {
      continue;
    }
    if (list.check(host, type)) return true;
  }
  return false;
}

/**
 * The proxy a request to `url` goes through, from the environment as curl reads it: `https_proxy` or
 * `HTTPS_PROXY` for https, `http_proxy` (lower case only, as curl: the upper-case name can be set by a CGI
 * request's Proxy header) for http, else `all_proxy`/`ALL_PROXY`; `no_proxy`/`NO_PROXY` lists what goes direct.
 * A desktop app behind a company proxy reaches no gateway without this, and Node's HTTP client reads none of
 * them itself. Loopback (the built-in demo gateway) always goes direct.
 */
export function proxyFor(url: string, env: Record<string, string | undefined> = process.env): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const pick = (...names: string[]) => names.map((n) => env[n]?.trim()).find((v) => !!v);
  const proxy =
    u.protocol === 'https:' ? pick('https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY') : u.protocol === 'http:' ? pick('http_proxy', 'all_proxy', 'ALL_PROXY') : undefined;
  if (!proxy) return undefined;
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '127.0.0.1' || host === '::1') return undefined;
  if (bypassed(host, u.port || (u.protocol === 'https:' ? '443' : '80'), pick('no_proxy', 'NO_PROXY') ?? '')) return undefined;
  // curl takes a proxy given without a scheme as http://.
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

/** A proxy as the ledger shows it: where it is, without the user name and password it may carry. */
export function proxyShown(proxy: string): string {
  try {
    const u = new URL(proxy);
    return `${u.protocol}//${u.username || u.password ? '[redacted]@' : ''}${u.host}`;
  } catch {
    return '[a proxy address that is not a URL]';
  }
}

const proxyAgents = new Map<string, ProxyAgent>();

/** Connection pools with the same clocks as gatewayDispatcher (undici's own would end a quiet stream at 300 s). */
const patientPool = (origin: string | URL, options: Pool.Options) => new Pool(origin, { ...options, headersTimeout: 0, bodyTimeout: 0 });

/**
 * The dispatcher for a built request, and the headers it sends: gatewayDispatcher, or one pool per proxy and
 * proxy credentials. An http:// gateway is asked through the proxy in absolute form, as curl does (a company
 * proxy often refuses CONNECT to ports other than 443); an https:// one through a CONNECT tunnel. A user name
 * alone is sent as `name:` (curl's reading). A profile's Proxy-Authorization header is the proxy's, not the
 * gateway's: through a proxy it becomes the proxy's credentials (undici refuses it as a request header there),
 * in place of any in the proxy URL.
 */
function routeFor(req: BuiltRequest): { dispatcher: Dispatcher; headers: Record<string, string> } {
  if (!req.proxy) return { dispatcher: gatewayDispatcher, headers: req.headers };
  const proxyAuth = Object.keys(req.headers).find((name) => name.toLowerCase() === 'proxy-authorization');
  const headers = proxyAuth === undefined ? req.headers : Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== proxyAuth));
  const cacheKey = proxyAuth === undefined ? req.proxy : `${req.proxy}\n${req.headers[proxyAuth]}`;
  let agent = proxyAgents.get(cacheKey);
  if (!agent) {
    let u: URL;
    try {
      u = new URL(req.proxy);
    } catch {
      throw Object.assign(new Error(`The proxy from the environment is not a URL: check https_proxy / http_proxy / all_proxy`), { code: 'ERR_PROXY_CONFIG' });
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      throw Object.assign(new Error(`The proxy from the environment is a ${u.protocol.slice(0, -1)} proxy; only http:// and https:// proxies are supported`), { code: 'ERR_PROXY_CONFIG' });
    }
    const credentials = u.username ? `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` : undefined;
    const token = proxyAuth !== undefined ? req.headers[proxyAuth] : credentials !== undefined ? `Basic ${Buffer.from(credentials).toString('base64')}` : undefined;
    agent = new ProxyAgent({
      uri: req.proxy,
      ...(token !== undefined ? { token } : {}),
      proxyTunnel: false,
      factory: patientPool,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    proxyAgents.set(cacheKey, agent);
  }
  return { dispatcher: agent, headers };
}

/** Shorter credential header values are not scrubbed: see requestSecrets. */
const MIN_HEADER_SECRET = 8;

/**
 * What a request carries that must never come back out of the core, the one list both the ledger and the
 * scrubbing of answers use: the key, and the values of credential headers. A credential header holding an
 * ordinary short word (`x-auth-mode: null`) is left out: scrubbing it from every answer would break the JSON
 * it appears in, and the header itself is still hidden by its name. A value of the form `Bearer sk-…` also
 * gives its credentials alone, since a gateway may quote only those ("invalid token sk-…").
 */
export function requestSecrets(key: string | undefined, headers: Record<string, string>, isSecretName: (name: string) => boolean): string[] {
  const values = Object.keys(headers)
    .filter((name) => isSecretName(name) && headers[name].length >= MIN_HEADER_SECRET)
    .map((name) => headers[name]);
  const found = [key, ...values]
    .filter((s): s is string => !!s)
    .flatMap((s) => {
      const credentials = /^[A-Za-z][\w.-]*\s+(\S{8,})$/.exec(s)?.[1];
      return credentials ? [s, credentials] : [s];
    });
  return [...new Set(found)].filter((s) => s.length >= 4);
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
    /** The profile store's list (`ProfileStore.secretsFor`), so the ledger hides exactly what answers are scrubbed of. */
    secrets?: readonly string[];
  } = {},
): BuiltRequest {
  let url = joinUrl(profile.baseUrl, path);
  if (opts.query && Object.keys(opts.query).length) url += `?${new URLSearchParams(opts.query).toString()}`;
  const headers: Record<string, string> = {
    ...requestHeaders({ path, authScheme: profile.authScheme, extraHeaders: profile.extraHeaders, key, stream: opts.stream, hasBody: body !== undefined }),
    'user-agent': 'GatewayPlayground/0.1',
  };
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
  return { url, method, headers, redactedHeaders, body: body === undefined ? undefined : JSON.stringify(body), ...(proxy ? { proxy } : {}) };
}

/**
 * A value under a credential's name: all of it hidden, unless it holds the key, which is then shown by its hint
 * (so a ledger tells which key was sent) with the rest still scrubbed of every secret.
 */
function redact(value: string, key: string | undefined, secrets: readonly string[]): string {
  if (!key || !value.includes(key)) return '[redacted]';
  return value
    .split(key)
    .map((part) => scrub(part, secrets))
    .join(`[redacted ${keyHint(key)}]`);
}

/**
 * Removes every secret a request carries (the key, secret header values) from any text that might echo them
 * (error bodies, events) before it leaves the core. Shorter than 4 characters, a value would scrub ordinary
 * text. Longest first: a secret that holds another (`Bearer sk-…` and `sk-…`) is replaced whole, not around it.
 */
export function scrub(text: string, secrets: readonly string[]): string {
  const found = secrets.filter((s) => s.length >= 4 && text.includes(s));
  if (found.length === 0) return text;
  let out = text;
  for (const s of found.sort((a, b) => b.length - a.length)) out = out.split(s).join('[redacted]');
  return out;
}

/**
 * A streamed body's decoder that also watches for the secrets, so events are scrubbed only once one has shown
 * up: one search per secret per network chunk instead of one per event. The last (longest secret − 1)
 * characters carry over, so a secret split across two chunks is still seen, and seen before the event holding
 * it is dispatched (an event is dispatched only when its blank line, which comes after the secret, has arrived).
 */
export function secretWatchingDecoder(secrets: readonly string[]): { write(chunk: Uint8Array): string; end(): string; readonly sawSecret: boolean } {
  const utf8 = new StringDecoder('utf8');
  // A secret that holds another (`Bearer sk-…` and `sk-…`) is never seen without it: watching the shorter one
  // alone halves the scan of every chunk.
  const long = secrets.filter((s) => s.length >= 4);
  const watched = long.filter((s, i) => !long.some((t, j) => j !== i && s.includes(t) && (s !== t || j < i)));
  const keep = Math.max(0, ...watched.map((s) => s.length - 1));
  let saw = false;
  let tail = '';
  let finders: ((text: string) => boolean)[] = [];
  let tunedOn = 0;
  const look = (text: string): string => {
    if (watched.length === 0 || saw || text === '') return text;
    // A stream often opens with one short event: tuned on that alone, the search could anchor on a letter
    // every later chunk is full of. Re-tuned on each longer chunk until one is long enough to be typical.
    if (tunedOn < TUNING_SAMPLE && text.length > tunedOn) {
      const sample = text.length > TUNING_SAMPLE ? text.slice(0, TUNING_SAMPLE) : text;
      finders = watched.map((s) => finderFor(s, sample));
      tunedOn = sample.length;
    }
    const seam = tail + text.slice(0, keep);
    saw = finders.some((found) => found(text)) || watched.some((s) => seam.includes(s));
    tail = text.length >= keep ? text.slice(-keep) : (tail + text).slice(-keep);
    return text;
  };
  return {
    write: (chunk) => look(utf8.write(chunk)),
    end: () => look(utf8.end()),
    get sawSecret() {
      return saw;
    },
  };
}

/** Characters of a stream's opening chunks enough to tell which characters are rare in it. */
const TUNING_SAMPLE = 4096;

/**
 * A search for one secret in every chunk of a stream, tuned on its first long chunk. A plain `includes` reads a
 * firehose at about 2 GB/s when the secret is made of letters the JSON around it is full of (the demo key,
 * `demo-key`, against `"content_block_delta"` and `"type"`): about 1 ms of every 2 MB. Looking only where the
 * secret's rarest character in that chunk appears, and comparing the whole secret there, is about 30×
 * faster. A secret with no rare character keeps `includes`.
 */
function finderFor(secret: string, sample: string): (text: string) => boolean {
  let at = 0;
  let fewest = Infinity;
  for (let i = 0; i < secret.length; i++) {
    const c = secret[i];
    if (secret.indexOf(c) !== i) continue;
    let n = 0;
    for (let j = sample.indexOf(c); j !== -1 && n < fewest; j = sample.indexOf(c, j + 1)) n++;
    if (n < fewest) {
      at = i;
      fewest = n;
    }
  }
  if (fewest > sample.length / 64) return (text) => text.includes(secret);
  const anchor = secret[at];
  return (text) => {
    for (let j = text.indexOf(anchor, at); j !== -1; j = text.indexOf(anchor, j + 1)) if (text.startsWith(secret, j - at)) return true;
    return false;
  };
}

/**
 * Response headers fit to leave the core: a gateway may echo the request's secrets back (debug headers, a
 * reflected Authorization or helicone-auth) or set its own (set-cookie, session tokens). Token *counts*
 * (`…-ratelimit-…-tokens`) and auth *challenges* (`www-authenticate`, which says why a 401 happened) are what a
 * user came to see, so those names alone do not make a value secret; the secrets are still scrubbed from them.
 * `key` is named apart so that a reflected credential shows which key it was, by its hint.
 */
export function safeResponseHeaders(h: Record<string, string>, secrets: readonly string[], key: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h)) {
    const secret = !/^(www|proxy)-authenticate$/i.test(name) && SECRET_HEADER.test(name.replace(/tokens/gi, ''));
    out[name] = secret ? redact(value, key, secrets) : scrub(value, secrets);
  }
  return out;
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

/** A proxy URL's credentials (as written and decoded), and the URL itself: an error quoting it must not show them. */
function proxySecrets(proxy: string): string[] {
  try {
    const { username, password } = new URL(proxy);
    return username || password ? [proxy, username, decodeURIComponent(username), password, decodeURIComponent(password)] : [];
  } catch {
    return [proxy];
  }
}

export interface Timeouts {
  /** From sending to the response headers (a non-streamed reply arrives only when complete). */
  headersMs: number;
  /** Longest silence between two chunks of a body (keep-alive comments count as activity). */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { headersMs: 600_000, idleMs: 90_000 };

export type EndCause = 'cancelled' | 'timeout-headers' | 'timeout-idle';

/**
 * Wraps an AbortController with the two timers. `cause()` says why the signal fired so a caught AbortError
 * can become "cancelled" or "timeout" rather than a generic failure.
 */
export class RequestTimer {
  readonly controller = new AbortController();
  private why: EndCause | undefined;
  private timer: NodeJS.Timeout | undefined;
  private phase: 'headers' | 'idle' = 'headers';
  private deadline: number;

  constructor(private readonly timeouts: Timeouts) {
    this.deadline = Date.now() + timeouts.headersMs;
    this.schedule(timeouts.headersMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cause(): EndCause | undefined {
    return this.why;
  }

  /**
   * Headers arrived, or a body chunk did: the idle clock restarts. Only a deadline moves here; the one timer
   * re-checks it when it fires, so a stream of thousands of chunks does not churn timers.
   */
  activity(): void {
    if (this.why) return;
    this.deadline = Date.now() + this.timeouts.idleMs;
    if (this.phase === 'headers') {
      this.phase = 'idle';
      this.schedule(this.timeouts.idleMs);
    }
  }

  cancel(): void {
    this.fire('cancelled');
  }

  done(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), ms);
    this.timer.unref?.();
  }

  private check(): void {
    if (this.why) return;
    const left = this.deadline - Date.now();
    if (left > 0) this.schedule(left);
    else this.fire(this.phase === 'headers' ? 'timeout-headers' : 'timeout-idle');
  }

  private fire(cause: EndCause): void {
    if (this.why) return;
    this.why = cause;
    this.done();
    this.controller.abort(new Error(cause));
  }
}

export interface BodyText {
  text: string;
  bytes: number;
  capped: boolean;
  /** What ended the body before its end (a reset, or the timer's abort); absent when it ended normally. */
  cut?: unknown;
}

/**
 * Reads a whole body as text with the idle timer running, capped so a runaway body cannot eat memory. Never
 * throws: a body cut short still returns what arrived, since an error body's first bytes often already name
 * the error.
 */
export async function readBody(body: AsyncIterable<Uint8Array>, timer: RequestTimer, capBytes = 8 * 1024 * 1024): Promise<BodyText> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let capped = false;
  let cut: { err: unknown } | undefined;
  try {
    for await (const chunk of body) {
      timer.activity();
      bytes += chunk.byteLength;
      if (bytes > capBytes) {
        capped = true;
        continue;
      }
      text += decoder.decode(chunk, { stream: true });
    }
  } catch (err) {
    cut = { err };
  }
  text += decoder.decode();
  return cut ? { text, bytes, capped, cut: cut.err } : { text, bytes, capped };
}

/** `readBody` for callers that treat a cut body as a failure: throws what cut it. */
export async function readBodyText(res: GatewayResponse, timer: RequestTimer, capBytes = 8 * 1024 * 1024): Promise<{ text: string; bytes: number; capped: boolean }> {
  const body = await readBody(res.body, timer, capBytes);
  if ('cut' in body) throw body.cut;
  return body;
}

export type BodySniff = 'document' | 'event-stream' | 'text' | 'empty';

const BOM = [0xef, 0xbb, 0xbf];
const SSE_FIELDS = ['data:', 'event:', 'id:', 'retry:'].map((f) => Buffer.from(f));

/**
 * What a body's first non-blank bytes say it is, whatever its content type claims: `{`, `[` or `<` open a
 * document, an SSE field name or a `:` comment opens an event stream. Undefined while the bytes so far cannot
 * tell (blank, or a field name cut short) and more may come; `ended` says none will.
 */
export function sniffBody(head: Uint8Array, ended: boolean): BodySniff | undefined {
  // A BOM cut short by the first chunk says nothing yet about what follows it.
  if (!ended && head.length > 0 && head.length < 3 && head.every((byte, at) => byte === BOM[at])) return undefined;
  let i = head[0] === BOM[0] && head[1] === BOM[1] && head[2] === BOM[2] ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (i === head.length) return ended ? 'empty' : undefined;
  const c = head[i];
  if (c === 0x7b || c === 0x5b || c === 0x3c) return 'document';
  if (c === 0x3a) return 'event-stream';
  const rest = head.subarray(i);
  let partial = false;
  for (const field of SSE_FIELDS) {
    const n = Math.min(field.length, rest.length);
    if (!Buffer.from(rest.buffer, rest.byteOffset, n).equals(field.subarray(0, n))) continue;
    if (n === field.length) return 'event-stream';
    partial = true;
  }
  return partial && !ended ? undefined : 'text';
}
