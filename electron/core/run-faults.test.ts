/**
 * One run against a small local gateway that misbehaves on purpose: keys that must not leak, bodies whose
 * content type lies, error bodies cut short, answers slower than undici's own clocks, empty "successes".
 */
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import type { ProtocolId } from '../../shared/protocols/types';
import { rowsOf } from '../../shared/protocols/event-columns';
import { ProfileInput, type RunUpdate } from '../../shared/contract';
import type { Profile, ProfileStore } from './profiles';
import { RunManager, type RunSink } from './runs';
import type { Timeouts } from './http/timer';

const KEY = 'sk-live-ECHOED-0123456789abcdef';

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A gateway that answers once the request body has arrived. */
async function gateway(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Only what RunManager reads of the store: a key that ProfileInput would now refuse can still be on disk. */
function store(baseUrl: string, key: string, extraHeaders: Record<string, string> = {}): ProfileStore {
  const profile: Profile = { id: 'p', name: 'Faulty', baseUrl, authScheme: 'native', extraHeaders };
  return {
    get: (id: string) => (id === 'p' ? profile : undefined),
    keyFor: () => key,
    secretsFor: () => [key, ...Object.values(extraHeaders)],
  } as unknown as ProfileStore;
}

const BODIES: Record<ProtocolId, (stream: boolean) => Record<string, unknown>> = {
  messages: (stream) => ({ model: 'm', max_tokens: 16, stream, messages: [{ role: 'user', content: 'hi' }] }),
  chat: (stream) => ({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] }),
  responses: (stream) => ({ model: 'm', stream, input: 'hi' }),
};

async function runOnce(
  url: string,
  opts: {
    protocol?: ProtocolId;
    stream?: boolean;
    key?: string;
    headers?: Record<string, string>;
    timeouts?: Timeouts;
    sink?: RunSink;
  } = {},
) {
  const protocol = opts.protocol ?? 'chat';
  const pushed: RunUpdate[] = [];
  const runs = new RunManager(
    store(url, opts.key ?? KEY, opts.headers),
    opts.timeouts ?? { headersMs: 10_000, idleMs: 10_000 },
  );
  const sink = opts.sink ?? { push: (u: RunUpdate) => void pushed.push(u) };
  const { done } = runs.start(
    { profileId: 'p', protocol, warnings: [], origin: 'composer', body: BODIES[protocol](opts.stream ?? true) },
    sink,
  );
  const finished = await done;
  return { finished, result: finished.result, pushed, everything: JSON.stringify({ pushed, finished }) };
}

const CHAT_SSE =
  'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n' +
  'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
  'data: [DONE]\n\n';

