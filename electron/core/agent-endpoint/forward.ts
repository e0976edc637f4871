/**
 * One exchange of a connected agent (docs/agents.md, "Connect a real agent"): the agent's request sent on to
 * the profile's gateway with the profile's auth, and the answer passed back byte for byte as it arrives while
 * the same bytes are read as a run for History (runs/execute.ts reads them through `send`).
 */
import type { ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { RunStartInput } from '../../../shared/contract';
import type { Ledger } from '../../../shared/contract';
import {
  buildRequest,
  gatewayRequest,
  safeResponseHeaders,
  type BuiltRequest,
  type GatewayResponse,
} from '../http/request';
import { joinUrl } from '../../../shared/url';
import type { Profile } from '../profiles';
import type { RequestSignal } from '../http/timer';
import { ledgerOf } from '../runs/ledger';
import type { Ending, RunContext } from '../runs';
import { scrub } from '../secrets';
import { agentHeadersOf, errorBody, HOP_BY_HOP, type Route } from './guard';
import { streamScrubber, type StreamScrubber } from './scrub-stream';
import type { IncomingHttpHeaders } from 'node:http';

/** What the agent sent, read whole (bodies are capped before this). */
export interface AgentRequest {
  route: Route;
  /** `?beta=true` and the like, as sent. */
  search: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface BuiltExchange {
  req: BuiltRequest;
  ledger: Ledger;
  model?: string;
}

/** The request to the gateway: the agent's headers and body, the profile's URL, auth and secret headers. */
export function buildExchange(
  runId: string,
  profile: Profile,
  key: string | undefined,
  secrets: readonly string[],
  agent: AgentRequest,
  token: string,
  sessionId: string,
): BuiltExchange {
  const { route } = agent;
  const text = agent.body.toString('utf8');
  const body = parsedObject(text);
  const stream = body?.stream === true;
  const req = buildRequest(profile, key, route.method, route.path, route.method === 'POST' ? {} : undefined, {
    stream,
    secrets,
    clientHeaders: agentHeadersOf(agent.headers, token),
  });
  // The agent's own bytes and query string, not a copy made from them.
  req.url = joinUrl(profile.baseUrl, route.path) + agent.search;
  if (route.method === 'POST') req.body = text;
  else delete req.headers['content-type'];
  const input = { protocol: route.protocol, body: body ?? {}, warnings: [] } as unknown as z.output<
    typeof RunStartInput
  >;
  const ledger: Ledger = {
    ...ledgerOf(runId, input, profile, req),
    method: route.method,
    sessionId,
    path: route.path + agent.search,
  };
  return { req, ledger, model: typeof body?.model === 'string' ? body.model : undefined };
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The run's way to send: the gateway's head goes to the agent at once, and every chunk of the body goes to the
 * agent (scrubbed of the profile's secrets) before the run reads it. A body the run lets go of early (a relay
 * holding the connection open after the terminal event) ends the agent's answer there too; a body cut by the
 * gateway or a timeout cuts the agent's connection, as a direct connection would have been cut.
 */
export function teeTo(
  res: ServerResponse,
  key: string | undefined,
  firstFamily: boolean,
): (req: BuiltRequest, signal: RequestSignal) => Promise<GatewayResponse> {
  return async (req, signal) => {
    const answer = await gatewayRequest(req, signal);
    const withheld = withheldBecause(answer, req.secrets);
    if (withheld) {
      // The run still reads (and keeps) the gateway's real answer; the agent gets why it did not.
      res
        .writeHead(502, { 'content-type': 'application/json' })
        .end(errorBody(firstFamily, { status: 502, type: 'api_error', message: withheld }));
      return answer;
    }
    try {
      res.writeHead(
        answer.status,
        scrub(answer.statusText, req.secrets),
        headersForAgent(answer.headers, req.secrets, key),
      );
    } catch (err) {
      // Nothing of the answer can go on: the gateway's body is let go of rather than left open.
      await answer.body[Symbol.asyncIterator]().return?.();
      throw err;
    }
    res.flushHeaders();
    return { ...answer, body: relay(answer.body, res, streamScrubber(req.secrets)) };
  };
}

/**
 * Why the gateway's answer is not passed on to the agent, if it is not (docs/security.md §12): a redirect would
 * be followed by the agent's client with the local token, to wherever it points; a body in an encoding not
 * undone here could not be scrubbed.
 */
function withheldBecause(answer: GatewayResponse, secrets: readonly string[]): string | undefined {
  const { status, headers } = answer;
  if (status >= 300 && status <= 399) {
    const to = headers.location === undefined ? 'nowhere' : hintless(scrub(headers.location, secrets));
    return `The gateway answered ${status}, a redirect to ${to}; redirects are not passed on to the agent.`;
  }
  const left = encodingsOf(headers['content-encoding']).filter((e) => !DECODED.has(e));
  if (left.length > 0)
    return `The gateway answered with an unsupported content-encoding (${hintless(scrub(left.join(', '), secrets))}): it cannot be checked for the key, so it is not passed on.`;
  return undefined;
}

/** A content-encoding list as http/decode.ts reads it: lower case, empty entries dropped. */
function encodingsOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
}

async function* relay(body: AsyncIterable<Uint8Array>, res: ServerResponse, scrubber: StreamScrubber) {
  let failed = false;
  try {
    for await (const chunk of body) {
      // The agent hung up (session.ts cancels the run then): nothing more is read for it.
      if (res.destroyed) throw new Error('The agent closed the connection.');
      const out = scrubber.write(chunk);
      if (out.byteLength > 0 && !res.write(out)) await drained(res);
      yield chunk;
    }
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    if (failed) res.destroy();
    else if (!res.writableEnded) res.end(scrubber.end());
  }
}

/** The agent read what was written, or is gone: a 'close' that came already would never come again. */
function drained(res: ServerResponse): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Encodings gatewayRequest decodes (http/decode.ts): the agent gets the body decoded, so not their label. */
const DECODED = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'identity']);

