import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gatewayDispatcher } from './proxy';
import { dispatchRequest } from './dispatch';
import { RequestTimer } from './timer';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handle: http.RequestListener): Promise<string> {
  const server = http.createServer(handle);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/messages`;
}

const send = (url: string, timer: RequestTimer) =>
  dispatchRequest(gatewayDispatcher, url, { method: 'POST', headers: {}, body: '{}' }, timer.signal);

const timer = () => new RequestTimer({ headersMs: 5_000, idleMs: 5_000 });

describe('dispatchRequest: a body read as it arrives', () => {
  it('reads the chunks in order, then the end, and says when the whole body has arrived', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-ratelimit-remaining': '9' }).write('one ');
      setTimeout(() => res.end('two'), 30);
    });
    const t = timer();
    const head = await send(url, t);
    expect([head.statusCode, head.statusText, head.headers['x-ratelimit-remaining']]).toEqual([200, 'OK', '9']);
    let text = '';
    for await (const chunk of head.body) text += Buffer.from(chunk).toString();
    expect(text).toBe('one two');
    expect(head.body.complete).toBe(true);
    t.done();
  });

  it('answers reads asked for together in order, and each learns the end', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200).write('a');
      setTimeout(() => res.write('b'), 20);
      setTimeout(() => res.end(), 40);
    });
    const t = timer();
    const head = await send(url, t);
    const reads = [head.body.next(), head.body.next(), head.body.next(), head.body.next()];
    const got = (await Promise.all(reads)).map((r) => (r.done ? 'end' : Buffer.from(r.value).toString()));
    expect(got).toEqual(['a', 'b', 'end', 'end']);
    t.done();
  });

  it('answers with the final head after informational ones', async () => {
    const url = await serve((_req, res) => {
      res.writeProcessing();
      res.writeHead(201).end('made');
    });
    const t = timer();
    const head = await send(url, t);
    expect(head.statusCode).toBe(201);
    t.done();
  });

  it('keeps what arrived before the connection broke, then throws what broke it', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' }).write('partial');
      setTimeout(() => res.socket?.destroy(), 30);
    });
    const t = timer();
    const head = await send(url, t);
    const chunks: string[] = [];
    const err = await (async () => {
      for await (const chunk of head.body) chunks.push(Buffer.from(chunk).toString());
    })().catch((e: unknown) => e);
    expect(chunks.join('')).toBe('partial');
    expect(err).toBeInstanceOf(Error);
    expect(head.body.complete).toBe(false);
    t.done();
  });

  it('stops reading the socket while the reader lags, so a fast gateway cannot fill memory', async () => {
    let pushedBack = -1;
    let written = 0;
    const piece = Buffer.alloc(16 * 1024, 'x');
    const url = await serve((_req, res) => {
      res.writeHead(200);
      const more = () => {
        while (written < 8 * 1024 * 1024) {
          written += piece.length;
          if (!res.write(piece)) {
            if (pushedBack < 0) pushedBack = written;
            res.once('drain', more);
            return;
          }
        }
        res.end();
      };
      more();
    });
    const t = timer();
    const head = await send(url, t);
    const chunks = head.body[Symbol.asyncIterator]();
    await chunks.next();
    await new Promise((r) => setTimeout(r, 200));
    // The server was pushed back long before its 8 MB were written: the client held the socket.
    expect(pushedBack).toBeGreaterThan(0);
    expect(written).toBeLessThan(4 * 1024 * 1024);
    let read = 0;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) read += next.value.byteLength;
    expect(read + piece.length).toBeGreaterThanOrEqual(8 * 1024 * 1024 - piece.length);
    expect(head.body.complete).toBe(true);
    t.done();
  });

  it('a body let go before its end cancels the request: the gateway sees the connection close', async () => {
    let closed: Promise<void> = Promise.resolve();
    const url = await serve((_req, res) => {
      closed = new Promise((r) => res.on('close', () => r()));
      res.writeHead(200).write('data: 1\n\n');
    });
    const t = timer();
    const head = await send(url, t);
    await head.body.next();
    expect(await head.body.return()).toEqual({ value: undefined, done: true });
    await closed;
    expect(await head.body.next()).toEqual({ value: undefined, done: true });
    t.done();
  });

  it('a stop while the body arrives ends the read with the stop, and one before the head sends nothing', async () => {
    const url = await serve((_req, res) => void res.writeHead(200).write('first'));
    const t = timer();
    const head = await send(url, t);
    await head.body.next();
    const reading = head.body.next();
    t.cancel();
    await expect(reading).rejects.toThrow('cancelled');

    let asked = 0;
    const quiet = await serve(() => void asked++);
    const early = timer();
    const sent = send(quiet, early);
    early.cancel();
    await expect(sent).rejects.toThrow('cancelled');
    const stopped = timer();
    stopped.cancel();
    await expect(send(quiet, stopped)).rejects.toThrow('cancelled');
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toBe(0);
  });
});
