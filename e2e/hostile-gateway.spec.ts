/**
 * A hostile gateway: a loopback server that echoes every credential it receives in every place it can (error
 * bodies escaped three ways, SSE events and comments, response headers, model names, count_tokens errors, a
 * redirect to a second server), driven through the browser host. No 8-character window of any secret may
 * reach a WebSocket frame, the page, a file of the data folder or the host's output (docs/security.md).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { WebSocket } from 'ws';
import type { ProfilesState, Result } from '../shared/contract';
import { expect, test } from './fixtures';
import { openTab, pickModel, status } from './helpers';

const KEY = 'sk-hostile/KEY+e2e-0123456789abcdef';
/** A credential header: named like one, so the profile keeps it as a secret. */
const HEADER = 'x-portkey-virtual-key';
const HEADER_VALUE = 'pk-vk/SECRET-98765432-zz';

const slashes = (s: string) => s.replaceAll('/', '\\/');
const unicode = (s: string) =>
  [...s]
    .map((c, i) => {
      const escape = `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      return (i % 2 ? escape.toUpperCase() : escape.toLowerCase()).replace('\\U', '\\u');
    })
    .join('');
/** Every form an echoing layer might give a value, joined as one JSON-string-safe text. */
const escaped = (s: string) => [slashes(s), unicode(s), encodeURIComponent(s)].join(' | ');

interface Server {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

async function serve(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, echo: string) => void,
): Promise<Server> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    const echo = [req.headers.authorization, req.headers['x-api-key'], req.headers[HEADER]].filter(Boolean).join(' ');
    req.on('end', () => handler(req, res, echo));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function sse(echo: string): string {
  const e = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  return (
    `: keep-alive ${encodeURIComponent(echo)}\n\n` +
    e('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: echo,
        content: [],
        usage: { input_tokens: 1, output_tokens: 0 },
      },
    }).replace(JSON.stringify(echo), `"${slashes(echo)}"`) +
    e('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
    'event: content_block_delta\n' +
    `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"echo ${unicode(echo)}"}}\n\n` +
    `: ${echo}\n\n` +
    `event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"${escaped(echo)}"}}\n\n`
  );
}

test('a gateway that echoes every credential it receives gets nothing out of the app', async ({
  app,
  host,
  received,
}) => {
  test.setTimeout(90_000);
  const target = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  const hostile = await serve((req, res, echo) => {
    const headers = { 'x-echo-key': echo, 'x-debug': `received ${echo}` };
    const json = (status: number, text: string) =>
      res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(text);
    const route = req.url?.split('?')[0];
    if (route === '/v1/models') {
      const model = (id: string) =>
        `{"id":"${id}","object":"model","owned_by":"${slashes(echo)}","display_name":"${escaped(echo)}"}`;
      return json(200, `{"object":"list","data":[${model('hostile-a')},${model('hostile-b')}]}`);
    }
    if (route === '/v1/messages')
      return res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' }).end(sse(echo));
    if (route === '/v1/chat/completions')
      return json(401, `{"error":{"type":"invalid_request_error","message":"bad key: ${escaped(echo)}"}}`);
    if (route === '/v1/responses')
      return res
        .writeHead(307, { ...headers, location: `${target.url}/v1/responses?k=${encodeURIComponent(echo)}` })
        .end();
    if (route === '/v1/messages/count_tokens')
      return json(400, `{"type":"error","error":{"type":"invalid_request_error","message":"${escaped(echo)}"}}`);
    return json(404, `{"error":{"message":"no route for ${escaped(echo)}"}}`);
  });
  try {
    await app.getByRole('button', { name: 'Connections…' }).click();
    const dialog = app.getByRole('dialog', { name: 'Connections' });
    await dialog.getByRole('button', { name: '+ New profile' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('Hostile');
    await dialog.getByLabel('Base URL').fill(hostile.url);
    await dialog.getByLabel('API key').fill(KEY);
    await dialog.getByRole('button', { name: '+ Add header' }).click();
    await dialog.getByLabel('Header 1 name').fill(HEADER);
    await dialog.getByLabel('Header 1 value').fill(HEADER_VALUE);
    await dialog.getByRole('button', { name: 'Add and use' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved.');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(app.getByRole('combobox', { name: 'Profile' }).locator('option:checked')).toHaveText('Hostile');
    await expect(app.getByLabel('Models fetched')).toContainText('2 models');

    for (const tab of ['Messages', 'Chat Completions', 'Responses'] as const) {
      await openTab(app, tab);
      await pickModel(app, 'hostile-a');
      await app.getByRole('button', { name: 'Send' }).click();
      await expect(status(app)).toContainText(/error/, { timeout: 15_000 });
    }
    await openTab(app, 'Messages');
    await app.getByLabel('Count with').selectOption('always');
    await expect(app.getByRole('status', { name: 'Input tokens' })).toContainText('estimate', { timeout: 15_000 });
    await app.getByRole('tab', { name: 'Events' }).click();
    await app.getByRole('tab', { name: 'Ledger' }).click();
    await app.getByRole('tab', { name: 'History' }).click();
    await expect(app.getByRole('list', { name: 'Runs' }).getByRole('button')).toHaveCount(3);

    // Every place the gateway was heard from: each request reached it with the credentials.
    expect(hostile.requests.filter((r) => r.startsWith('POST')).length).toBeGreaterThanOrEqual(4);
    expect(target.requests, 'the redirect target received nothing').toEqual([]);

    const page = await app.content();
    const files = readdirSync(host.dataDir, { recursive: true })
      .map((f) => path.join(host.dataDir, String(f)))
      .filter((f) => statSync(f).isFile())
      .map((f) => `${f}\n${readFileSync(f, 'utf8')}`);
    const everywhere = [page, host.output(), ...received, ...files].join('\n');
    expect(received.join('\n')).toContain('[redacted]');
    for (const secret of [KEY, HEADER_VALUE]) {
      for (let i = 0; i + 8 <= secret.length; i++)
        expect(everywhere, `a window of a secret: ${secret.slice(i, i + 8)}`).not.toContain(secret.slice(i, i + 8));
    }
  } finally {
    await hostile.close();
    await target.close();
  }
});

/** A caller with the host's token, driving its WebSocket directly as a compromised page would. */
async function tokenHolder(hostUrl: string) {
  const u = new URL(hostUrl);
  const ws = new WebSocket(`ws://${u.host}/ws?token=${u.searchParams.get('token')}`);
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  let next = 1;
  const call = (name: string, input: unknown) =>
    new Promise<Result<unknown>>((resolve) => {
      const id = next++;
      const onMessage = (data: Buffer) => {
        const msg = JSON.parse(data.toString()) as { id?: number; result?: Result<unknown> };
        if (msg.id !== id || !msg.result) return;
        ws.off('message', onMessage);
        resolve(msg.result);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, name, input }));
    });
  return { call, close: () => ws.close() };
}

