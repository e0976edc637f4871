/**
 * Gateway and network failures in words (docs/protocols.md §6 and its Sources §3.5–3.6). Errors are
 * classified by the body's shape, never by the route: relays answer `/v1/messages` with OpenAI envelopes, FastAPI
 * `{detail}` bodies, Cloudflare HTML pages or `problem+json`.
 */
import type { GatewayErrorInfo } from './contract/errors';
import { TRANSPORT_HEADERS } from './contract/profiles';
import type { StreamError } from './protocols/types';
import { isObject } from './is-object';
import { closeCutJson } from './cut-json';
import { jsonText } from './json-text';

export { closeCutJson };

export const RAW_BODY_CAP = 64 * 1024;

const REQUEST_ID_HEADERS = ['request-id', 'x-request-id', 'x-oneapi-request-id', 'x-litellm-call-id'];

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  520: 'Web Server Returned an Unknown Error',
  521: 'Web Server Is Down',
  522: 'Connection Timed Out',
  523: 'Origin Is Unreachable',
  524: 'A Timeout Occurred',
  529: 'Overloaded',
};

/**
 * LiteLLM's wrong-family envelopes stringify Python's None (`"type":"None"`, `"param":"None"`): treat
 * those, null and empty strings as absent.
 */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' || trimmed === 'None' || trimmed === 'null' ? undefined : value;
}

/** `code` arrives as a string, a number (`429`) or a numeric string (`"400"`). */
function codeOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return text(value);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** FastAPI `detail`: a string, or pydantic's list of `{loc, msg}`. */
function detailMessage(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = detail.map((d) => {
      if (!isObject(d)) return describeValue(d);
      const msg = typeof d.msg === 'string' ? d.msg : describeValue(d);
      return Array.isArray(d.loc) ? `${d.loc.join('.')}: ${msg}` : msg;
    });
    return parts.join('; ');
  }
  return describeValue(detail);
}

/** The gateway's id for this request, from the first response header that carries one. */
export function requestIdOf(headers: Record<string, string>): string | undefined {
  const h = lowerHeaders(headers);
  for (const name of REQUEST_ID_HEADERS) if (h[name]) return h[name];
  return undefined;
}

function lowerHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}

/**
 * The error inside a JSON value, if it is an error envelope: Anthropic `{"type":"error","error":{…}}`,
 * OpenAI `{"error":{…}}` or `{"error":"text"}`. Used on 2xx bodies (new-api's model lookup answers 200
 * with an error) and on stream frames. `"error": null` (every Responses object carries it) is not one.
 */
export function bodyErrorOf(json: unknown): StreamError | undefined {
  if (!isObject(json)) return undefined;
  const err = json.error;
  if (json.type === 'error') {
    if (isObject(err)) return envelopeError(err);
    if (typeof err === 'string' && err.trim() !== '') return { message: err };
    // The Responses stream's flat `error` event carries code and message at the top level; its `type` is
    // the event name, not an error type.
    return envelopeError({ ...json, type: undefined });
  }
  if (isObject(err)) return envelopeError(err);
  if (typeof err === 'string' && err.trim() !== '')
    return envelopeError({ type: json.type, code: json.code, message: err });
  return undefined;
}

/**
 * The error an `event: error` frame reports, whatever its JSON looks like: the line names it an error even
 * when the payload is not an envelope the family documents (`{"type":"overloaded_error","message":…}`).
 */
export function errorEventOf(json: Record<string, unknown>): StreamError {
  return bodyErrorOf(json) ?? envelopeError(json);
}

function envelopeError(err: Record<string, unknown>): StreamError {
  const type = text(err.type);
  const code = codeOf(err.code);
  const message = text(err.message) ?? (code !== undefined ? `Error ${code}` : describeValue(err));
  const out: StreamError = { message };
  if (type !== undefined) out.type = type;
  if (code !== undefined) out.code = code;
  return out;
}

/** Visible text of an HTML page: title and body text without tags, scripts or styles. */
function htmlText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style|head)[\s\S]*?<\/\1\s*>/gi, (m) => {
        const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(m);
        return title ? ` ${title[1]} ` : ' ';
      })
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<[^>]*>/g, ' '),
  );
}

