/**
 * Integration (docs/security.md §11, §12): a gateway that echoes every credential it receives — in response
 * headers, in a JSON body escaped three ways, and in an event stream with the key split across chunks — behind
 * the agent endpoint. The agent (the client here) sees no fragment of the profile's key or secret header; the
 * gateway sees the profile's key and never the local token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentConnection, ProfilesState } from '../../../shared/contract';
import type { Core } from '../service';
import { newCore, value } from '../testing/core-harness';

const KEY = 'sk-relay/KEY+0123456789abcdef';
const SECRET = 'helicone-secret-value-42';
const slashes = (s: string) => s.replaceAll('/', '\\/');
const unicode = (s: string) =>
  [...s].map((c, i) => (i % 2 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');
const windows = (s: string) => Array.from({ length: s.length - 7 }, (_, i) => s.slice(i, i + 8));

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('agent endpoint: a hostile gateway gets nothing secret through, and leaks nothing back', () => {
  let core: Core;
  let server: http.Server;
  let conn: AgentConnection;
  const seen: Seen[] = [];
  const sink = { send: () => undefined };

  beforeAll(async () => {
    ({ core } = await newCore());
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body });
        const creds = [req.headers['x-api-key'], req.headers.authorization, req.headers['helicone-auth']]
          .filter((v): v is string => typeof v === 'string')
          .join(' ');
        const echo = { 'x-echo': creds, 'x-debug-key': KEY, 'set-cookie': `s=${KEY}` };
        if (req.url?.startsWith('/v1/messages') && body.includes('"stream":true')) {
          res.writeHead(200, { 'content-type': 'text/event-stream', ...echo });
          const text = `${JSON.stringify(`echo ${creds}`).slice(1, -1)} ${slashes(KEY)} ${encodeURIComponent(SECRET)}`;
          const events = [
            `event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":0}}}\n\n`,
            `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n`,
            `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${text}"}}\n\n`,
            `event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n`,
            `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}\n\n`,
            `event: message_stop\ndata: {"type":"message_stop"}\n\n`,
          ].join('');
          // The key split across writes: the endpoint must see it whole before passing any of it on.
          const at = events.indexOf(KEY.slice(0, 6));
          res.write(events.slice(0, at + 4));
          setTimeout(() => res.end(events.slice(at + 4)), 20);
          return;
        }
        res.writeHead(400, { 'content-type': 'application/json', ...echo });
        res.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'invalid_request_error', message: `bad key ${creds} ${unicode(KEY)} ${slashes(SECRET)}` },
          }),
        );
      });
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const saved = value<ProfilesState>(
      await core.dispatch(
        'profiles:save',
        { name: 'Echo', baseUrl, key: KEY, authScheme: 'both', extraHeaders: { 'helicone-auth': SECRET } },
        sink,
      ),
    );
    const profileId = saved.profiles.find((p) => p.name === 'Echo')!.id;
    await core.dispatch('profiles:select', { id: profileId }, sink);
    conn = value<AgentConnection>(await core.dispatch('agents:connect', { profileId }, sink));
  });
  afterAll(async () => {
    await core.close();
    server.closeAllConnections();
    await new Promise<void>((res) => server.close(() => res()));
  });

  const expectClean = (what: string) => {
    for (const w of [...windows(KEY), ...windows(SECRET)]) expect(what).not.toContain(w);
    expect(what).not.toContain(encodeURIComponent(KEY).slice(0, 12));
  };

  it('the agent sees neither the key nor the secret header, in a stream, an error, or any header', async () => {
    const headers = {
      'x-api-key': conn.token,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      'x-trace': `carry ${conn.token}`,
    };
    const body = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
    const stream = await fetch(`${conn.baseUrl}/v1/messages?beta=true`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, stream: true }),
    });
    const streamed = await stream.text();
    expect(stream.status).toBe(200);
    expect(streamed).toContain('event: message_stop');
    expect(streamed).toContain('[redacted]');
    expectClean(streamed + JSON.stringify([...stream.headers]));

    const error = await fetch(`${conn.baseUrl}/v1/messages`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(error.status).toBe(400);
    const text = await error.text();
    expect(text).toContain('bad key');
    expectClean(text + JSON.stringify([...error.headers]));

    const models = await fetch(`${conn.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${conn.token}` } });
    expectClean((await models.text()) + JSON.stringify([...models.headers]));
  });

  it('the gateway sees the profile key, with ?beta=true kept, and never the local token', () => {
    expect(seen.length).toBe(3);
    expect(seen[0]!.url).toBe('/v1/messages?beta=true');
    for (const s of seen) {
      expect(s.headers['x-api-key']).toBe(KEY);
      expect(s.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(s.headers['helicone-auth']).toBe(SECRET);
      expect(JSON.stringify(s)).not.toContain(conn.token);
    }
  });
});
