/**
 * The embedded simulated gateway: all five endpoints, deterministic, with realistic faults. It is the app's
 * Demo gateway and the gateway of the whole test suite, and the official SDKs must be able to read it.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ProtocolId } from '../../../shared/protocols/types';
import { DEFAULT_KEYS, findModel, type SimModel } from './catalogue';
import { plan, readConversation, RequestError, type Conversation, type Turn } from './conversation';
import { inputTokens } from './tokens';
import { errorFrame, renderBody, renderFrames, type Frame, type Meta } from './render';
import { createRelays, relayFrames, type RelayedRequest, type Relays } from './relays';
import { modelsList } from './models-route';
import { invalidRequest, sendInvalid } from './validation';
import { baseHeaders, familyOf, keyOf, readBody, sendError, type AuthHeader, type Family } from './replies';

export { DEFAULT_KEYS, DEMO_KEY, SIM_MODELS, type SimModel } from './catalogue';

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** API key → model ids it may use. */
  keys?: Record<string, string[]>;
  /** Pause between streamed deltas (ms). */
  delayMs?: number;
  /** Where a key is read from; both by default. A gateway that takes only one (Azure's api-key, say) for tests. */
  authHeaders?: AuthHeader[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface RunningSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
  requests: RecordedRequest[];
}

type Json = Record<string, unknown>;

const ROUTES: Record<string, ProtocolId> = {
  '/v1/messages': 'messages',
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses',
};

