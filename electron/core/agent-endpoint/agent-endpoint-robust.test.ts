/**
 * Integration (docs/security.md §12): the agent endpoint against malformed requests, a gateway that answers
 * oddly, and an agent that hangs up. Every case ends with an answer or a closed connection, never a crash, a
 * hung run or a key passed on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { AgentConnection, ProfilesState, RecordedRun } from '../../../shared/contract';
import type { Core } from '../service';
import { newCore, value } from '../testing/core-harness';

/** A key that can stand in a header name, as a gateway echoing it in one would put it. */
const KEY = 'sk-ant-api03-abcdefghijklmnop0123456789';
type Gateway = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** The raw bytes a request written by hand gets back, read until the endpoint closes or `waitMs` passes. */
function raw(port: number, data: string, waitMs = 1500): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    const out: Buffer[] = [];
    const done = () => {
      s.destroy();
      resolve(Buffer.concat(out).toString('latin1'));
    };
    s.on('data', (d: Buffer) => out.push(d));
    s.on('error', done);
    s.on('close', done);
    s.write(data);
    setTimeout(done, waitMs);
  });
}

describe('agent endpoint: odd requests, odd gateways, agents that hang up', () => {
  let core: Core;
  let gateway: http.Server;
  let conn: AgentConnection;
  let profileId: string;
  let answer: Gateway = (_req, res) => res.writeHead(500).end();
  const sink = { send: () => undefined };
  const turnIds: string[] = [];

  beforeAll(async () => {
    ({ core } = await newCore());
    gateway = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(req, res));
    });
    await new Promise<void>((res) => gateway.listen(0, '127.0.0.1', () => res()));
    const baseUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Odd', baseUrl, key: KEY, authScheme: 'x-api-key' }, sink),
    );
    profileId = saved.profiles.find((p) => p.name === 'Odd')!.id;
    await core.dispatch('profiles:select', { id: profileId }, sink);
    conn = value<AgentConnection>(await core.dispatch('agents:connect', { profileId }, sink));
    await core.dispatch(
      'agents:session',
      {},
      {
        send: (name: string, u: unknown) => {
          const update = u as { turn?: { runId: string } };
          if (name === 'agents:update' && update.turn && !turnIds.includes(update.turn.runId))
            turnIds.push(update.turn.runId);
        },
      },
    );
  });
  afterAll(async () => {
    await core.close();
    gateway.closeAllConnections();
    await new Promise<void>((res) => gateway.close(() => res()));
  });

  it('answers a request target that is not a path with 400, and goes on serving', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      for (const target of ['//[', '//%', '//a:99999/', 'http://[x']) {
        const got = await raw(conn.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${conn.port}\r\n\r\n`);
        expect(got, target).toMatch(/^HTTP\/1\.1 400/);
      }
      // A stranger's Host is refused before the target is read at all.
      const stranger = await raw(conn.port, `GET //[ HTTP/1.1\r\nHost: evil.example:${conn.port}\r\n\r\n`);
      expect(stranger).toMatch(/^HTTP\/1\.1 421/);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    const models = await fetch(`${conn.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${conn.token}` } });
    expect(models.status).toBe(200);
  });

  it('ends the run as cancelled, and keeps it, when the agent hangs up in a fast stream', async () => {
    const event = (i: number) =>
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${'x'.repeat(900)} ${i}"}}\n\n`;
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const pump = (): void => {
        while (i < 20000) if (!res.write(event(i++))) return void res.once('drain', pump);
        res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
      };
      pump();
    };
    const body = JSON.stringify({
      model: 'm',
      max_tokens: 5,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const agent = net.connect(conn.port, '127.0.0.1');
    agent.on('error', () => undefined);
    agent.write(
      `POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${conn.port}\r\nx-api-key: ${conn.token}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // The agent reads nothing, so the endpoint waits on it, then the agent goes away.
    agent.pause();
    await new Promise((r) => setTimeout(r, 1000));
    agent.destroy();
    await Promise.race([core.runs.settled(), new Promise((r) => setTimeout(r, 5000))]);
    expect(core.runs.activeCount()).toBe(0);
    const run = value<RecordedRun>(await core.dispatch('history:get', { runId: turnIds[turnIds.length - 1]! }, sink));
    expect(run.result.verdict).toBe('cancelled');
  });

  it('leaves no port answering after two connects at once and a disconnect', async () => {
    const answers = (port: number) =>
      new Promise<boolean>((resolve) => {
        const s = net.connect(port, '127.0.0.1');
        s.on('connect', () => {
          s.destroy();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      });
    const [a, b] = await Promise.all([
      core.dispatch('agents:connect', { profileId }, sink),
      core.dispatch('agents:connect', { profileId }, sink),
    ]);
    const ports = [conn.port, value<AgentConnection>(a).port, value<AgentConnection>(b).port];
    value(await core.dispatch('agents:disconnect', {}, sink));
    for (const port of ports) expect(await answers(port), `port ${port}`).toBe(false);
    conn = value<AgentConnection>(await core.dispatch('agents:connect', { profileId }, sink));
  });

  const post = (path = '/v1/messages') =>
    fetch(`${conn.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': conn.token, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
  const keyless = (text: string) => {
    for (let i = 0; i + 8 <= KEY.length; i++) expect(text).not.toContain(KEY.slice(i, i + 8));
  };

  it('refuses with 502 an answer in an encoding it cannot undo, and reads "gzip," as gzip', async () => {
    const error = JSON.stringify({ error: `bad key ${KEY}` });
    let encoding = '';
    answer = (_req, res) =>
      res.writeHead(400, { 'content-type': 'application/json', 'content-encoding': encoding }).end(gzipSync(error));
    for (encoding of ['zstd', 'x-custom', 'gzip, zstd']) {
      const res = await post();
      const text = await res.text();
      expect(res.status, encoding).toBe(502);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(text).toContain('unsupported content-encoding');
      keyless(text);
    }
    encoding = 'gzip,';
    const res = await post();
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain('bad key [redacted]');
    keyless(text);
  });

  it('turns a redirect into a 502 that says where to, and keeps the real 3xx in History', async () => {
    answer = (_req, res) => res.writeHead(307, { location: `https://evil.example/c?k=${KEY}` }).end();
    const res = await post();
    const text = await res.text();
    expect(res.status).toBe(502);
    expect(res.redirected).toBe(false);
    expect(res.headers.get('location')).toBeNull();
    expect(text).toContain('https://evil.example/c?k=[redacted]');
    keyless(text);
    await core.runs.settled();
    const run = value<RecordedRun>(await core.dispatch('history:get', { runId: turnIds[turnIds.length - 1]! }, sink));
    expect(run.result.metrics.status).toBe(307);
  });

  it('drops a header whose name held the key, and passes the answer on', async () => {
    answer = (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json', [`x-echo-${KEY}`]: '1' }).end('{"data":[]}');
    const res = await fetch(`${conn.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${conn.token}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"data":[]}');
    expect([...res.headers.keys()].filter((n) => n.startsWith('x-echo'))).toEqual([]);
  });

  it('sends no header that would route the request elsewhere, and survives Expect: 100-continue', async () => {
    let got: http.IncomingHttpHeaders = {};
    answer = (req, res) => {
      got = req.headers;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":1}');
    };
    const body = '{"model":"m","messages":[]}';
    const routing = {
      'x-http-method-override': 'DELETE',
      'x-method-override': 'DELETE',
      'x-original-url': '/admin/keys',
      'x-rewrite-url': '/admin/keys',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-for': '10.0.0.1',
      'x-forwarded-proto': 'http',
      forwarded: 'host=evil.example',
      via: '1.1 evil',
    };
    const head = Object.entries(routing)
      .map(([n, v]) => `${n}: ${v}\r\n`)
      .join('');
    const out = await raw(
      conn.port,
      `POST /v1/messages/count_tokens HTTP/1.1\r\nHost: 127.0.0.1:${conn.port}\r\nx-api-key: ${conn.token}\r\n` +
        `${head}Expect: 100-continue\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
    );
    expect(out).toMatch(/HTTP\/1\.1 200/);
    for (const name of [...Object.keys(routing), 'expect']) expect(got[name], name).toBeUndefined();
  });

  it('holds at most 32 connections at once', async () => {
    const open = (): Promise<net.Socket> =>
      new Promise((resolve) => {
        const s = net.connect(conn.port, '127.0.0.1', () => resolve(s));
        s.on('error', () => undefined);
      });
    const closedSoon = (s: net.Socket, ms: number) =>
      new Promise<boolean>((resolve) => {
        if (s.destroyed) return resolve(true);
        s.once('close', () => resolve(true));
        setTimeout(() => resolve(false), ms);
      });
    const held = await Promise.all(Array.from({ length: 32 }, open));
    const extra = await open();
    expect(await closedSoon(extra, 1000)).toBe(true);
    for (const s of held) s.destroy();
  });
});