/** A header name as HTTP allows it (RFC 9110 token): scrubbing a name may leave one that is not. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The key's hint (`[redacted …abcd]`) is for the app's ledger; a header value must be Latin-1 anyway. */
const hintless = (text: string) => text.replace(/\[redacted [^\]]*\]/g, '[redacted]');

/** The gateway's headers for the agent: scrubbed like any that leave the core, without the connection's own. */
function headersForAgent(
  headers: Record<string, string>,
  secrets: readonly string[],
  key: string | undefined,
): Record<string, string> {
  const out = safeResponseHeaders(headers, secrets, key);
  // Any encoding left is refused before this (withheldBecause): the body goes on decoded.
  delete out['content-encoding'];
  // Scrubbing may change the body's length: the agent gets it chunked.
  delete out['content-length'];
  for (const name of Object.keys(out)) {
    if (HOP_BY_HOP.has(name) || !TOKEN.test(name)) delete out[name];
    else out[name] = hintless(out[name]);
  }
  return out;
}

/**
 * count_tokens and the model list are not a model's reply: a 2xx JSON body with the count or the list is
 * complete (the run's readers would look for a reply in it). Everything else is judged as any run.
 */
export function judgeAux(route: Route): ((ending: Ending, ctx: RunContext) => Ending) | undefined {
  const aux = route.aux;
  if (!aux) return undefined;
  return (ending, ctx) => {
    const status = ctx.state.response?.status;
    if (status === undefined || status < 200 || status > 299) return ending;
    if (ending.verdict === 'cancelled' || ending.verdict === 'timeout' || ending.verdict === 'network-error')
      return ending;
    const doc = parsedObject(ending.rawBody ?? '');
    const count = doc?.input_tokens;
    const list = doc?.data;
    ctx.warnings.length = 0;
    if (aux === 'count_tokens' && typeof count === 'number')
      return {
        verdict: 'complete',
        reason: `Counted ${count} input tokens.`,
        transcript: { blocks: [], usage: { inputTotal: count } },
        rawBody: ending.rawBody,
      };
    if (aux === 'models' && Array.isArray(list))
      return {
        verdict: 'complete',
        reason: `Listed ${list.length} models.`,
        transcript: { blocks: [], usage: {} },
        rawBody: ending.rawBody,
      };
    const what = aux === 'count_tokens' ? 'an input_tokens count' : 'a model list';
    return { ...ending, verdict: 'http-error', reason: `HTTP ${status}, but the body is not ${what}.` };
  };
}