interface State {
  keys: Record<string, string[]>;
  delayMs: number;
  cache: Set<string>;
  /** Stored Responses (store: true), for previous_response_id. */
  responses: Map<string, Turn[]>;
  counter: number;
  requests: RecordedRequest[];
  relays: Relays;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `fail(seq)` is the protocol's mid-stream failure frame, numbered after the last frame sent (Responses). */
async function writeFrames(
  res: ServerResponse,
  frames: Frame[],
  model: SimModel,
  protocol: ProtocolId,
  fail: (seq: number) => Frame,
  state: State,
  req: IncomingMessage,
): Promise<void> {
  let closed = false;
  req.on('close', () => (closed = true));
  res.on('close', () => (closed = true));
  const fault = model.fault;
  const deltaCount = frames.filter((f) => f.delta).length;
  const cutAt = Math.max(2, Math.floor(deltaCount / 2));
  const delay = fault === 'firehose' ? 0 : fault === 'slow' ? 400 : state.delayMs;
  let seen = 0;
  let nextSeq = 0;
  let pending = '';
  // A buffering relay (nginx proxy_buffering, a CDN): headers at once, then silence while the whole answer
  // is held back, then every event in one burst.
  if (fault === 'buffered') await sleep(1_200);
  const encode = (f: Frame) =>
    `${f.event ? `event: ${f.event}\n` : ''}data: ${typeof f.data === 'string' ? f.data : JSON.stringify(f.data)}\n\n`;
  const flush = async () => {
    if (!pending) return;
    const buf = Buffer.from(pending, 'utf8');
    pending = '';
    if (fault === 'fragmented') {
      // Tiny writes split events and multi-byte characters across TCP segments.
      for (let i = 0, n = 1; i < buf.length; i += n, n = (n % 7) + 1) {
        res.write(buf.subarray(i, i + n));
        if (i % 11 === 0) await sleep(0);
      }
    } else res.write(buf);
  };
  for (const frame of frames) {
    if (closed) return;
    if (frame.delta) {
      seen++;
      if (fault === 'cut' && seen > cutAt) {
        await flush();
        // Let the partial stream reach the client before the socket dies, as a dropped relay would.
        await sleep(30);
        res.socket?.destroy();
        return;
      }
      if (fault === 'midstream-error' && seen > cutAt) {
        pending += encode(fail(nextSeq));
        await flush();
        res.end();
        return;
      }
      if (fault === 'stall' && seen > 2) {
        await flush();
        await new Promise<void>((resolve) => {
          req.on('close', () => resolve());
          res.on('close', () => resolve());
        });
        return;
      }
      if (fault === 'malformed' && seen === cutAt)
        pending += `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":\n\n`;
    }
    pending += encode(frame);
    if (typeof frame.data === 'object' && typeof frame.data.sequence_number === 'number')
      nextSeq = frame.data.sequence_number + 1;
    if (frame.delta && delay > 0 && fault !== 'buffered') {
      await flush();
      await sleep(delay);
    } else if (pending.length > 32_768) {
      await flush();
      // Node corks a response's socket until the next tick: without a turn of the event loop a firehose would
      // reach the socket only once all of it was written, holding every client back for the whole generation
      // (and this server's other requests with it). A real gateway's bytes leave as they are produced.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (fault === 'done-noise' && protocol !== 'chat') pending += 'data: [DONE]\n\n';
  await flush();
  res.end();
}

async function handleChat(
  req: IncomingMessage,
  res: ServerResponse,
  state: State,
  path: string,
  protocol: ProtocolId,
  body: Json,
  allowed: string[],
): Promise<void> {
  const fam = familyOf(path, req.headers);
  const modelId = typeof body.model === 'string' ? body.model : undefined;
  if (!modelId)
    return sendError(
      res,
      state,
      fam,
      400,
      'invalid_request_error',
      'model: Field required',
      'missing_required_parameter',
    );
  const model = findModel(modelId);
  if (!model || !allowed.includes(model.id)) {
    return sendError(
      res,
      state,
      fam,
      404,
      fam === 'anthropic' ? 'not_found_error' : 'invalid_request_error',
      `model: ${modelId} does not exist or your key cannot use it`,
      'model_not_found',
    );
  }
  if (!model.protocols.includes(protocol)) {
    return sendError(
      res,
      state,
      fam,
      404,
      fam === 'anthropic' ? 'not_found_error' : 'invalid_request_error',
      `The model ${model.id} is not available on ${path}; it is served only on ${model.protocols.map((p) => Object.keys(ROUTES).find((r) => ROUTES[r] === p)).join(', ')}.`,
      'model_not_found',
    );
  }
  if (model.fault === '429') {
    return sendError(
      res,
      state,
      fam,
      429,
      fam === 'anthropic' ? 'rate_limit_error' : 'requests',
      'Rate limit reached for requests. Please try again in 30s.',
      'rate_limit_exceeded',
      { 'retry-after': '30' },
    );
  }
  if (model.fault === 'overloaded') {
    return protocol === 'messages'
      ? sendError(res, state, fam, 529, 'overloaded_error', 'Overloaded')
      : sendError(
          res,
          state,
          fam,
          503,
          'server_error',
          'The server is overloaded or not ready yet.',
          'server_is_overloaded',
          { 'retry-after': '5' },
        );
  }
  if (model.fault === 'html-502') {
    res
      .writeHead(502, { 'content-type': 'text/html; charset=utf-8', server: 'cloudflare', 'cf-ray': '8f00sim-LHR' })
      .end(
        '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>cloudflare</center></body></html>',
      );
    return;
  }

  let conv: Conversation;
  let relayed: RelayedRequest;
  try {
    relayed = state.relays.relay(model.relay, protocol, body);
    body = relayed.body;
    conv = readConversation(protocol, body, model.thinking);
  } catch (err) {
    if (err instanceof RequestError) return sendError(res, state, fam, err.status, err.type, err.message, err.code);
    throw err;
  }
  const invalid = invalidRequest(protocol, body, conv, model);
  if (invalid) return sendInvalid(res, state, protocol, invalid);
  if (protocol === 'responses' && typeof body.previous_response_id === 'string') {
    const prev = state.responses.get(body.previous_response_id);
    if (!prev)
      return sendError(
        res,
        state,
        fam,
        400,
        'invalid_request_error',
        `Previous response with id '${body.previous_response_id}' not found.`,
        'previous_response_not_found',
      );
    conv.turns = [...prev, ...conv.turns];
  }
  const reply = plan(protocol, conv, model, relayed.freshCache ? new Set() : state.cache, state.counter);
  const prefix = protocol === 'messages' ? 'msg_sim' : protocol === 'chat' ? 'chatcmpl-sim' : 'resp_sim';
  const meta: Meta = {
    id: `${prefix}${createHash('md5').update(`${state.counter}|${model.id}`).digest('hex').slice(0, 20)}`,
    created: 1760000000 + state.counter,
  };
  if (protocol === 'responses' && body.store !== false) {
    state.responses.set(meta.id, [
      ...conv.turns,
      {
        role: 'assistant',
        text: reply.text ?? '',
        images: [],
        toolCall: reply.toolCall ? { id: reply.toolCall.id, name: reply.toolCall.name } : undefined,
      },
    ]);
  }
  const headers = baseHeaders(state, fam);

  if (model.fault === '200-error') {
    const err =
      fam === 'anthropic'
        ? { type: 'error', error: { type: 'api_error', message: 'upstream returned no choices' } }
        : {
            error: {
              message: 'model_not_found: no channel available for this model',
              type: 'new_api_error',
              code: 'model_not_found',
            },
          };
    if (!conv.stream)
      return void res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(err));
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(`${fam === 'anthropic' ? 'event: error\n' : ''}data: ${JSON.stringify(err)}\n\n`);
    return;
  }

  if (protocol === 'responses' && body.background === true && !conv.stream) {
    res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(
      JSON.stringify(
        renderBody(protocol, reply, model, meta, conv, body) && {
          ...renderBody(protocol, reply, model, meta, conv, body),
          status: 'queued',
          output: [],
          usage: null,
        },
      ),
    );
    return;
  }

  if (!conv.stream) {
    const json = JSON.stringify(relayed.answer(renderBody(protocol, reply, model, meta, conv, body)));
    if (model.fault === 'cut') {
      res.writeHead(200, {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(json)),
      });
      res.write(json.slice(0, Math.floor(json.length / 2)));
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    if (model.fault === 'slow' || model.fault === 'stall') await sleep(model.fault === 'slow' ? 800 : 60_000);
    res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(json);
    return;
  }
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  const fail = (seq: number) => errorFrame(protocol, seq, reply, model, meta, conv, body);
  await writeFrames(
    res,
    relayFrames(renderFrames(protocol, reply, model, meta, conv, body), relayed),
    model,
    protocol,
    fail,
    state,
    req,
  );
}

function countTokensRoute(res: ServerResponse, state: State, body: Json, allowed: string[]): void {
  const fam: Family = 'anthropic';
  for (const field of ['max_tokens', 'stream', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'metadata']) {
    if (field in body)
      return sendError(res, state, fam, 400, 'invalid_request_error', `${field}: Extra inputs are not permitted`);
  }
  const modelId = typeof body.model === 'string' ? body.model : '';
  const model = findModel(modelId);
  if (!model || !allowed.includes(model.id))
    return sendError(
      res,
      state,
      fam,
      404,
      'not_found_error',
      `model: ${modelId || '(none)'} does not exist or your key cannot use it`,
    );
  if (!model.protocols.includes('messages'))
    return sendError(
      res,
      state,
      fam,
      404,
      'not_found_error',
      `The model ${model.id} cannot be counted on this endpoint.`,
    );
  let conv: Conversation;
  try {
    conv = readConversation('messages', { ...body, max_tokens: 1_000_000 }, model.thinking);
  } catch (err) {
    if (err instanceof RequestError) return sendError(res, state, fam, err.status, err.type, err.message);
    throw err;
  }
  res
    .writeHead(200, { ...baseHeaders(state, fam), 'content-type': 'application/json' })
    .end(JSON.stringify({ input_tokens: inputTokens(conv) }));
}

export function createSimulatorHandler(
  opts: SimulatorOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const state: State = {
    keys: opts.keys ?? DEFAULT_KEYS,
    delayMs: opts.delayMs ?? 12,
    cache: new Set(),
    responses: new Map(),
    counter: 0,
    requests: [],
    relays: createRelays(),
  };
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    state.counter++;
    const url = new URL(req.url ?? '/', 'http://sim');
    const path = url.pathname.replace(/\/+$/, '');
    const fam = familyOf(path, req.headers);
    const text = await readBody(req);
    let body: unknown;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        state.requests.push({ method: req.method ?? '', path, headers: req.headers, body: text });
        return sendError(res, state, fam, 400, 'invalid_request_error', 'The request body is not valid JSON.');
      }
    }
    state.requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    const known = path === '/v1/models' || path === '/v1/messages/count_tokens' || path in ROUTES;
    if (!known) return sendError(res, state, fam, 404, 'not_found_error', `Unknown path ${path}.`, 'unknown_url');
    const expected = path === '/v1/models' ? 'GET' : 'POST';
    if (req.method !== expected)
      return sendError(
        res,
        state,
        fam,
        405,
        'invalid_request_error',
        `Method ${req.method} is not allowed on ${path}; use ${expected}.`,
      );
    const key = keyOf(req, opts.authHeaders);
    const allowed = key ? state.keys[key] : undefined;
    if (!allowed) {
      return sendError(
        res,
        state,
        fam,
        401,
        fam === 'anthropic' ? 'authentication_error' : 'invalid_request_error',
        key ? 'invalid x-api-key' : 'No API key provided.',
        'invalid_api_key',
      );
    }
    if (path === '/v1/models') return modelsList(req, res, state, allowed, url);
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return sendError(res, state, fam, 400, 'invalid_request_error', 'The request body must be a JSON object.');
    if (path === '/v1/messages/count_tokens') return countTokensRoute(res, state, body as Json, allowed);
    return handleChat(req, res, state, path, ROUTES[path], body as Json, allowed);
  };
  const wrapped = (req: IncomingMessage, res: ServerResponse) => {
    handler(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      // A crash still answers like the route's upstream would: its family's envelope and request-id header.
      const path = new URL(req.url ?? '/', 'http://sim').pathname.replace(/\/+$/, '');
      const fam = familyOf(path, req.headers);
      sendError(
        res,
        state,
        fam,
        500,
        fam === 'anthropic' ? 'api_error' : 'server_error',
        `Internal server error (${String(err)})`,
      );
    });
  };
  return Object.assign(wrapped, { requests: state.requests });
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  const handler = createSimulatorHandler(opts) as ReturnType<typeof createSimulatorHandler> & {
    requests: RecordedRequest[];
  };
  const server = http.createServer(handler);
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    port,
    requests: handler.requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
