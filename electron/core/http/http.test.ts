import { afterEach, describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import type { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants as zlibConstants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { errors as undiciErrors } from 'undici';
import { describeNetworkError } from '../../../shared/errors';
import { buildRequest, describeRequestError, gatewayRequest, safeResponseHeaders } from './request';
import { proxyFor, proxyShown } from './proxy';
import { readBody, readBodyText, sniffBody } from './body';
import { requestSecrets, scrub, secretWatchingDecoder } from '../secrets';
import { RequestTimer } from './timer';
import type { Profile } from '../profiles';

const KEY = 'sk-live-0123456789abcdef';

describe('secretWatchingDecoder', () => {
  it('sees a key split across two chunks at any byte, by the time its last byte is decoded', () => {
    const body = Buffer.from(`data: {"text":"é ${KEY}"}\n\n`);
    const start = body.indexOf(KEY);
    for (let cut = start; cut <= start + KEY.length; cut++) {
      const d = secretWatchingDecoder([KEY]);
      const text = d.write(body.subarray(0, cut));
      expect(d.sawSecret).toBe(cut === start + KEY.length);
      expect(text + d.write(body.subarray(cut)) + d.end()).toBe(body.toString());
      expect(d.sawSecret).toBe(true);
    }
  });

  it('sees a key spread over many one-byte chunks, and never one that is not there', () => {
    const d = secretWatchingDecoder([KEY]);
    for (const byte of Buffer.from(`x${KEY}y`)) d.write(Uint8Array.of(byte));
    expect(d.sawSecret).toBe(true);
    const clean = secretWatchingDecoder([KEY]);
    clean.write(Buffer.from(`data: ${KEY.slice(0, -1)}`));
    clean.write(Buffer.from('X\n\n'));
    expect(clean.sawSecret).toBe(false);
    expect(secretWatchingDecoder([]).write(Buffer.from(KEY))).toBe(KEY);
  });

  it('sees a secret exactly when the whole body holds it, however the body is cut and whatever its first chunk looks like', () => {
    // The search is tuned on the first chunk (finderFor): bodies whose first chunk lacks the secret's rarer
    // characters, or is full of them, or holds almost nothing but the secret's letters.
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    // The last has characters that are not ASCII, which a chunk may cut in two.
    const secrets = ['demo-key', 'sk-Qx7-9', 'aaaa', 'clé-Ω42'];
    const pieces = [
      '"type":"content_block_delta"',
      'demo',
      '-',
      'key',
      'ke',
      'y',
      'sk-',
      'Q',
      'x7',
      '-9',
      'a',
      'aa',
      ' ',
      'é',
      '\n',
      'cl',
      'clé',
      '-Ω',
      '42',
      'Ω',
    ];
    for (let round = 0; round < 400; round++) {
      let body = '';
      const n = 1 + rand(40);
      for (let i = 0; i < n; i++) body += pieces[rand(pieces.length)];
      const bytes = Buffer.from(body);
      const cuts = [...new Set(Array.from({ length: rand(6) }, () => rand(bytes.length + 1)))].sort((a, b) => a - b);
      const watched = [secrets[rand(4)], ...(rand(2) ? [secrets[rand(4)]] : [])];
      const d = secretWatchingDecoder(watched);
      let out = '';
      let from = 0;
      for (const cut of [...cuts, bytes.length]) {
        out += d.write(bytes.subarray(from, cut));
        from = cut;
      }
      out += d.end();
      expect(out).toBe(body);
      expect(d.sawSecret, `${JSON.stringify(watched)} in ${JSON.stringify(body)} cut at ${cuts.join(',')}`).toBe(
        watched.some((x) => body.includes(x)),
      );
    }
  });

  it('scrub replaces every occurrence', () => {
    expect(scrub(`${KEY} and ${KEY}`, [KEY])).toBe('[redacted] and [redacted]');
  });

  it('with two secrets, sees either one split across two chunks at any byte, and only once it is whole', () => {
    // Longer than the key, so a carry of the key's length alone would miss its start.
    const header = 'Bearer sk-helicone-split-0123456789abcdefghij';
    for (const secret of [header, KEY]) {
      const body = Buffer.from(`data: {"error":"invalid helicone-auth: ${secret}"}\n\n`);
      const start = body.indexOf(secret);
      for (let cut = start + 1; cut < start + secret.length; cut++) {
        const d = secretWatchingDecoder([KEY, header]);
        const text = d.write(body.subarray(0, cut));
        expect(d.sawSecret).toBe(false);
        expect(text + d.write(body.subarray(cut)) + d.end()).toBe(body.toString());
        expect(d.sawSecret, `${secret} cut at ${cut - start}`).toBe(true);
      }
    }
    const clean = secretWatchingDecoder([KEY, header]);
    clean.write(Buffer.from(header.slice(0, -1)));
    clean.write(Buffer.from(`X ${KEY.slice(1)}`));
    expect(clean.sawSecret).toBe(false);
  });

  it('scrub replaces each secret, a longer one that holds another whole, and a short one only as a whole word', () => {
    const token = 'sk-hel-0123456789';
    expect(
      scrub(`auth=Bearer ${token}; token=${token}; key=${KEY}; tiny=abc; word=abcdef`, [
        KEY,
        token,
        `Bearer ${token}`,
        'abc',
      ]),
    ).toBe('auth=[redacted]; token=[redacted]; key=[redacted]; tiny=[redacted]; word=abcdef');
  });
});

describe('describeRequestError', () => {
  it('classifies a failed request and scrubs every secret its text quotes, through its causes too', () => {
    // As undici's request() throws it: its own error class, with the system error as the cause.
    const err = new undiciErrors.SocketError('other side closed');
    err.cause = Object.assign(new Error(`read ECONNRESET after x-api-key: ${KEY}`), { code: 'ECONNRESET' });
    const info = describeRequestError(err, [KEY]);
    expect(info.type).toBe('network:reset');
    expect(info.message).toContain('[redacted]');
    expect(info.message).not.toContain(KEY);
  });
});

describe('safeResponseHeaders', () => {
  it('scrubs the key from every value and redacts secret-looking names, but not token counts', () => {
    const h = {
      'x-echo': `Bearer ${KEY}`,
      'www-authenticate': `Bearer realm="${KEY}"`,
      authorization: `Bearer ${KEY}`,
      'set-cookie': 'sid=abc',
      'x-auth-token': 'tok',
      'x-ratelimit-limit-tokens': '1000',
      'content-type': 'application/json',
    };
    expect(safeResponseHeaders(h, [KEY], KEY)).toEqual({
      'x-echo': 'Bearer [redacted]',
      'www-authenticate': 'Bearer realm="[redacted]"',
      authorization: 'Bearer [redacted …cdef]',
      'set-cookie': '[redacted]',
      'x-auth-token': '[redacted]',
      'x-ratelimit-limit-tokens': '1000',
      'content-type': 'application/json',
    });
  });

  it('scrubs every secret of the request, also beside the key in a reflected credential', () => {
    const helicone = 'Bearer sk-helicone-0123456789';
    const h = {
      'x-debug': `upstream saw helicone-auth=${helicone}`,
      'x-echo-helicone-auth': helicone,
      authorization: `Bearer ${KEY}, ${helicone}`,
    };
    expect(safeResponseHeaders(h, [KEY, helicone], KEY)).toEqual({
      'x-debug': 'upstream saw helicone-auth=[redacted]',
      'x-echo-helicone-auth': '[redacted]',
      authorization: 'Bearer [redacted …cdef], [redacted]',
    });
  });
});

describe('buildRequest', () => {
  const bearerProfile = (extraHeaders: Record<string, string>): Profile => ({
    id: 'p',
    name: 'P',
    baseUrl: 'https://gw.example',
    authScheme: 'bearer',
    extraHeaders,
  });

  it('keeps the values of secret headers out of the plain headers the ledger shows', () => {
    const profile = bearerProfile({
      'helicone-auth': 'Bearer sk-helicone-0123456789',
      'x-trace': 'from Bearer sk-helicone-0123456789',
      'x-team': 'blue',
    });
    const req = buildRequest(profile, KEY, 'POST', '/v1/chat/completions', {});
    expect(req.headers['x-trace']).toBe('from Bearer sk-helicone-0123456789');
    expect(req.redactedHeaders).toMatchObject({
      authorization: 'Bearer [redacted …cdef]',
      'helicone-auth': '[redacted]',
      'x-trace': 'from [redacted]',
      'x-team': 'blue',
    });
  });

  it("hides the same secrets the core scrubs from answers: a Bearer credential's bare token too", () => {
    const profile = bearerProfile({
      'helicone-auth': 'Bearer sk-helicone-0123456789',
      'x-upstream-user': 'sk-helicone-0123456789',
      'x-auth-mode': 'null',
    });
    const req = buildRequest(profile, KEY, 'POST', '/v1/chat/completions', {});
    expect(req.redactedHeaders['x-upstream-user']).toBe('[redacted]');
    // A credential-named header is hidden by its name whatever its value; a short ordinary value is not
    // scrubbed out of other headers (or answers), where it would only break the text around it.
    expect(req.redactedHeaders['x-auth-mode']).toBe('[redacted]');
    const withPlain = buildRequest(
      { ...profile, extraHeaders: { ...profile.extraHeaders, 'x-mode-note': 'null means default' } },
      KEY,
      'POST',
      '/v1/chat/completions',
      {},
    );
    expect(withPlain.redactedHeaders['x-mode-note']).toBe('null means default');
    expect(requestSecrets(KEY, profile.extraHeaders, (n) => n === 'helicone-auth' || n === 'x-auth-mode')).toEqual([
      KEY,
      'Bearer sk-helicone-0123456789',
      'sk-helicone-0123456789',
    ]);
  });

  it("sends a replayed client's headers, but never its credentials and never over the profile's own", () => {
    const profile = bearerProfile({ 'X-Team': 'blue', 'user-agent': 'relay-approved/1.0' });
    const clientHeaders = {
      'X-App': 'cli',
      'user-agent': 'claude-cli/2.1.2 (external, cli)',
      'x-team': 'red',
      Authorization: 'Bearer sk-client-forged',
      'x-api-key': 'sk-client-forged',
    };
    const req = buildRequest(profile, KEY, 'POST', '/v1/messages', {}, { clientHeaders });
    expect(req.headers).toMatchObject({
      'x-app': 'cli',
      'x-team': 'blue',
      'user-agent': 'relay-approved/1.0',
      authorization: `Bearer ${KEY}`,
    });
    expect(req.headers).not.toHaveProperty('x-api-key');
    expect(JSON.stringify(req.headers)).not.toContain('sk-client-forged');
    expect(req.redactedHeaders['x-app']).toBe('cli');
    // Without a profile user-agent the client's replaces the app's own.
    const plain = buildRequest(bearerProfile({}), KEY, 'POST', '/v1/messages', {}, { clientHeaders });
    expect(plain.headers['user-agent']).toBe('claude-cli/2.1.2 (external, cli)');
  });
});

async function* chunks(parts: (string | Uint8Array)[], fail?: Error): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield typeof p === 'string' ? Buffer.from(p) : p;
  if (fail) throw fail;
}

describe('RequestTimer', () => {
  afterEach(() => vi.useRealTimers());

  /** When the timer fires, in ms after it started, with the body active at `activeAt` (ms) if given. */
  const firesAt = (timeouts: { headersMs: number; idleMs: number }, activeAt: number[]) => {
    vi.useFakeTimers();
    const timer = new RequestTimer(timeouts);
    let fired: { at: number; cause: string | undefined } | undefined;
    timer.signal.on('abort', () => (fired = { at: Date.now() - start, cause: timer.cause() }));
    const start = Date.now();
    for (const at of activeAt) {
      vi.advanceTimersByTime(at - (Date.now() - start));
      timer.activity();
    }
    vi.advanceTimersByTime(10_000_000);
    return fired;
  };

  it('gives the headers their clock and each silence of the body its own, whichever is longer', () => {
    expect(firesAt({ headersMs: 600_000, idleMs: 90_000 }, [])).toEqual({ at: 600_000, cause: 'timeout-headers' });
    expect(firesAt({ headersMs: 600_000, idleMs: 90_000 }, [5_000])).toEqual({ at: 95_000, cause: 'timeout-idle' });
    expect(firesAt({ headersMs: 600_000, idleMs: 90_000 }, [5_000, 80_000, 100_000])).toEqual({
      at: 190_000,
      cause: 'timeout-idle',
    });
    expect(firesAt({ headersMs: 1_000, idleMs: 90_000 }, [])).toEqual({ at: 1_000, cause: 'timeout-headers' });
    expect(firesAt({ headersMs: 1_000, idleMs: 90_000 }, [900])).toEqual({ at: 90_900, cause: 'timeout-idle' });
  });

  it('does not fire once the request is done, and says cancelled when stopped', () => {
    vi.useFakeTimers();
    const done = new RequestTimer({ headersMs: 1_000, idleMs: 1_000 });
    done.done();
    vi.advanceTimersByTime(5_000);
    expect(done.signal.aborted).toBe(false);
    const stopped = new RequestTimer({ headersMs: 1_000, idleMs: 1_000 });
    stopped.cancel();
    vi.advanceTimersByTime(5_000);
    expect([stopped.signal.aborted, stopped.cause()]).toEqual([true, 'cancelled']);
  });
});

describe('readBody', () => {
  it('returns the text that arrived and what cut it, instead of throwing it away', async () => {
    const timer = new RequestTimer({ headersMs: 1_000, idleMs: 1_000 });
    const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const body = await readBody(chunks(['{"error":', '{"message":"ov', Buffer.from('é').subarray(0, 1)], reset), timer);
    timer.done();
    expect(body.cut).toBe(reset);
    // The half of a character the cut left is shown as U+FFFD, not dropped silently.
    expect(body.text).toBe('{"error":{"message":"ov\uFFFD');
    expect(body.bytes).toBe(24);
    const whole = await readBody(chunks(['{}']), timer);
    expect(whole).toEqual({ text: '{}', bytes: 2, capped: false });
    expect('cut' in whole).toBe(false);
  });

  it('readBodyText still throws for callers that treat a cut body as a failure', async () => {
    const timer = new RequestTimer({ headersMs: 1_000, idleMs: 1_000 });
    const res = {
      status: 200,
      statusText: 'OK',
      ok: true,
      headers: {},
      body: chunks(['{"a"'], new Error('reset')),
      arrived: () => false,
    };
    await expect(readBodyText(res, timer)).rejects.toThrow('reset');
    timer.done();
  });
});

describe('sniffBody', () => {
  const b = (s: string) => new Uint8Array(Buffer.from(s));
  it('reads the first non-blank bytes, past a BOM and blank lines', () => {
    expect(sniffBody(b('\uFEFF\r\n  {"error":1}'), false)).toBe('document');
    expect(sniffBody(b('[1]'), false)).toBe('document');
    expect(sniffBody(b('<!DOCTYPE html>'), false)).toBe('document');
    for (const s of ['data: {}', 'event: ping', 'id: 1', 'retry: 10', ': keep-alive', '\n\ndata:x'])
      expect(sniffBody(b(s), false), s).toBe('event-stream');
    expect(sniffBody(b('Internal Server Error'), false)).toBe('text');
    expect(sniffBody(b('database down'), false)).toBe('text');
  });

  it('waits while the bytes cannot tell, unless the body has ended', () => {
    expect(sniffBody(b(''), false)).toBeUndefined();
    expect(sniffBody(b(' \n'), false)).toBeUndefined();
    expect(sniffBody(b(' \n'), true)).toBe('empty');
    expect(sniffBody(b('dat'), false)).toBeUndefined();
    expect(sniffBody(b('re'), false)).toBeUndefined();
    expect(sniffBody(b('dat'), true)).toBe('text');
    // A BOM split across the first chunks: an event stream sent as application/json was read as plain text.
    expect(sniffBody(Uint8Array.of(0xef), false)).toBeUndefined();
    expect(sniffBody(Uint8Array.of(0xef, 0xbb), false)).toBeUndefined();
    expect(sniffBody(Uint8Array.of(0xef), true)).toBe('text');
    expect(sniffBody(Uint8Array.of(0xef, 0xbb, 0xbf, 0x64), false)).toBeUndefined();
  });
});

describe('gatewayRequest: bodies as the gateway encoded them', () => {
  const servers: http.Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });
  async function answer(status: number, headers: Record<string, string>, body: Buffer | string): Promise<string> {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(status, headers).end(body));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/models`;
  }
  async function read(url: string) {
    const timer = new RequestTimer({ headersMs: 5_000, idleMs: 5_000 });
    try {
      const res = await gatewayRequest(
        { url, method: 'GET', headers: {}, redactedHeaders: {}, secrets: [] },
        timer.signal,
      );
      return { res, body: await readBody(res.body, timer) };
    } finally {
      timer.done();
    }
  }
  const TEXT = '{"data":[{"id":"m-é"}]}';

  it('inflates gzip, x-gzip, zlib and raw deflate, br, and stacked layers, to the text the gateway meant', async () => {
    const cases: [string, Buffer][] = [
      ['gzip', gzipSync(TEXT)],
      ['x-gzip', gzipSync(TEXT)],
      ['deflate', deflateSync(TEXT)],
      ['deflate', deflateRawSync(TEXT)],
      ['br', brotliCompressSync(TEXT)],
      ['deflate, gzip', gzipSync(deflateSync(TEXT))],
      ['identity', Buffer.from(TEXT)],
    ];
    for (const [encoding, bytes] of cases) {
      const { res, body } = await read(await answer(200, { 'content-encoding': encoding }, bytes));
      expect(body, encoding).toEqual({ text: TEXT, bytes: Buffer.byteLength(TEXT), capped: false });
      expect(res.headers['content-encoding']).toBe(encoding);
      // A body read as it came says when it has all arrived; one inflated here never claims it.
      expect(res.arrived(), encoding).toBe(encoding === 'identity');
    }
  });

  it('is as lenient as browsers: an empty body, a 204, and gzip flushed but never finished read without error', async () => {
    expect((await read(await answer(200, { 'content-encoding': 'gzip' }, ''))).body).toEqual({
      text: '',
      bytes: 0,
      capped: false,
    });
    expect((await read(await answer(204, { 'content-encoding': 'gzip' }, ''))).body).toEqual({
      text: '',
      bytes: 0,
      capped: false,
    });
    const unfinished = gzipSync(TEXT, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    // Whole and not cut: a strict decoder gives the same text, then fails for the missing trailer.
    expect((await read(await answer(200, { 'content-encoding': 'gzip' }, unfinished))).body).toEqual({
      text: TEXT,
      bytes: Buffer.byteLength(TEXT),
      capped: false,
    });
  });

  it('leaves an encoding it does not know as it came, even one named like an object property', async () => {
    for (const encoding of ['compress', 'constructor', 'gzip, toString']) {
      const { body } = await read(await answer(200, { 'content-encoding': encoding }, TEXT));
      expect(body.text, encoding).toBe(TEXT);
    }
  });

  it('a body that does not match its encoding is cut with a decoding error, not a connection one', async () => {
    for (const encoding of ['gzip', 'br', 'deflate']) {
      const { body } = await read(
        await answer(200, { 'content-encoding': encoding }, 'plain text, not compressed at all'),
      );
      expect(body.cut, encoding).toBeDefined();
      expect(describeNetworkError(body.cut), encoding).toMatchObject({
        type: 'network:decoding',
        message: expect.stringMatching(/compressed body could not be decoded/),
      });
    }
  });

  it('inflates only as fast as the body is read: a small deflate body that expands a thousandfold does not pile up in memory', async () => {
    const url = await answer(200, { 'content-encoding': 'deflate' }, deflateRawSync(Buffer.alloc(64 * 1024 * 1024)));
    const timer = new RequestTimer({ headersMs: 5_000, idleMs: 5_000 });
    const res = await gatewayRequest(
      { url, method: 'GET', headers: {}, redactedHeaders: {}, secrets: [] },
      timer.signal,
    );
    const body = res.body as Readable;
    const chunks = body[Symbol.asyncIterator]();
    expect((await chunks.next()).done).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(body.readableLength).toBeLessThan(1024 * 1024);
    await chunks.return?.();
    timer.done();
  });

  it('refuses more than five layers of encoding before reading the body', async () => {
    const url = await answer(200, { 'content-encoding': 'gzip, gzip, gzip, gzip, gzip, gzip' }, TEXT);
    const timer = new RequestTimer({ headersMs: 5_000, idleMs: 5_000 });
    const err = await gatewayRequest(
      { url, method: 'GET', headers: {}, redactedHeaders: {}, secrets: [] },
      timer.signal,
    ).catch((e: unknown) => e);
    timer.done();
    expect(describeNetworkError(err)).toMatchObject({
      type: 'network:decoding',
      message: expect.stringMatching(/6 content encodings/),
    });
  });
});

describe('proxyFor: the proxy variables as curl reads them', () => {
  const env = {
    HTTPS_PROXY: 'http://corp-proxy:3128',
    http_proxy: 'plain-proxy:8080',
    NO_PROXY: '.internal.example, api.direct.example:8443, 10.1.2.3, 192.168.0.0/16, fd00::/8, [2001:db8::5]',
  };
  it('picks the proxy by scheme (lower-case http_proxy only, then all_proxy), takes one without a scheme as http://, and leaves loopback direct', () => {
    expect(proxyFor('https://gw.example.com/v1/messages', env)).toBe('http://corp-proxy:3128');
    expect(proxyFor('http://gw.example.com/v1/messages', env)).toBe('http://plain-proxy:8080');
    expect(proxyFor('http://gw.example.com/v1/messages', { HTTP_PROXY: 'http://upper:1' })).toBeUndefined();
    expect(proxyFor('http://gw.example.com/v1/messages', { ALL_PROXY: 'http://all:1' })).toBe('http://all:1');
    expect(
      proxyFor('https://gw.example.com/v1/messages', { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' }),
    ).toBe('http://lower:1');
    for (const url of ['http://127.0.0.1:8787/v1/models', 'http://localhost:1/v1/models', 'http://[::1]:1/v1/models'])
      expect(proxyFor(url, env), url).toBeUndefined();
    expect(proxyFor('https://gw.example.com/v1/models', {})).toBeUndefined();
  });

  it('NO_PROXY: a domain and its subdomains, a host on one port only, an address, a block, or everything', () => {
    const direct = (url: string, e: Record<string, string> = env) => proxyFor(url, e) === undefined;
    expect(direct('https://internal.example/v1/models')).toBe(true);
    expect(direct('https://gw.internal.example/v1/models')).toBe(true);
    expect(direct('https://notinternal.example/v1/models')).toBe(false);
    expect(direct('https://api.direct.example:8443/v1/models')).toBe(true);
    expect(direct('https://api.direct.example/v1/models')).toBe(false);
    expect(direct('http://10.1.2.3:4000/v1/models')).toBe(true);
    expect(direct('http://110.1.2.3:4000/v1/models')).toBe(false);
    expect(direct('http://10.1.2.3:4000/v1/models', { http_proxy: 'http://p:1', NO_PROXY: '2.3' })).toBe(false);
    expect(direct('https://192.168.40.7/v1/models')).toBe(true);
    expect(direct('https://[fd12::1]/v1/models')).toBe(true);
    expect(direct('https://[2001:db8:0::5]/v1/models')).toBe(true);
    expect(direct('https://[2001:db8::6]/v1/models')).toBe(false);
    expect(direct('https://anything.example/v1/models', { ...env, NO_PROXY: '*' })).toBe(true);
  });

  it('an error quoting the proxy URL does not show its password', () => {
    const proxy = 'http://alice-corp:s3cret%21pass@corp-proxy:3128';
    const info = describeRequestError(
      new Error(`cannot use ${proxy} (user alice-corp, password s3cret!pass)`),
      [],
      proxy,
    );
    expect(info.message).not.toContain('s3cret');
    expect(info.message).not.toContain('alice-corp');
    expect(info.message).toContain('The request went through the proxy http://[redacted]@corp-proxy:3128.');
  });

  it('the ledger shows where the proxy is, never its credentials', () => {
    expect(proxyShown('http://alice:s3cret@corp-proxy:3128')).toBe('http://[redacted]@corp-proxy:3128');
    expect(proxyShown('http://corp-proxy:3128')).toBe('http://corp-proxy:3128');
  });
});