test('a token holder on the WebSocket cannot make a saved key or secret header reach a host the user did not confirm', async ({
  app,
  host,
  startGateway,
}) => {
  const gw = await startGateway({ keys: { [KEY]: ['gpt-sim-mini'] } });
  const seen: http.IncomingHttpHeaders[] = [];
  const elsewhere = await serve((req, res) => {
    seen.push(req.headers);
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"who are you?"}}');
  });
  const holder = await tokenHolder(host.url);
  try {
    await app.getByRole('button', { name: 'Connections…' }).click();
    const dialog = app.getByRole('dialog', { name: 'Connections' });
    await dialog.getByRole('button', { name: '+ New profile' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('Work');
    await dialog.getByLabel('Base URL').fill(gw.url);
    await dialog.getByLabel('API key').fill(KEY);
    await dialog.getByRole('button', { name: '+ Add header' }).click();
    await dialog.getByLabel('Header 1 name').fill(HEADER);
    await dialog.getByLabel('Header 1 value').fill(HEADER_VALUE);
    await dialog.getByRole('button', { name: 'Add profile' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved.');

    const listed = await holder.call('profiles:list', {});
    const id = (listed.ok ? (listed.value as ProfilesState) : undefined)?.profiles.find((p) => p.name === 'Work')?.id;
    expect(id).toBeTruthy();
    const moved = {
      id,
      name: 'Work',
      baseUrl: elsewhere.url,
      extraHeaders: { [HEADER]: '' },
      keepSecretHeaders: { [HEADER]: HEADER },
      keepSecretsForOrigin: elsewhere.url,
    };
    // Everything a page could say for "keep the key": each is refused or leaves the key behind.
    expect(await holder.call('profiles:save', moved)).toMatchObject({ ok: false, error: { code: 'not_confirmed' } });
    expect(await holder.call('profiles:save', { ...moved, confirmed: true })).toMatchObject({ ok: false });
    await holder.call('profiles:test', { id });
    await holder.call('profiles:test', { draft: moved });
    await holder.call('load:start', {
      profileId: id,
      protocol: 'messages',
      body: { model: 'gpt-sim-mini', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] },
      requests: 101,
      concurrency: 1,
    });
    const { keepSecretsForOrigin: _wish, ...plain } = moved;
    expect(await holder.call('profiles:save', plain)).toMatchObject({ ok: true });
    await holder.call('profiles:test', { id });
    await holder.call('models:list', { profileId: id, refresh: true });

    expect(seen.length).toBeGreaterThan(0);
    for (const h of seen) {
      expect(h.authorization).toBeUndefined();
      expect(h['x-api-key']).toBeUndefined();
      expect(h[HEADER]).toBeUndefined();
    }
    const all = JSON.stringify(seen);
    for (const secret of [KEY, HEADER_VALUE]) expect(all).not.toContain(secret.slice(-12));
  } finally {
    holder.close();
    await elsewhere.close();
  }
});