function decodeEntities(s: string): string {
  return (
    s
      .replace(/&nbsp;/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;|&apos;/g, "'")
      // A numeric entity past U+10FFFF would make fromCodePoint throw: such a page keeps the entity as written.
      .replace(/&#(\d+);/g, (entity, d: string) => (Number(d) <= 0x10ffff ? String.fromCodePoint(Number(d)) : entity))
      .replace(/&amp;/g, '&')
  );
}

function shortExtract(s: string, max = 200): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function statusLabel(status: number | undefined): string {
  if (status === undefined) return 'The gateway';
  const reason = STATUS_TEXT[status];
  return reason ? `HTTP ${status} ${reason}` : `HTTP ${status}`;
}

/** Seconds to wait: `retry-after-ms`, else `retry-after` as seconds or an HTTP date (rounded up). */
function retryAfterOf(h: Record<string, string>, now: number): number | undefined {
  const ms = h['retry-after-ms'];
  if (ms !== undefined && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n / 1000;
  }
  const ra = h['retry-after'];
  if (ra === undefined || ra.trim() === '') return undefined;
  const seconds = Number(ra);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const date = Date.parse(ra);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** ` (that is, https://…)` for a Location relative to the request's URL; nothing for an absolute one. */
function absoluteOf(location: string, requestUrl: string | undefined): string {
  if (requestUrl === undefined || URL.canParse(location)) return '';
  try {
    return ` (that is, ${new URL(location, requestUrl).href})`;
  } catch {
    return '';
  }
}

/**
 * A non-2xx (or error-bodied 2xx) response in words. Classification order (docs/protocols.md §6):
 * Anthropic envelope, OpenAI envelope, FastAPI `{detail}`, then anything else (HTML, text, problem+json) as
 * `gateway_error` naming the status, a short extract and the proxy's `server` / `cf-ray` headers.
 */
export function parseGatewayError(
  status: number | undefined,
  headers: Record<string, string>,
  bodyText: string,
  /** `requestUrl` resolves a relative redirect Location for the message; the headers keep it as sent. */
  { now = Date.now(), requestUrl }: { now?: number; requestUrl?: string } = {},
): GatewayErrorInfo {
  const h = lowerHeaders(headers);
  const body = bodyText ?? '';
  const info: GatewayErrorInfo = { type: 'gateway_error', message: '' };
  if (status !== undefined) info.status = status;
  const contentType = h['content-type'];
  if (contentType) info.contentType = contentType;
  if (body !== '') info.rawBody = body.length > RAW_BODY_CAP ? body.slice(0, RAW_BODY_CAP) : body;
  const retryAfter = retryAfterOf(h, now);
  if (retryAfter !== undefined) info.retryAfter = retryAfter;
  const requestId = requestIdOf(h);
  if (requestId !== undefined) info.requestId = requestId;

  if (status !== undefined && status >= 300 && status <= 399 && h.location) {
    // The core never follows a redirect (gateway-client.ts): said here, so a 3xx is not read as a failure of the gateway.
    info.type = 'redirect';
    const resent =
      status === 307 || status === 308
        ? 'following it would send the request, key included, to that address'
        : 'following it would turn a POST into a GET without its body, and send the key there';
    info.message = `The gateway redirected this request to ${h.location}${absoluteOf(h.location, requestUrl)}. The app does not follow redirects (${resent}). If that address is right, change the profile's base URL to match it.`;
    return info;
  }
  let json: unknown;
  let cutShort = false;
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = closeCutJson(trimmed);
      cutShort = json !== undefined;
    }
  }
  if (cutShort && isObject(json)) {
    // Only what the cut left whole: a type is kept even when the message after it was cut mid-word.
    const envelope = bodyErrorOf(json);
    const inner = isObject(json.error) ? json.error : json;
    if (envelope && typeof (typeof json.error === 'string' ? json.error : inner.message) === 'string')
      return withEnvelope(info, envelope);
    if (typeof json.detail === 'string') {
      info.message = json.detail;
      return info;
    }
    if (envelope?.type !== undefined) info.type = envelope.type;
    if (envelope?.code !== undefined) info.code = envelope.code;
    info.message = withProxy(`${statusLabel(status)} with a JSON body cut short: "${shortExtract(body)}"`, h);
    return info;
  }
  if (isObject(json)) {
    if (info.requestId === undefined && typeof json.request_id === 'string') info.requestId = json.request_id;
    const isProblem = /problem\+json/i.test(contentType ?? '') || (typeof json.title === 'string' && 'status' in json);
    const envelope = isProblem ? undefined : bodyErrorOf(json);
    if (envelope) {
      if (info.requestId === undefined && isObject(json.error) && typeof json.error.request_id === 'string') {
        info.requestId = json.error.request_id;
      }
      return withEnvelope(info, envelope);
    }
    if (!isProblem && json.detail !== undefined && json.detail !== null) {
      info.message = detailMessage(json.detail);
      return info;
    }
    if (isProblem) {
      const title = typeof json.title === 'string' ? json.title : undefined;
      const detail = json.detail != null ? detailMessage(json.detail) : undefined;
      const summary = [title, detail].filter(Boolean).join(': ');
      info.message = withProxy(`${statusLabel(status)}: ${shortExtract(summary || trimmed)}`, h);
      return info;
    }
  }
  info.message = withProxy(nonJsonMessage(status, body, contentType), h);
  return info;
}

