import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { dispatchRequest } from './dispatch';
import { sendOverKeptAlive } from './kept-alive';
import { RequestTimer } from './timer';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

const OK = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok';

/**
 * A gateway on raw TCP: `answer(n)` says whether the n-th request on a connection (from 1) is answered; one that
 * is not gets its connection reset, as a request crossing the gateway's idle close does.
 */
async function gateway(answer: (nth: number) => boolean) {
  const seen = { connections: 0, requests: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    seen.connections++;
    sockets.add(socket);
    let nth = 0;
    let buffered = '';
    socket.on('data', (data) => {
      // Answered once the whole request is in (head and its body "{}"): undici drops a connection answered sooner.
      buffered += data.toString();
      for (let end = buffered.indexOf('\r\n\r\n{}'); end >= 0; end = buffered.indexOf('\r\n\r\n{}')) {
        buffered = buffered.slice(end + 6);
        nth++;
        seen.requests++;
        if (answer(nth)) socket.write(OK);
        else socket.resetAndDestroy();
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const agent = new Agent();
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await agent.close();
    await new Promise((r) => server.close(r));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/messages`;
  const send = async () => {
    const t = new RequestTimer({ headersMs: 5_000, idleMs: 5_000 });
    const head = await sendOverKeptAlive(agent, t.signal, () =>
      dispatchRequest(agent, url, { method: 'POST', headers: {}, body: '{}' }, t.signal),
    );
    let text = '';
    for await (const chunk of head.body) text += Buffer.from(chunk).toString();
    t.done();
    return `${head.statusCode} ${text}`;
  };
  return { seen, send };
}

describe('a request over a kept-alive connection the gateway closed meanwhile', () => {
  it('goes again on a new connection, and the user gets the answer', async () => {
    // The second request on a connection meets the gateway's close of it.
    const gw = await gateway((nth) => nth === 1);
    expect(await gw.send()).toBe('200 ok');
    // The connection back in the pool, idle, as between two clicks of Send.
    await new Promise((r) => setTimeout(r, 50));
    expect(await gw.send()).toBe('200 ok');
    expect(gw.seen).toEqual({ connections: 2, requests: 3 });
  });

  it('is not sent again when the reset came on a new connection: the gateway resets, and the user sees it', async () => {
    const gw = await gateway(() => false);
    await expect(gw.send()).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|UND_ERR_SOCKET/) });
    expect(gw.seen).toEqual({ connections: 1, requests: 1 });
  });
});