describe('a key with a line break in it', () => {
  const wrapped = 'sk-live-SECRET\nKEY-0123456789abcdef';

  it('is refused by ProfileInput with a field error, as is an extra-header value with a control character', () => {
    const base = { name: 'P', baseUrl: 'https://gw.example' };
    for (const key of [
      wrapped,
      'sk-live-abc\r',
      'sk-\u0007bell',
      'sk-live\tabc',
      'sk-live-abc\u2028',
      'sk-\u201cquoted\u201d',
    ]) {
      const parsed = ProfileInput.safeParse({ ...base, key });
      expect(parsed.success, JSON.stringify(key)).toBe(false);
      const issue = parsed.error!.issues[0];
      expect(issue.path).toEqual(['key']);
      expect(issue.message).toMatch(/^the key contains /);
      expect(issue.message).not.toContain('sk-');
    }
    const header = ProfileInput.safeParse({ ...base, extraHeaders: { 'X-Tenant': 'acme\r\nX-Evil: 1' } });
    expect(header.success).toBe(false);
    expect(header.error!.issues[0]).toMatchObject({
      path: ['extraHeaders', 'X-Tenant'],
      message: expect.stringMatching(/line break/),
    });
    expect(ProfileInput.safeParse({ ...base, key: KEY, extraHeaders: { 'X-Tenant': 'acme\tteam é' } }).success).toBe(
      true,
    );
  });

  it('a key already stored with one fails the run without its text reaching a push or the result', async () => {
    let reached = 0;
    const url = await gateway(
      (_req, res) => (reached++, res.writeHead(200, { 'content-type': 'application/json' }).end('{}')),
    );
    const { result, everything } = await runOnce(url, { key: wrapped, stream: false });
    expect(result.verdict).toBe('network-error');
    expect(result.error?.type).toBe('network:invalid-header');
    expect(result.reason).toMatch(
      /^The request was not sent: the (x-api-key|authorization) header holds a character HTTP headers cannot carry/,
    );
    expect(reached).toBe(0);
    expect(everything).not.toContain('SECRET');
    expect(everything).not.toContain('KEY-0123456789abcdef');
  });

  it('an exception that quotes the key is scrubbed from the verdict it turns into', async () => {
    const url = await gateway((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const ends: RunUpdate[] = [];
    const sink: RunSink = {
      push: (u) => {
        if (u.kind === 'response') throw new Error(`renderer refused a header: Bearer ${KEY}`);
        ends.push(u);
      },
    };
    const { result, finished } = await runOnce(url, { sink, stream: false });
    expect(result.verdict).toBe('truncated');
    expect(result.reason).toContain('Bearer [redacted]');
    expect(JSON.stringify({ ends, finished })).not.toContain(KEY);
  });
});

describe('response headers', () => {
  it('a key the gateway echoes in a header, and its own secrets, are redacted; rate-limit token counts are kept', async () => {
    const url = await gateway((req, res) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'x-echo-authorization': String(req.headers.authorization),
          'x-debug': `upstream saw key=${KEY}`,
          'set-cookie': 'sid=s3cr3t',
          'x-session-token': 'tok-abc',
          'x-ratelimit-remaining-tokens': '9000',
          'anthropic-ratelimit-output-tokens-remaining': '800',
        })
        .end('{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}'),
    );
    const { result, everything, pushed } = await runOnce(url, { stream: false });
    expect(result.verdict).toBe('complete');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('s3cr3t');
    expect(everything).not.toContain('tok-abc');
    const shown = pushed.find((u) => u.kind === 'response');
    expect(shown?.kind === 'response' && shown.response.headers).toMatchObject({
      'x-echo-authorization': 'Bearer [redacted …cdef]',
      'x-debug': 'upstream saw key=[redacted]',
      'set-cookie': '[redacted]',
      'x-session-token': '[redacted]',
      'x-ratelimit-remaining-tokens': '9000',
      'anthropic-ratelimit-output-tokens-remaining': '800',
    });
    expect(result.response?.headers['x-debug']).toBe('upstream saw key=[redacted]');
  });
});

