/**
 * What the agent endpoint lets in (docs/security.md §12): its own Host, no browser (no Origin), the session's
 * token in constant time, the five gateway paths, bodies up to the contract's cap. Pure: no server, no clock.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ProtocolId } from '../../../shared/protocols/types';

/** A gateway path the endpoint forwards, and how its answer is read for the run. */
export interface Route {
  path: string;
  method: 'GET' | 'POST';
  /** How the answer is read for History. */
  protocol: ProtocolId;
  /** Not a model's reply (count_tokens, the model list): a 2xx with a JSON body is complete. */
  aux?: 'count_tokens' | 'models';
}

const ROUTES: readonly Route[] = [
  { path: '/v1/messages', method: 'POST', protocol: 'messages' },
  { path: '/v1/messages/count_tokens', method: 'POST', protocol: 'messages', aux: 'count_tokens' },
  { path: '/v1/chat/completions', method: 'POST', protocol: 'chat' },
  { path: '/v1/responses', method: 'POST', protocol: 'responses' },
  { path: '/v1/models', method: 'GET', protocol: 'chat', aux: 'models' },
];

export type Refusal = { status: number; type: string; message: string };

/** Host and Origin: a web page cannot reach the endpoint by DNS rebinding, nor read it across origins. */
export function checkOrigin(headers: IncomingHttpHeaders, port: number): Refusal | undefined {
  const host = headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
    return {
      status: 421,
      type: 'invalid_request_error',
      message: `This endpoint answers only for 127.0.0.1:${port} or localhost:${port}.`,
    };
  if (headers.origin !== undefined)
    return {
      status: 403,
      type: 'permission_error',
      message: 'Requests from a web page are refused: this endpoint is for a coding agent on this machine.',
    };
  return undefined;
}

/** The key the agent sent, in `x-api-key` or `Authorization: Bearer`, compared in constant time. */
export function checkToken(headers: IncomingHttpHeaders, token: string): Refusal | undefined {
  const sent = [headers['x-api-key'], bearerOf(headers.authorization)].filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  const want = digest(token);
  // Every sent value is compared (no early exit on the first): the time says nothing about which one was near.
  let match = false;
  for (const value of sent) match = timingSafeEqual(digest(value), want) || match;
  if (match) return undefined;
  return {
    status: 401,
    type: 'authentication_error',
    message: 'Use the local token shown in the Agents tab as the key (ANTHROPIC_API_KEY, OPENAI_API_KEY or env_key).',
  };
}

function bearerOf(value: string | undefined): string | undefined {
  const m = value === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(value);
  return m?.[1];
}

/** Equal-length digests: timingSafeEqual needs equal lengths, and a length must not leak either. */
const digest = (s: string) => createHash('sha256').update(s).digest();

/** The route for a method and path (query string apart), else undefined. */
export function routeOf(method: string | undefined, pathname: string): Route | undefined {
  return ROUTES.find((r) => r.path === pathname && r.method === method);
}

/** An error body in the family's own shape: the first family's on its paths (or when it sent its version). */
export function errorBody(firstFamily: boolean, refusal: Refusal): string {
  return JSON.stringify(
    firstFamily
      ? { type: 'error', error: { type: refusal.type, message: refusal.message } }
      : { error: { message: refusal.message, type: refusal.type, code: null } },
  );
}

/** Headers never passed on from the agent to the gateway, nor back: they belong to one connection. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The agent's own headers as they go on to the gateway: its user-agent, betas, versions, `x-stainless-*`,
 * `originator`, `session-id`, `x-codex-*`… Not its credentials (the profile's replace them, buildRequest), not
 * one carrying the local token under another name, not the connection's own (hop-by-hop, host, length), and
 * not `accept-encoding`: the answer must arrive as text to be scrubbed, and is passed on unencoded.
 */
export function agentHeadersOf(headers: IncomingHttpHeaders, token: string): Record<string, string> {
  const out: Record<string, string> = {};
  const named = (headers.connection ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (HOP_BY_HOP.has(name) || named.includes(name) || DROPPED.has(name) || value.includes(token)) continue;
    out[name] = value;
  }
  return out;
}

const DROPPED = new Set([
  'host',
  'content-length',
  'accept-encoding',
  'x-api-key',
  'authorization',
  'origin',
  'cookie',
  // What would make the gateway (or a proxy before it) read the request as another: its method, path, host.
  'x-http-method-override',
  'x-method-override',
  'x-original-url',
  'x-rewrite-url',
  'x-forwarded-host',
  'x-forwarded-for',
  'x-forwarded-proto',
  'forwarded',
  'via',
  // The endpoint has read the whole body already; a forwarded 100-continue is refused by undici.
  'expect',
]);
