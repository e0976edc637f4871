/**
 * The browser host's gatekeeping over real loopback HTTP and WebSocket: token on every request, Host and
 * Origin checks, malformed request targets, and malformed or oversized frames answered or dropped without
 * taking the host down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { createCore, type Core } from '../core/service';
import { LayeredVault } from '../core/vault';
import { metaCspOf, metaPolicy } from '../core/renderer-csp';
import { parseArgs } from './cli';
import { startWebHost, type RunningWebHost } from './server';

let core: Core;
let host: RunningWebHost;
let dataDir: string;
let staticDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-web-'));
  staticDir = mkdtempSync(path.join(os.tmpdir(), 'gp-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>GP</title>');
  writeFileSync(path.join(staticDir, 'app.js'), 'console.log(1)');
  core = await createCore({ dataDir, host: 'web', version: 'test', vault: new LayeredVault(undefined, undefined) });
  host = await startWebHost({ core, port: 0, staticDir });
});
afterAll(async () => {
  await host.close();
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(staticDir, { recursive: true, force: true });
});

function get(
  pathAndQuery: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: host.port, path: pathAndQuery, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends bytes as written (no client library would send a malformed target) and returns what came back. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(host.port, '127.0.0.1', () => socket.write(request));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString()));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    // A handler that threw leaves the socket hanging: fail fast instead of at the test timeout.
    setTimeout(() => {
      socket.destroy();
      resolve(`${out}[no answer]`);
    }, 2000);
  });
}

function connect(query: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws${query}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function call(
  ws: WebSocket,
  msg: unknown,
): Promise<{ id: number | null; result: { ok: boolean; error?: { code: string } } }> {
  return new Promise((resolve) => {
    ws.once('message', (d: Buffer) => resolve(JSON.parse(d.toString())));
    ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  });
}

describe('browser host', () => {
  it('serves the page only with the token, its scripts without, and sets no cookie any other local port would get', async () => {
    expect((await get('/')).status).toBe(401);
    const wrong = await get('/?token=wrong');
    expect(wrong.status).toBe(401);
    // Whichever command started the host, the page says where its address is, naming both.
    expect(wrong.body).toContain('`npm start` or `npm run web`');
    expect(wrong.body).toContain('Open the address it printed when it started');
    // The same file by another spelling is the same page.
    expect((await get('/%69ndex.html')).status).toBe(401);
    expect((await get('/index.html')).status).toBe(401);
    const ok = await get(`/?token=${host.token}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('<title>GP</title>');
    expect(ok.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(ok.headers['set-cookie']).toBeUndefined();
    const script = await get('/app.js');
    expect(script.status).toBe(200);
    expect(script.body).toBe('console.log(1)');
    expect(script.headers['set-cookie']).toBeUndefined();
    // A script is still refused to a page of another origin or a rebound host name.
    expect((await get('/app.js', { origin: 'https://evil.example' })).status).toBe(403);
    expect((await get('/app.js', { host: 'evil.example:80' })).status).toBe(403);
  });

  it('refuses a foreign Host (DNS rebinding) or Origin with 403, even with the token', async () => {
    expect((await get(`/?token=${host.token}`, { host: 'evil.example:80' })).status).toBe(403);
    expect((await get(`/?token=${host.token}`, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await get(`/?token=${host.token}`, { host: `localhost:${host.port}` })).status).toBe(200);
  });

  it('does not serve files outside the renderer folder', async () => {
    const res = await get(`/..%2F..%2Fetc%2Fpasswd?token=${host.token}`);
    expect(res.status).toBe(404);
  });

  it('answers a request target it cannot read with 400 and keeps serving, before and after the token check', async () => {
    const hostHeader = `Host: 127.0.0.1:${host.port}`;
    expect(await raw(`GET //[x HTTP/1.1\r\n${hostHeader}\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw(`GET http://[zz/ HTTP/1.1\r\n${hostHeader}\r\nConnection: close\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 400 /,
    );
    expect(
      await raw(`GET /%E0%A4%A?token=${host.token} HTTP/1.1\r\n${hostHeader}\r\nConnection: close\r\n\r\n`),
    ).toMatch(/^HTTP\/1\.1 400 /);
    const upgrade =
      'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==';
    expect(await raw(`GET http://[zz/ HTTP/1.1\r\n${hostHeader}\r\n${upgrade}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw(`GET //[x?token=${host.token} HTTP/1.1\r\n${hostHeader}\r\n${upgrade}\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 400 /,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await get(`/?token=${host.token}`)).status).toBe(200);
    const ws = await connect(`?token=${host.token}`);
    expect(await call(ws, { id: 4, name: 'app:info', input: {} })).toMatchObject({ result: { ok: true } });
    ws.close();
  });

  it('refuses WebSockets without the token or from another origin', async () => {
    await expect(connect('')).rejects.toThrow('HTTP 401');
    await expect(connect(`?token=${host.token}`, { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
  });

  it('answers calls over the WebSocket and turns malformed frames into Result errors', async () => {
    const ws = await connect(`?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}` });
    try {
      expect(await call(ws, { id: 1, name: 'app:info', input: {} })).toMatchObject({ id: 1, result: { ok: true } });
      expect(await call(ws, 'not json')).toMatchObject({
        id: null,
        result: { ok: false, error: { code: 'invalid_message' } },
      });
      expect(await call(ws, { id: 'x', name: 7 })).toMatchObject({
        result: { ok: false, error: { code: 'invalid_message' } },
      });
      expect(await call(ws, { id: 2, name: 'profiles:save', input: { baseUrl: 'javascript:alert(1)' } })).toMatchObject(
        {
          id: 2,
          result: { ok: false, error: { code: 'invalid_input' } },
        },
      );
      expect(await call(ws, { id: 3, name: 'profiles:list', input: {} })).toMatchObject({
        id: 3,
        result: { ok: true },
      });
    } finally {
      ws.close();
    }
  });

  it('drops an oversized frame by closing that socket only; the host keeps serving', async () => {
    const ws = await connect(`?token=${host.token}`);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('x'.repeat(33 * 1024 * 1024 + 100 * 1024));
    expect(await closed).toBe(1009);
    const again = await connect(`?token=${host.token}`);
    expect(await call(again, { id: 9, name: 'app:info', input: {} })).toMatchObject({ result: { ok: true } });
    again.close();
  });
});

describe("the page's CSP", () => {
  it('says in its meta tag what the header says: the WebSocket of this port only', async () => {
    const pageDir = mkdtempSync(path.join(os.tmpdir(), 'gp-page-'));
    writeFileSync(path.join(pageDir, 'index.html'), readFileSync(path.resolve('renderer/index.html')));
    const other = await startWebHost({ core, port: 0, staticDir: pageDir });
    try {
      const page = await new Promise<{ header: string; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: other.port, path: `/?token=${other.token}` }, (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ header: String(res.headers['content-security-policy']), body }));
          })
          .on('error', reject);
      });
      expect(page.header).toContain(`connect-src 'self' ws://127.0.0.1:${other.port} ws://localhost:${other.port};`);
      expect(metaCspOf(page.body)).toBe(metaPolicy(page.header));
      expect(page.body).not.toContain(':*');
    } finally {
      await other.close();
      rmSync(pageDir, { recursive: true, force: true });
    }
  });
});

describe('browser host shutdown', () => {
  it('closes at once with a WebSocket open and a request half sent, and a second close is the same close', async () => {
    const other = await startWebHost({ core, port: 0, staticDir });
    const url = `ws://127.0.0.1:${other.port}/ws?token=${other.token}`;
    let stopped = false;
    const open = (): Promise<void> =>
      new Promise((resolve) => {
        const ws = new WebSocket(url);
        ws.on('error', () => {});
        ws.once('open', () => resolve());
        ws.on('close', () => void (stopped || open()));
      });
    await open();
    const half = net.connect(other.port, '127.0.0.1');
    half.on('error', () => {});
    await new Promise((resolve) => half.once('connect', resolve));
    half.write(`POST /?token=${other.token} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-length: 100\r\n\r\npartial`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = await Promise.race([
      other.close().then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000)),
    ]);
    stopped = true;
    half.destroy();
    expect(closed).toBe(true);
    const again = await Promise.race([
      other.close().then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000)),
    ]);
    expect(again).toBe(true);
  });
});

describe('npm run web flags', () => {
  it('reads --port, --data-dir, --no-open and refuses unknown or malformed flags', () => {
    const a = parseArgs(['--port', '0', '--data-dir', '/tmp/x', '--no-open'], {});
    expect(a).toMatchObject({ port: 0, dataDir: '/tmp/x', open: false });
    expect(parseArgs([], { GATEWAY_PLAYGROUND_DATA: '/srv/gp' }).dataDir).toBe('/srv/gp');
    expect(() => parseArgs(['--port', 'abc'], {})).toThrow(/whole number/);
    expect(() => parseArgs(['--bogus'], {})).toThrow(
      'Unknown option --bogus. Options: --port N, --data-dir DIR, --no-open, --persist-keys',
    );
    expect(parseArgs(['--port=8787', '--persist-keys'], {})).toMatchObject({
      port: 8787,
      persistKeys: true,
      open: true,
    });
    expect(() => parseArgs(['--port'], {})).toThrow('--port needs a whole number, got nothing');
    expect(() => parseArgs(['--data-dir'], {})).toThrow('--data-dir needs a folder');
    expect(() => parseArgs(['--port', '70000'], {})).toThrow('--port must be 0–65535');
    expect(() => parseArgs(['stray'], {})).toThrow(/Unexpected argument 'stray'/);
  });
});