describe('a 2xx body whose first bytes contradict its content type', () => {
  it('a plain JSON error labelled text/event-stream is the gateway error, with the body kept', async () => {
    const body = '{"error":{"message":"model not found: foo","type":"invalid_request_error","code":"model_not_found"}}';
    const url = await gateway((_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(body));
    const { result } = await runOnce(url);
    expect(result.verdict).toBe('error-event');
    expect(result.error).toMatchObject({
      status: 200,
      type: 'invalid_request_error',
      code: 'model_not_found',
      message: 'model not found: foo',
    });
    expect(result.reason).toContain('model not found: foo');
    expect(result.rawBody).toBe(body);
    expect(result.warnings.join(' ')).toMatch(/labelled text\/event-stream but starts with "\{"/);
  });

  it('a JSON error after a keep-alive comment, labelled text/event-stream, is read from the raw text', async () => {
    // Written in two pieces that cut the é in two: the text is decoded whole, not per piece.
    const body = Buffer.from(': ping\n\n{"type":"error","error":{"type":"overloaded_error","message":"Surchargé"}}\n');
    const cut = body.indexOf('é') + 1;
    const url = await gateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(body.subarray(0, cut));
      setTimeout(() => res.end(body.subarray(cut)), 20);
    });
    const { result } = await runOnce(url, { protocol: 'messages' });
    expect(result.verdict).toBe('error-event');
    expect(result.error).toMatchObject({ status: 200, type: 'overloaded_error', message: 'Surchargé' });
    expect(result.rawBody).toBe(body.toString());
  });

  it('text that yields no events keeps its text and says so', async () => {
    const url = await gateway((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('upstream exploded — 上游\n'),
    );
    const { result } = await runOnce(url);
    expect(result.verdict).toBe('truncated');
    expect(result.reason).toMatch(/held no events: .*upstream exploded — 上游/);
    expect(result.rawBody).toBe('upstream exploded — 上游\n');
  });

  it('an event stream labelled application/json, or sent with no content type, is folded as one', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, {}] as http.OutgoingHttpHeaders[]) {
      const url = await gateway((_req, res) => res.writeHead(200, headers).end(`\n${CHAT_SSE}`));
      const { result } = await runOnce(url);
      expect(result.verdict, JSON.stringify(headers)).toBe('complete');
      expect(result.transcript.blocks).toEqual([{ kind: 'text', text: 'hi' }]);
      expect(result.metrics.events).toBe(3);
      expect(result.warnings.join(' ')).toMatch(/starts with "data:", like an event stream/);
    }
  });

  it('an event stream whose first field arrives in pieces is still recognised', async () => {
    const url = await gateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('\r\n');
      setTimeout(() => res.write('da'), 30);
      setTimeout(() => res.end(CHAT_SSE.slice(2)), 60);
    });
    const { result } = await runOnce(url);
    expect(result.verdict).toBe('complete');
    expect(result.transcript.blocks).toEqual([{ kind: 'text', text: 'hi' }]);
  });

  it('an event stream behind a BOM split across the first chunks is still recognised', async () => {
    for (const cut of [1, 2]) {
      const url = await gateway((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(CHAT_SSE)]);
        res.write(bytes.subarray(0, cut));
        setTimeout(() => res.end(bytes.subarray(cut)), 30);
      });
      const { result } = await runOnce(url);
      expect(result.verdict, `cut after ${cut}`).toBe('complete');
      expect(result.transcript.blocks).toEqual([{ kind: 'text', text: 'hi' }]);
    }
  });

  it('a labelled stream is not held back: its first event is pushed, and times the first token, before the rest arrives', async () => {
    const url = await gateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(CHAT_SSE.split('\n\n')[0] + '\n\n');
      setTimeout(() => res.end(CHAT_SSE.split('\n\n').slice(1).join('\n\n')), 500);
    });
    const firstEventsAt: number[] = [];
    const t0 = Date.now();
    const pushed: RunUpdate[] = [];
    const { result } = await runOnce(url, {
      sink: {
        push: (u) => {
          if (u.kind === 'events' && firstEventsAt.length === 0) firstEventsAt.push(Date.now() - t0);
          pushed.push(u);
        },
      },
    });
    expect(result.verdict).toBe('complete');
    expect(result.warnings).toEqual([]);
    expect(firstEventsAt[0]).toBeLessThan(400);
    expect(result.metrics.ttftMs).toBeLessThan(400);
    expect(result.metrics.totalMs).toBeGreaterThanOrEqual(500);
  });
});

describe('the finished run lists the events as they were pushed', () => {
  it('a last event without its blank line, sent gzipped and in pieces, is listed once the body ends, with the rest', async () => {
    const sse = `: hello\n\n${CHAT_SSE.replace('"hi"', '"h\u00e9llo \u65e5\u672c"')}`.slice(0, -1);
    const packed = gzipSync(Buffer.from(sse));
    const url = await gateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.write(packed.subarray(0, 20));
      setTimeout(() => res.end(packed.subarray(20)), 30);
    });
    const { finished, pushed } = await runOnce(url);
    const live = pushed.flatMap((u) => (u.kind === 'events' ? rowsOf(u.events) : []));
    expect(finished.result.verdict).toBe('complete');
    expect(live.map((e) => e.type)).toEqual(['comment', 'content', 'finish', '[DONE]']);
    expect(finished.events).toEqual(live);
    expect(finished.result.transcript.blocks[0]).toMatchObject({ text: 'héllo 日本' });
  });
});