/** The family's error envelope as the error's type, message and code. */
function withEnvelope(info: GatewayErrorInfo, envelope: NonNullable<ReturnType<typeof bodyErrorOf>>): GatewayErrorInfo {
  info.type = envelope.type ?? 'error';
  info.message = envelope.message;
  if (envelope.code !== undefined) info.code = envelope.code;
  return info;
}

function nonJsonMessage(status: number | undefined, body: string, contentType: string | undefined): string {
  if (body.trim() === '') return `${statusLabel(status)} with an empty body`;
  const looksHtml = /html/i.test(contentType ?? '') || /^\s*<(!doctype|html|head|body)/i.test(body);
  const extract = shortExtract(looksHtml ? htmlText(body) : body);
  const what = looksHtml ? 'an HTML page' : 'a non-JSON body';
  return `${statusLabel(status)} with ${what}: "${extract}"`;
}

function withProxy(message: string, h: Record<string, string>): string {
  const extras: string[] = [];
  if (h.server) extras.push(`server: ${h.server}`);
  if (h['cf-ray']) extras.push(`cf-ray: ${h['cf-ray']}`);
  return extras.length ? `${message} (${extras.join(', ')})` : message;
}

interface ErrorFacts {
  codes: string[];
  messages: string[];
  names: string[];
  address?: string;
  port?: number | string;
  hostname?: string;
}

/** The system error may be wrapped (`TypeError: fetch failed` → cause, or an AggregateError of attempts): the codes are collected from every layer. */
function collectFacts(err: unknown, facts: ErrorFacts, depth = 0): void {
  if (depth > 6 || err === null || err === undefined) return;
  if (typeof err !== 'object') {
    facts.messages.push(jsonText(err));
    return;
  }
  const e = err as Record<string, unknown>;
  if (typeof e.code === 'string') facts.codes.push(e.code);
  if (typeof e.message === 'string' && e.message !== '') facts.messages.push(e.message);
  if (typeof e.name === 'string') facts.names.push(e.name);
  if (facts.address === undefined && typeof e.address === 'string') facts.address = e.address;
  if (facts.port === undefined && (typeof e.port === 'number' || typeof e.port === 'string')) facts.port = e.port;
  if (facts.hostname === undefined && typeof e.hostname === 'string') facts.hostname = e.hostname;
  if (e.cause !== undefined) collectFacts(e.cause, facts, depth + 1);
  if (Array.isArray(e.errors)) for (const inner of e.errors) collectFacts(inner, facts, depth + 1);
}

const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|EPROTO$|ERR_OSSL_|HOSTNAME_MISMATCH)/;

