/**
 * The browser host: the built renderer and one WebSocket for the contract, on 127.0.0.1 only. A random
 * per-launch token is required on the WebSocket, which carries every call, and on the page itself (its URL
 * holds it, and the page hands it to the WebSocket); the other built files are the same for everyone and need
 * none. No cookie: a browser sends 127.0.0.1's cookies to every local port, so any other local server would
 * receive the token. Host/Origin are checked on every request so a web page the user visits cannot reach the
 * host through DNS rebinding or a cross-site WebSocket (docs/security.md).
 */
import http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { fail, MAX_FRAME_BYTES, type Result } from '../../shared/contract';
import type { Core, Receiver } from '../core/service';
import { rendererFile } from '../core/renderer-files';
import { rendererCsp, withMetaCsp } from '../core/renderer-csp';

export interface WebHostOptions {
  core: Core;
  port: number;
  staticDir: string;
  token?: string;
}

export interface RunningWebHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function sameToken(a: string | undefined | null, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The request target as a URL, or undefined when it does not parse: `GET //[x` reads as a scheme-relative URL
 * with a bad host and `new URL` throws, which in a request handler would take the whole host down.
 */
function parseTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://placeholder');
  } catch {
    return undefined;
  }
}

const BAD_REQUEST: [number, string] = [400, 'Bad Request: the request target cannot be read.'];

/**
 * The 401 text: true whichever way the host was started (`npm start` falls back to this host and prints the
 * same address `npm run web` does), and for an old tab whose token is from an earlier start.
 */
export const UNAUTHORIZED =
  'Unauthorized: this address does not carry the access token of the running Gateway Playground (a token is ' +
  'made anew each time it starts). Open the address it printed when it started: ' +
  '"Gateway Playground: http://127.0.0.1:PORT/?token=…", in the terminal where you ran `npm start` or `npm run web`.';

export async function startWebHost(opts: WebHostOptions): Promise<RunningWebHost> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  /**
   * null = allowed; otherwise the status and reason to refuse with. `withToken`: the page and the WebSocket
   * need the token; the scripts and styles the page loads do not.
   */
  const check = (req: http.IncomingMessage, url: URL, withToken: boolean): [number, string] | null => {
    if (!req.headers.host || !allowedHosts().has(req.headers.host)) return [403, 'Forbidden: unexpected Host header.'];
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin)) return [403, 'Forbidden: cross-origin request.'];
    if (!withToken || sameToken(url.searchParams.get('token'), token)) return null;
    return [401, UNAUTHORIZED];
  };

  // The page's own WebSocket, on this host's port only.
  const csp = () => rendererCsp(`'self' ws://127.0.0.1:${port} ws://localhost:${port}`);

  const staticRoot = path.resolve(opts.staticDir);
  const serveHttp = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = parseTarget(req.url);
    const target = url ? rendererFile(staticRoot, url.pathname) : undefined;
    // Judged by the file a path names, so `/%69ndex.html` needs the token as `/` does.
    const refused = url && target ? check(req, url, 'status' in target || target.rel === 'index.html') : BAD_REQUEST;
    if (!url || !target || refused) {
      const [status, text] = refused ?? BAD_REQUEST;
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if ('status' in target) {
      if (target.status === 400)
        res.writeHead(BAD_REQUEST[0], { 'content-type': 'text/plain; charset=utf-8' }).end(BAD_REQUEST[1]);
      else res.writeHead(404).end();
      return;
    }
    const { file, rel } = target;
    let body: Buffer;
    try {
      body = await fs.readFile(file);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const headers: Record<string, string> = {
      'content-type': target.contentType,
      'content-security-policy': csp(),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cache-control': rel === 'index.html' ? 'no-store' : 'private, max-age=3600',
    };
    // The page's <meta> tag carries the Electron policy as built: here it says what the header says.
    if (rel === 'index.html')
      body = Buffer.from(withMetaCsp(body.toString('utf8'), headers['content-security-policy']));
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
  };
  // Nothing a request does may reject unheard: an unhandled rejection ends the host process, and with it the app.
  const server = http.createServer((req, res) => {
    serveHttp(req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Internal error.');
    });
  });

  // Upgraded sockets leave the HTTP server's connection list, so closeAllConnections() cannot reach them, yet
  // server.close() still waits for them: every socket is tracked and destroyed on close, or shutdown hangs on
  // a WebSocket (or a half-sent request) that never ends.
  const sockets = new Set<Socket>();
  let closed: Promise<void> | undefined;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  server.on('upgrade', (req, socket, head) => {
    // The HTTP server stops listening for errors on a socket it hands over: a peer resetting it before the
    // refusal is written would otherwise be an uncaught 'error'.
    socket.on('error', () => socket.destroy());
    try {
      const url = parseTarget(req.url);
      const refused = !url
        ? BAD_REQUEST
        : url.pathname === '/ws'
          ? check(req, url, true)
          : ([404, 'Not found'] as [number, string]);
      if (refused) {
        socket.end(
          `HTTP/1.1 ${refused[0]} ${http.STATUS_CODES[refused[0]]}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${refused[1]}`,
        );
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => serve(ws));
    } catch {
      socket.destroy();
    }
  });

  const serve = (ws: WebSocket) => {
    const receiver: Receiver = {
      send(name, payload) {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ push: name, payload }));
      },
    };
    const reply = (id: unknown, result: Result<unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: typeof id === 'number' ? id : null, result }));
    };
    ws.on('message', (data, isBinary) => {
      handle(data, isBinary).catch(() => ws.terminate());
    });
    const handle = async (data: RawData, isBinary: boolean): Promise<void> => {
      if (isBinary) return reply(null, fail('invalid_message', 'Binary messages are not accepted.'));
      let msg: { id?: unknown; name?: unknown; input?: unknown };
      try {
        // ws hands text frames over as one Buffer (its default binaryType, 'nodebuffer').
        msg = JSON.parse((data as Buffer).toString()) as typeof msg;
      } catch {
        return reply(null, fail('invalid_message', 'The message is not JSON.'));
      }
      if (!msg || typeof msg !== 'object' || typeof msg.name !== 'string' || typeof msg.id !== 'number') {
        return reply(msg?.id, fail('invalid_message', 'A call needs a numeric id and a name.'));
      }
      reply(msg.id, await opts.core.dispatch(msg.name, msg.input, receiver));
    };
    ws.on('close', () => opts.core.receiverClosed(receiver));
    ws.on('error', () => ws.terminate());
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close() {
      // Twice is once: a second server.close() would wait for a 'close' event that has already fired.
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const client of wss.clients) client.terminate();
        wss.close();
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}