describe('an error body cut short or stalled', () => {
  it('a 529 whose JSON body is reset mid-way keeps status, type, retry-after and the bytes that arrived', async () => {
    const partial = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"';
    const url = await gateway((_req, res) => {
      res.writeHead(529, { 'content-type': 'application/json', 'retry-after': '7' });
      res.write(partial);
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const { result } = await runOnce(url, { protocol: 'messages' });
    expect(result.verdict).toBe('http-error');
    expect(result.error).toMatchObject({ status: 529, type: 'overloaded_error', message: 'Overloaded', retryAfter: 7 });
    expect(result.rawBody).toBe(partial);
    expect(result.metrics.bytes).toBe(partial.length);
    expect(result.reason).toMatch(
      /^HTTP 529 overloaded_error: Overloaded \(The connection closed after \d+ bytes of the error body/,
    );
  });

  it('a 503 whose body stalls is still that 503, with its retry-after, and says the body stalled', async () => {
    const url = await gateway((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '7' });
      res.write('{"error":{"message":"over');
    });
    const { result } = await runOnce(url, { timeouts: { headersMs: 5_000, idleMs: 1_000 } });
    expect(result.verdict).toBe('http-error');
    expect(result.error).toMatchObject({ status: 503, retryAfter: 7 });
    expect(result.metrics.status).toBe(503);
    expect(result.rawBody).toBe('{"error":{"message":"over');
    expect(result.reason).toMatch(/^HTTP 503 .*\(The error body stalled: no bytes for 1 s after 25 bytes\.\)$/);
  });
});

describe("the app's timers, not undici's, end a slow answer", () => {
  it('headers and body gaps longer than the process-wide dispatcher allows still complete', async () => {
    const url = await gateway((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(CHAT_SSE.split('\n\n')[0] + '\n\n');
        setTimeout(() => res.end(CHAT_SSE.split('\n\n').slice(1).join('\n\n')), 1_500);
      }, 1_500);
    });
    const before = getGlobalDispatcher();
    // Stands in for undici's 300 s defaults: any fetch left on the process-wide dispatcher fails within ~1 s.
    const impatient = new Agent({ headersTimeout: 1, bodyTimeout: 1 });
    setGlobalDispatcher(impatient);
    try {
      const plain = await fetch(url).then(
        () => 'answered',
        (err: { cause?: { code?: string } }) => err.cause?.code,
      );
      expect(plain).toBe('UND_ERR_HEADERS_TIMEOUT');
      const { result } = await runOnce(url);
      expect(result.verdict).toBe('complete');
      expect(result.transcript.blocks).toEqual([{ kind: 'text', text: 'hi' }]);
      expect(result.metrics.ttfbMs).toBeGreaterThan(1_400);
    } finally {
      setGlobalDispatcher(before);
      await impatient.close();
    }
  });
});