/** A request that failed without an HTTP status (refused, reset, timed out, undecodable) in words the user can act on. */
export function describeNetworkError(err: unknown): GatewayErrorInfo {
  const facts: ErrorFacts = { codes: [], messages: [], names: [] };
  collectFacts(err, facts);
  const codes = facts.codes;
  const allText = facts.messages.join(' | ');
  const has = (...list: string[]) => list.find((c) => codes.includes(c));
  const where =
    facts.address !== undefined ? `${facts.address}${facts.port !== undefined ? `:${facts.port}` : ''}` : undefined;
  const detail = facts.messages.filter((m) => m !== 'fetch failed').at(-1) ?? facts.messages[0] ?? String(err);

  if (has('ERR_PROXY_CONFIG')) return { type: 'network:proxy', code: 'ERR_PROXY_CONFIG', message: `${detail}.` };
  // A CONNECT tunnel refused ("Proxy response (407) !== 200"), or a request in absolute form ("… (407)").
  const proxyStatus = /Proxy response \((\d+)\)|Proxy Authentication Required \((\d+)\)/
    .exec(allText)
    ?.slice(1)
    .find(Boolean);
  if (proxyStatus) {
    const why =
      proxyStatus === '407'
        ? ': it asks for credentials (put them in the proxy URL, http://user:password@host:port)'
        : '';
    return {
      type: 'network:proxy',
      code: `HTTP ${proxyStatus}`,
      message: `The proxy refused to connect to the gateway (HTTP ${proxyStatus})${why}. The proxy comes from https_proxy / http_proxy / all_proxy; no_proxy lists hosts reached directly.`,
    };
  }
  let code = has('ECONNREFUSED');
  if (code) {
    return {
      type: 'network:refused',
      code,
      message: `Connection refused by ${where ?? 'the gateway'} — is the gateway running?`,
    };
  }
  code = has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL');
  if (code) {
    const host = facts.hostname ?? /(?:getaddrinfo \S+ )(\S+)/.exec(allText)?.[1];
    return {
      type: 'network:dns',
      code,
      message: `Could not resolve ${host ? `host ${host}` : 'the gateway host'} (${code}) — check the base URL and your DNS.`,
    };
  }
  code = codes.find((c) => TLS_CODE.test(c));
  if (code || /certificate|ssl routines|tls/i.test(allText)) {
    return {
      type: 'network:tls',
      ...(code ? { code } : {}),
      message: `TLS handshake with ${where ?? 'the gateway'} failed: ${detail}`,
    };
  }
  code = has('ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_CLOSED');
  if (code || /other side closed|socket hang up/i.test(allText)) {
    return {
      type: 'network:reset',
      ...(code ? { code } : {}),
      message: `The connection was reset by ${where ?? 'the gateway'} (${detail}).`,
    };
  }
  // zlib's codes are Z_*; Node's brotli decoder reports ERR__ERROR_* ("Decompression failed").
  code = codes.find((c) => /^(Z_|ERR_BROTLI|ERR__|ERR_ZLIB|ERR_CONTENT_DECODING)/.test(c));
  if (code) {
    return {
      type: 'network:decoding',
      code,
      message:
        code === 'ERR_CONTENT_DECODING'
          ? `The gateway's answer was not decoded: ${detail}.`
          : `The gateway's compressed body could not be decoded (${detail}): its content-encoding header does not match the bytes sent.`,
    };
  }
  const badHeader =
    (has('UND_ERR_INVALID_ARG') && /invalid ([\w-]+) header/i.exec(allText)?.[1]?.toLowerCase()) ||
    (has('UND_ERR_NOT_SUPPORTED') && /([\w-]+) header not supported/i.exec(allText)?.[1]?.toLowerCase());
  if (badHeader) {
    // undici names the header but not its value, which may be the key. It says the same of a header HTTP
    // manages itself (a profile saved before those were refused).
    return {
      type: 'network:invalid-header',
      code: codes.includes('UND_ERR_NOT_SUPPORTED') ? 'UND_ERR_NOT_SUPPORTED' : 'UND_ERR_INVALID_ARG',
      message: TRANSPORT_HEADERS.includes(badHeader)
        ? `The request was not sent: ${badHeader} is a header HTTP sets itself. Remove it from the profile's extra headers.`
        : `The request was not sent: the ${badHeader} header holds a character HTTP headers cannot carry (a line break or another control character). Re-enter the key, or fix that header in the profile.`,
    };
  }
  code = has(
    'ETIMEDOUT',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
    'ESOCKETTIMEDOUT',
  );
  if (code || facts.names.includes('TimeoutError')) {
    return {
      type: 'network:timeout',
      ...(code ? { code } : {}),
      message: `The connection to ${where ?? 'the gateway'} timed out (${detail}).`,
    };
  }
  return {
    type: 'network:unknown',
    ...(codes[0] ? { code: codes[0] } : {}),
    message: allText && allText !== detail ? `${detail} (${allText})` : detail,
  };
}
