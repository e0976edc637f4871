/**
 * The embedded simulated gateway: all five endpoints, deterministic, with realistic faults. It is the app's
 * Demo gateway and the gateway of the whole test suite, and the official SDKs must be able to read it.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ProtocolId } from '../../../shared/protocols/types';
import { DEFAULT_KEYS, findModel, SIM_MODELS, type SimModel } from './catalogue';
import { inputTokens, plan, readConversation, RequestError, type Conversation, type Turn } from './conversation';
import { errorFrame, renderBody, renderFrames, type Frame, type Meta } from './render';
import { createRelays, relayFrames, type RelayedRequest, type Relays } from './relays';

export { DEFAULT_KEYS, DEMO_KEY, SIM_MODELS, type SimModel } from './catalogue';

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** API key → model ids it may use. */
  keys?: Record<string, string[]>;
  /** Pause between streamed deltas (ms). */
  delayMs?: number;
  /** Where a key is read from; both by default. A gateway that takes only one (Azure's api-key, say) for tests. */
  authHeaders?: ('x-api-key' | 'authorization')[];
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

type Family = 'anthropic' | 'openai';

/**
 * Whose conventions (error envelope, request-id header, /v1/models shape) an answer follows. /v1/messages* is
 * always the first family's; /v1/models serves both, and like new-api (docs/protocols.md §5) the simulator gives
 * the first family's shape only to a caller that sends both `x-api-key` and `anthropic-version`.
 */
function familyOf(path: string, headers: IncomingMessage['headers']): Family {
  if (path.startsWith('/v1/messages')) return 'anthropic';
  return path === '/v1/models' && headers['anthropic-version'] && headers['x-api-key'] ? 'anthropic' : 'openai';
}

function requestId(state: State, fam: Family): string {
  return `${fam === 'anthropic' ? 'req_sim' : 'req-sim-'}${createHash('md5').update(`${state.counter}`).digest('hex').slice(0, 20)}`;
}

function baseHeaders(state: State, fam: Family): Record<string, string> {
  const id = requestId(state, fam);
  return fam === 'anthropic'
    ? {
        'request-id': id,
        'anthropic-ratelimit-requests-limit': '1000',
        'anthropic-ratelimit-requests-remaining': '999',
        'anthropic-ratelimit-requests-reset': new Date(Date.now() + 60_000).toISOString(),
      }
    : {
        'x-request-id': id,
        'openai-processing-ms': '12',
        'x-ratelimit-limit-requests': '1000',
        'x-ratelimit-remaining-requests': '999',
        'x-ratelimit-reset-requests': '60ms',
      };
}

function sendError(
  res: ServerResponse,
  state: State,
  fam: Family,
  status: number,
  type: string,
  message: string,
  code?: string,
  extra: Record<string, string> = {},
): void {
  const headers: Record<string, string> = { ...baseHeaders(state, fam), 'content-type': 'application/json', ...extra };
  const body =
    fam === 'anthropic'
      ? { type: 'error', error: { type, message }, request_id: headers['request-id'] }
      : { error: { message, type, param: null, code: code ?? null } };
  res.writeHead(status, headers).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const BOTH_AUTH: NonNullable<SimulatorOptions['authHeaders']> = ['x-api-key', 'authorization'];

function keyOf(req: IncomingMessage, from = BOTH_AUTH): string | undefined {
  const x = req.headers['x-api-key'];
  if (from.includes('x-api-key') && typeof x === 'string' && x) return x;
  if (!from.includes('authorization')) return undefined;
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
}

/** The first family's `limit`: an integer 1–1000, default 20 (docs/protocols.md §5); anything else is a 400 upstream. */
function pageLimit(raw: string | null): number | string {
  if (raw === null) return 20;
  if (!/^-?\d+$/.test(raw.trim()))
    return 'limit: Input should be a valid integer, unable to parse string as an integer';
  const n = Number(raw);
  if (n < 1) return 'limit: Input should be greater than or equal to 1';
  if (n > 1000) return 'limit: Input should be less than or equal to 1000';
  return n;
}

function modelsList(req: IncomingMessage, res: ServerResponse, state: State, allowed: string[], url: URL): void {
  const models = SIM_MODELS.filter((m) => allowed.includes(m.id));
  const fam = familyOf('/v1/models', req.headers);
  const headers = { ...baseHeaders(state, fam), 'content-type': 'application/json' };
  if (fam === 'openai') {
    res.writeHead(200, headers).end(
      JSON.stringify({
        object: 'list',
        data: models.map((m) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.ownedBy })),
      }),
    );
    return;
  }
  // The first family's cursor pages: after_id = the page right after that model, before_id = the page right
  // before it. A cursor that names no listed model is refused rather than silently restarting at page 1,
  // which would send a paging client round in circles.
  const limit = pageLimit(url.searchParams.get('limit'));
  if (typeof limit === 'string') return sendError(res, state, fam, 400, 'invalid_request_error', limit);
  const after = url.searchParams.get('after_id');
  const before = url.searchParams.get('before_id');
  if (after !== null && before !== null)
    return sendError(res, state, fam, 400, 'invalid_request_error', 'Only one of after_id and before_id may be given.');
  const cursor = after ?? before;
  const at = cursor === null ? -1 : models.findIndex((m) => m.id === cursor);
  if (cursor !== null && at < 0)
    return sendError(
      res,
      state,
      fam,
      400,
      'invalid_request_error',
      `${after !== null ? 'after_id' : 'before_id'}: no model with id '${cursor}' in this list.`,
    );
  let start: number;
  let end: number;
  let hasMore: boolean;
  if (before !== null) {
    end = at;
    start = Math.max(0, end - limit);
    hasMore = start > 0;
  } else {
    start = at + 1;
    end = Math.min(models.length, start + limit);
    hasMore = end < models.length;
  }
  const page = models.slice(start, end);
  res.writeHead(200, headers).end(
    JSON.stringify({
      data: page.map((m) => ({
        type: 'model',
        id: m.id,
        display_name: m.displayName,
        created_at: new Date(m.created * 1000).toISOString(),
      })),
      has_more: hasMore,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
    }),
  );
}

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
    conv = readConversation(protocol, body);
  } catch (err) {
    if (err instanceof RequestError) return sendError(res, state, fam, err.status, err.type, err.message, err.code);
    throw err;
  }
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
    conv = readConversation('messages', { ...body, max_tokens: 1_000_000 });
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