describe('what reaches the gateway is what the ledger shows', () => {
  it("the gateway receives exactly the ledger's headers and body bytes, and nothing the HTTP client adds on its own", async () => {
    let seen: http.IncomingHttpHeaders = {};
    let bodyBytes = 0;
    const server = http.createServer((req, res) => {
      seen = req.headers;
      req.on('data', (c: Buffer) => (bodyBytes += c.length));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(CHAT_SSE);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { finished, result } = await runOnce(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    expect(result.verdict).toBe('complete');
    // Only what HTTP/1.1 itself needs is added: fetch would add accept-encoding, accept-language and sec-fetch-mode.
    const transport = ['host', 'content-length', 'connection'];
    expect(
      Object.keys(seen)
        .filter((n) => !transport.includes(n))
        .sort(),
    ).toEqual(Object.keys(finished.ledger.headers).sort());
    expect(seen['accept-encoding']).toBeUndefined();
    expect(bodyBytes).toBe(finished.ledger.bodyBytes);
  });

  it('the ledger hides every secret the profile store names, whatever the header is called', async () => {
    const url = await gateway((_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(CHAT_SSE));
    const tenant = 'tenant-SECRET-0123456789';
    const profile: Profile = {
      id: 'p',
      name: 'Tenant',
      baseUrl: url,
      authScheme: 'bearer',
      extraHeaders: { 'x-tenant': tenant },
    };
    const profiles = {
      get: () => profile,
      keyFor: () => KEY,
      secretsFor: () => [KEY, tenant],
    } as unknown as ProfileStore;
    const { done } = new RunManager(profiles).start(
      { profileId: 'p', protocol: 'chat', warnings: [], origin: 'composer', body: BODIES.chat(true) },
      { push: () => undefined },
    );
    const finished = await done;
    expect(finished.result.verdict).toBe('complete');
    expect(finished.ledger.headers['x-tenant']).toBe('[redacted]');
    expect(JSON.stringify(finished)).not.toContain('SECRET');
  });

  it('a redirect is shown with its Location, not followed: the POST and its key never reach the other address', async () => {
    let elsewhere = 0;
    const other = await gateway((_req, res) => {
      elsewhere++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(CHAT_SSE);
    });
    const url = await gateway((_req, res) => {
      res.writeHead(307, { location: `${other}/v1/chat/completions`, 'x-request-id': 'req_moved' });
      res.end();
    });
    const { result } = await runOnce(url);
    expect(result.verdict).toBe('http-error');
    expect(result.metrics.status).toBe(307);
    expect(result.error).toMatchObject({ status: 307, type: 'redirect', requestId: 'req_moved' });
    expect(result.reason).toContain(`redirected this request to ${other}/v1/chat/completions`);
    expect(result.reason).toContain('does not follow redirects');
    expect(elsewhere).toBe(0);
    // A relative Location (Express's res.redirect) is named whole, from the request's URL.
    const slash = await gateway((_req, res) => res.writeHead(308, { location: '/v1/chat/completions/' }).end());
    const moved = await runOnce(slash);
    expect(moved.result.reason).toContain(
      `redirected this request to /v1/chat/completions/ (that is, ${slash}/v1/chat/completions/).`,
    );
    expect(moved.result.response?.headers.location).toBe('/v1/chat/completions/');
  });

  it('a stream the gateway compressed without being asked is inflated and folded like any other', async () => {
    const url = await gateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(gzipSync(CHAT_SSE));
    });
    const { result } = await runOnce(url);
    expect(result.verdict).toBe('complete');
    expect(result.transcript.blocks).toEqual([{ kind: 'text', text: 'hi' }]);
    expect(result.response?.headers['content-encoding']).toBe('gzip');
  });

  it('a compressed body cut short ends truncated with what was inflated so far, not as a crash', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i} `);
    const sse =
      words
        .map(
          (w) =>
            `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${w}"}}]}\n\n`,
        )
        .join('') + CHAT_SSE.split('\n\n').slice(1).join('\n\n');
    const packed = gzipSync(sse);
    const url = await gateway((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.write(packed.subarray(0, packed.length >> 1));
      setTimeout(() => req.socket.destroy(), 50);
    });
    const { result } = await runOnce(url);
    expect(result.verdict).toBe('truncated');
    const text = result.transcript.blocks[0]?.kind === 'text' ? result.transcript.blocks[0].text : '';
    expect(text.startsWith('w0 w1 w2 ')).toBe(true);
    expect(text.length).toBeLessThan(words.join('').length);
    expect(result.reason).toContain('other side closed');
  });
});

