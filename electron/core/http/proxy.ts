/**
 * Which proxy a request goes through (the environment, read as curl reads it) and the dispatcher that sends it.
 */
import { Agent, Pool, ProxyAgent, type Dispatcher } from 'undici';
import { BlockList, isIP } from 'node:net';

/**
 * The dispatcher every core request to a gateway goes through. undici's own headers and body timeouts (300 s
 * each) would otherwise end a long non-streamed answer or a quiet stream before `RequestTimer` does, under
 * its own name ("Headers Timeout Error") and regardless of the user's settings: `RequestTimer` is the one
 * clock. The connect timeout stays: it only bounds the TCP/TLS handshake, which no setting covers.
 */
export const gatewayDispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** One NO_PROXY entry: a host name (its subdomains too), an address, or a CIDR block, with an optional port. */
function noProxyEntry(raw: string): { name: string; port?: string; bits?: number } | undefined {
  const entry = raw
    .trim()
    .toLowerCase()
    .replace(/^\*?\./, '');
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
    u.protocol === 'https:'
      ? pick('https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY')
      : u.protocol === 'http:'
        ? pick('http_proxy', 'all_proxy', 'ALL_PROXY')
        : undefined;
  if (!proxy) return undefined;
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '127.0.0.1' || host === '::1') return undefined;
  if (bypassed(host, u.port || (u.protocol === 'https:' ? '443' : '80'), pick('no_proxy', 'NO_PROXY') ?? ''))
    return undefined;
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
const patientPool = (origin: string | URL, options: Pool.Options) =>
  new Pool(origin, { ...options, headersTimeout: 0, bodyTimeout: 0 });

/**
 * The dispatcher for a built request, and the headers it sends: gatewayDispatcher, or one pool per proxy and
 * proxy credentials. An http:// gateway is asked through the proxy in absolute form, as curl does (a company
 * proxy often refuses CONNECT to ports other than 443); an https:// one through a CONNECT tunnel. A user name
 * alone is sent as `name:` (curl's reading). A profile's Proxy-Authorization header is the proxy's, not the
 * gateway's: through a proxy it becomes the proxy's credentials (undici refuses it as a request header there),
 * in place of any in the proxy URL; with no proxy it is not sent at all.
 */
export function routeFor(req: { proxy?: string; headers: Record<string, string> }): {
  dispatcher: Dispatcher;
  headers: Record<string, string>;
} {
  const proxyAuth = Object.keys(req.headers).find((name) => name.toLowerCase() === 'proxy-authorization');
  const headers =
    proxyAuth === undefined
      ? req.headers
      : Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== proxyAuth));
  // With no proxy on the way it has no one to go to: the gateway never gets the proxy's password.
  if (!req.proxy) return { dispatcher: gatewayDispatcher, headers };
  const cacheKey = proxyAuth === undefined ? req.proxy : `${req.proxy}\n${req.headers[proxyAuth]}`;
  let agent = proxyAgents.get(cacheKey);
  if (!agent) {
    let u: URL;
    try {
      u = new URL(req.proxy);
    } catch {
      throw Object.assign(
        new Error(`The proxy from the environment is not a URL: check https_proxy / http_proxy / all_proxy`),
        { code: 'ERR_PROXY_CONFIG' },
      );
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      throw Object.assign(
        new Error(
          `The proxy from the environment is a ${u.protocol.slice(0, -1)} proxy; ` +
            'only http:// and https:// proxies are supported',
        ),
        { code: 'ERR_PROXY_CONFIG' },
      );
    }
    const credentials = u.username ? `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` : undefined;
    const token =
      proxyAuth !== undefined
        ? req.headers[proxyAuth]
        : credentials !== undefined
          ? `Basic ${Buffer.from(credentials).toString('base64')}`
          : undefined;
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

/** A proxy URL's credentials (as written and decoded), and the URL itself: an error quoting it must not show them. */
export function proxySecrets(proxy: string): string[] {
  try {
    const { username, password } = new URL(proxy);
    return username || password
      ? [proxy, username, decodeURIComponent(username), password, decodeURIComponent(password)]
      : [];
  } catch {
    return [proxy];
  }
}