describe('through a proxy (http_proxy / HTTPS_PROXY)', () => {
  /**
   * A company proxy on loopback: plain requests in absolute form are forwarded (`forwarded`), CONNECT is
   * tunnelled (`tunnels`); `refuse` answers both with that status. `auth` records each Proxy-Authorization.
   */
  async function proxy(
    refuse?: number,
  ): Promise<{ url: string; tunnels: string[]; forwarded: string[]; auth: (string | undefined)[] }> {
    const seen = { tunnels: [] as string[], forwarded: [] as string[], auth: [] as (string | undefined)[] };
    const server = http.createServer((req, res) => {
      seen.forwarded.push(req.url ?? '');
      seen.auth.push(req.headers['proxy-authorization']);
      if (refuse) return void res.writeHead(refuse, { 'proxy-authenticate': 'Basic realm="corp"' }).end();
      const target = new URL(req.url ?? '');
      const headers = { ...req.headers };
      delete headers['proxy-authorization'];
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: req.method,
          headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    server.on('connect', (req, client: net.Socket, head: Buffer) => {
      seen.tunnels.push(req.url ?? '');
      seen.auth.push(req.headers['proxy-authorization']);
      if (refuse) return void client.end(`HTTP/1.1 ${refuse} No\r\n\r\n`);
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ...seen };
  }
  /** The gateway on another loopback address: 127.0.0.1 itself always goes direct. */
  async function farGateway(): Promise<string> {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(CHAT_SSE));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', () => resolve()));
    return `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  }
  async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
    const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    try {
      return await fn();
    } finally {
      for (const [k, v] of Object.entries(before)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }

  it('an http:// gateway is asked through the proxy in absolute form, with its credentials; the ledger names the proxy, credentials hidden', async () => {
    const px = await proxy();
    const gw = await farGateway();
    const withUser = px.url.replace('http://', 'http://alice:s3cret@');
    const { result, finished } = await withEnv({ http_proxy: withUser, no_proxy: '' }, () => runOnce(gw));
    expect(result.verdict).toBe('complete');
    expect(result.transcript.blocks).toEqual([{ kind: 'text', text: 'hi' }]);
    expect(px.forwarded).toEqual([`${gw}/v1/chat/completions`]);
    expect(px.auth).toEqual([`Basic ${Buffer.from('alice:s3cret').toString('base64')}`]);
    expect(finished.ledger.proxy).toBe(px.url.replace('http://', 'http://[redacted]@'));
    expect(JSON.stringify(finished)).not.toContain('s3cret');
  });

  it('a user name alone is sent as curl sends it, "name:"', async () => {
    const px = await proxy();
    const gw = await farGateway();
    const { result } = await withEnv({ http_proxy: px.url.replace('http://', 'http://token123@'), no_proxy: '' }, () =>
      runOnce(gw),
    );
    expect(result.verdict).toBe('complete');
    expect(px.auth).toEqual([`Basic ${Buffer.from('token123:').toString('base64')}`]);
  });

  it('an https:// gateway goes through a CONNECT tunnel', async () => {
    const px = await proxy();
    const gw = (await farGateway()).replace('http://', 'https://');
    // The loopback gateway speaks plain HTTP, so TLS fails inside the tunnel: the tunnel itself is what is shown.
    const { result } = await withEnv({ HTTPS_PROXY: px.url, NO_PROXY: '' }, () => runOnce(gw));
    expect(px.tunnels).toEqual([gw.replace('https://', '')]);
    expect(result.verdict).toBe('network-error');
    expect(result.reason).toContain(`The request went through the proxy ${px.url}.`);
  });

  it('a profile’s Proxy-Authorization header goes to the proxy as its credentials, in absolute form and in a CONNECT, not to the gateway', async () => {
    const px = await proxy();
    const gw = await farGateway();
    const headers = { 'Proxy-Authorization': 'Negotiate corp-ticket-0123' };
    const plain = await withEnv({ http_proxy: px.url.replace('http://', 'http://alice:s3cret@'), no_proxy: '' }, () =>
      runOnce(gw, { headers }),
    );
    expect(plain.result.verdict).toBe('complete');
    expect(
      Object.entries(plain.finished.ledger.headers).find(([name]) => name.toLowerCase() === 'proxy-authorization')?.[1],
    ).toBe('[redacted]');
    expect(plain.everything).not.toContain('corp-ticket-0123');
    await withEnv({ HTTPS_PROXY: px.url, NO_PROXY: '' }, () => runOnce(gw.replace('http://', 'https://'), { headers }));
    expect(px.tunnels).toEqual([gw.replace('http://', '')]);
    expect(px.auth).toEqual(['Negotiate corp-ticket-0123', 'Negotiate corp-ticket-0123']);
    // Without a proxy it is an ordinary header, sent to the gateway as the ledger shows.
    const direct = await withEnv({ http_proxy: '', no_proxy: '' }, () => runOnce(gw, { headers }));
    expect(direct.result.verdict).toBe('complete');
  });

  it('no_proxy sends the run direct, with no proxy in its ledger; upper-case HTTP_PROXY is not read, as curl does not', async () => {
    const px = await proxy();
    const gw = await farGateway();
    const direct = await withEnv({ http_proxy: px.url, no_proxy: '127.0.0.0/8' }, () => runOnce(gw));
    expect(direct.result.verdict).toBe('complete');
    expect(direct.finished.ledger.proxy).toBeUndefined();
    const upper = await withEnv({ HTTP_PROXY: px.url, no_proxy: '' }, () => runOnce(gw));
    expect(upper.result.verdict).toBe('complete');
    expect(upper.finished.ledger.proxy).toBeUndefined();
    expect([...px.forwarded, ...px.tunnels]).toEqual([]);
  });

  it('a proxy that asks for credentials is named as the problem, not the gateway', async () => {
    const px = await proxy(407);
    const gw = await farGateway();
    const { result } = await withEnv({ http_proxy: px.url, no_proxy: '' }, () => runOnce(gw));
    expect(result.verdict).toBe('network-error');
    expect(result.error).toMatchObject({
      type: 'network:proxy',
      message: expect.stringMatching(
        /^The proxy refused to connect to the gateway \(HTTP 407\): it asks for credentials/,
      ),
    });
  });

  it('a proxy that is not running, or not an http(s) proxy, is named in the error', async () => {
    const gw = await farGateway();
    const down = await withEnv({ http_proxy: 'http://127.0.0.1:1', no_proxy: '' }, () => runOnce(gw));
    expect(down.result.verdict).toBe('network-error');
    expect(down.result.error?.type).toBe('network:refused');
    expect(down.result.reason).toContain('The request went through the proxy http://127.0.0.1:1.');
    const socks = await withEnv({ http_proxy: 'socks5://127.0.0.1:1080', no_proxy: '' }, () => runOnce(gw));
    expect(socks.result.error).toMatchObject({
      type: 'network:proxy',
      message: 'The proxy from the environment is a socks5 proxy; only http:// and https:// proxies are supported.',
    });
  });
});

describe('an empty 2xx body', () => {
  for (const [protocol, body] of [
    ['chat', '{}'],
    ['messages', 'null'],
    ['responses', '{"object":"response"}'],
  ] as const) {
    it(`${protocol} ${body}: no content, no stop reason, no usage is not "complete"`, async () => {
      const url = await gateway((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
      const { result } = await runOnce(url, { protocol, stream: false });
      expect(result.verdict).toBe('truncated');
      expect(result.reason).toContain('holds no content, no stop reason and no usage');
      expect(result.rawBody).toBe(body);
    });
  }

  it('an empty answer the gateway did finish, with a stop reason and usage, is complete', async () => {
    const body =
      '{"id":"msg_1","type":"message","role":"assistant","content":[],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":0}}';
    const url = await gateway((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    const { result } = await runOnce(url, { protocol: 'messages', stream: false });
    expect(result.verdict).toBe('complete');
  });
});

describe('the other calls that reach a gateway', () => {
  const wrapped = 'sk-live-SECRET\nKEY-0123456789abcdef';

  it('a stored key with a line break reaches neither the models list error nor the token count', async () => {
    const { ModelsService } = await import('./models-service');
    const { createTokenHandlers } = await import('./token-handlers');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const url = await gateway((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
    );
    const profiles = store(url, wrapped);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gp-faults-'));
    try {
      const models = new ModelsService(dir, profiles, { headersMs: 10_000, idleMs: 10_000 });
      const list = await models.list('p', true);
      expect(list.error?.type).toBe('network:invalid-header');
      expect(JSON.stringify(list)).not.toContain('SECRET');
      const capabilities = { forTarget: () => [] } as unknown as Parameters<typeof createTokenHandlers>[1];
      const handlers = createTokenHandlers(
        { profiles, models } as unknown as Parameters<typeof createTokenHandlers>[0],
        capabilities,
      );
      const count = await handlers['tokens:count'](
        {
          profileId: 'p',
          protocol: 'messages',
          useGateway: 'auto',
          body: { model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
        },
        { send: () => {} },
      );
      expect(count.source).toBe('estimate');
      expect(JSON.stringify(count)).not.toContain('SECRET');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
