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
import type { Page } from '@playwright/test';
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

/**
 * Connects an agent in the Agents tab and sends, as the agent, a streamed Claude Code turn, a chat-completions
 * turn and a model list through the endpoint: everything the agent got back, headers and bodies.
 */
async function throughAgentEndpoint(app: Page): Promise<string[]> {
  await app.getByRole('tab', { name: 'Agents' }).click();
  await app.getByRole('button', { name: 'Connect an agent' }).click();
  const line = await app
    .getByRole('region', { name: 'Agent session' })
    .getByLabel('Claude Code', { exact: true })
    .innerText();
  const baseUrl = /ANTHROPIC_BASE_URL=(\S+)/.exec(line)![1];
  const token = /ANTHROPIC_API_KEY=(\S+)/.exec(line)![1];
  const claude = {
    'x-api-key': token,
    'anthropic-version': '2023-06-01',
    'user-agent': 'claude-cli/2.1.197 (external, cli)',
  };
  const body = (stream: boolean) =>
    JSON.stringify({ model: 'hostile-a', max_tokens: 8, stream, messages: [{ role: 'user', content: 'hi' }] });
  const requests: [string, RequestInit][] = [
    [
      '/v1/chat/completions',
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body(false),
      },
    ],
    ['/v1/models', { headers: { authorization: `Bearer ${token}` } }],
    // Last, so that it is the newest run in History.
    [
      '/v1/messages?beta=true',
      { method: 'POST', headers: { ...claude, 'content-type': 'application/json' }, body: body(true) },
    ],
  ];
  const saw: string[] = [];
  for (const [path, init] of requests) {
    const res = await fetch(`${baseUrl}${path}`, init);
    saw.push(`${res.status} ${JSON.stringify([...res.headers])}\n${await res.text()}`);
  }
  await expect(app.getByRole('button', { name: 'Open turn 3' })).toBeVisible();
  return saw;
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
    await expect(app.getByRole('combobox', { name: 'Profile', exact: true }).locator('option:checked')).toHaveText(
      'Hostile',
    );
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

    // A connected agent in front of the same gateway (docs/security.md §12) gets nothing secret back either.
    const agentSaw = await throughAgentEndpoint(app);
    expect(agentSaw.join('\n')).toContain('[redacted]');
    await app.getByRole('tab', { name: 'History' }).click();
    // History opens on the user's own runs; the agent's exchanges are a source of their own, one row per session.
    await app.getByRole('combobox', { name: 'Source' }).selectOption('Agents');
    const runs = app.getByRole('list', { name: 'Runs' });
    await expect(runs.getByRole('button')).toHaveCount(1);
    await runs.getByRole('button').first().click();
    await expect(runs.getByRole('button')).toHaveCount(4);
    await runs.getByRole('button').nth(1).click();
    await app.getByRole('tab', { name: 'Ledger' }).click();
    const ledger = app.getByRole('region', { name: 'Ledger' });
    await expect(ledger).toContainText('claude-cli/2.1.197');
    await expect(ledger).toContainText('[redacted');

    // Every place the gateway was heard from: each request reached it with the credentials.
    expect(hostile.requests.filter((r) => r.startsWith('POST')).length).toBeGreaterThanOrEqual(6);
    expect(target.requests, 'the redirect target received nothing').toEqual([]);

    const page = await app.content();
    const files = readdirSync(host.dataDir, { recursive: true })
      .map((f) => path.join(host.dataDir, String(f)))
      .filter((f) => statSync(f).isFile())
      .map((f) => `${f}\n${readFileSync(f, 'utf8')}`);
    const everywhere = [page, host.output(), ...received, ...files, ...agentSaw].join('\n');
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

/** The key as HTML character references, decimal and hex by turns. */
const references = (s: string) =>
  [...s].map((c, i) => (i % 2 ? `&#${c.charCodeAt(0)};` : `&#x${c.charCodeAt(0).toString(16)};`)).join('');
const DOUBLE = encodeURIComponent(encodeURIComponent(KEY));
/** Every layer a reader could peel off a text: HTML references, then URL-encoding twice. */
const peeled = (text: string) =>
  text
    .replace(/&#[xX]([0-9a-fA-F]+);?/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/%25([0-9a-fA-F]{2})/g, '%$1')
    .replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const keyWindows = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8));
const expectNoKey = (text: string, where: string) => {
  const seen = peeled(text);
  for (const w of keyWindows) expect(seen, `${where}: a window of the key, ${w}`).not.toContain(w);
};

test('a key written as references, URL-encoded twice or split over deltas shows nowhere, not even mid-stream', async ({
  app,
  host,
  received,
}) => {
  test.setTimeout(150_000);
  // The reply text holds the key three ways, sent 4 characters a delta: no event holds 8 characters of it.
  const reply = `Key one: ${KEY} two: ${references(KEY)} three: ${DOUBLE} end.`;
  const event = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const route = req.url?.split('?')[0];
      const body = (raw ? JSON.parse(raw) : {}) as { model?: string; tools?: unknown };
      const page = `<html><body><h1>Bad key ${references(KEY)}</h1><p>${DOUBLE}</p></body></html>`;
      if (route === '/v1/models') {
        const model = `{"id":"hostile-a","object":"model","display_name":"for ${references(KEY)} ${DOUBLE}"}`;
        return res.writeHead(200, { 'content-type': 'application/json' }).end(`{"object":"list","data":[${model}]}`);
      }
      if (route === '/v1/messages/count_tokens') return res.writeHead(400, { 'content-type': 'text/html' }).end(page);
      if (route === '/v1/messages' && body.model === 'hostile-load') {
        // A gateway-chosen error type a spreadsheet would run as a formula, and the key in the message.
        const type = '=HYPERLINK("https://evil.example","Re-auth")';
        const error = { type: 'error', error: { type, message: `@SUM(1) bad key ${references(KEY)}` } };
        return res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(error));
      }
      if (route !== '/v1/messages') return res.writeHead(401, { 'content-type': 'text/html' }).end(page);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        event('message_start', {
          type: 'message_start',
          message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'hostile-a', content: [], usage: {} },
        }) +
          event('content_block_start', {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          }),
      );
      const pieces = Array.from({ length: Math.ceil(reply.length / 4) }, (_, i) => reply.slice(i * 4, i * 4 + 4));
      // The composer's run arrives slowly, so the page is seen mid-stream; an agent's turns (with tools) at once.
      const pause = body.tools ? 0 : 8;
      const send = (i: number) => {
        if (i === pieces.length) {
          res.end(
            event('content_block_stop', { type: 'content_block_stop', index: 0 }) +
              event('message_delta', {
                type: 'message_delta',
                delta: { stop_reason: 'end_turn' },
                usage: { output_tokens: 9 },
              }) +
              event('message_stop', { type: 'message_stop' }),
          );
          return;
        }
        res.write(
          event('content_block_delta', {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: pieces[i] },
          }),
        );
        if (pause) setTimeout(() => send(i + 1), pause);
        else send(i + 1);
      };
      send(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await app.getByRole('button', { name: 'Connections…' }).click();
    const dialog = app.getByRole('dialog', { name: 'Connections' });
    await dialog.getByRole('button', { name: '+ New profile' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('Hostile');
    await dialog.getByLabel('Base URL').fill(url);
    await dialog.getByLabel('API key').fill(KEY);
    await dialog.getByRole('button', { name: 'Add and use' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved.');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(app.getByLabel('Models fetched')).toContainText('1 model');

    // Every state of the page while the reply streams, as the browser drew it.
    await app.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => seen.push(document.body.innerHTML)).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await openTab(app, 'Messages');
    await pickModel(app, 'hostile-a');
    await app.getByRole('button', { name: 'Send' }).click();
    await expect(status(app)).toContainText('complete', { timeout: 30_000 });
    const states = await app.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(states.filter((s) => s.includes('Key one:')).length, 'the page was seen mid-stream').toBeGreaterThan(3);
    for (const s of states) expectNoKey(s, 'the page while streaming');
    await expect(app.getByRole('region', { name: 'Output' })).toContainText('end.');
    await expect(app.getByRole('region', { name: 'Output' })).toContainText('[redacted]');
    await app.getByRole('tab', { name: 'Events' }).click();
    expectNoKey(await app.content(), 'the Events list');

    await app.getByRole('button', { name: 'Code…' }).click();
    expectNoKey((await app.getByLabel('Exported code').textContent()) ?? '', 'the code export');
    await app.getByRole('button', { name: 'Close' }).click();

    // Agent evidence: Claude Code's count_tokens check meets the page of references.
    await app.getByRole('tab', { name: 'Agents' }).click();
    await app.getByRole('combobox', { name: 'Agent' }).selectOption('claude-code');
    await app.getByRole('combobox', { name: 'Model', exact: true }).selectOption('hostile-a');
    await app.getByRole('button', { name: 'Check', exact: true }).click();
    const verdict = app.getByRole('region', { name: 'Agent verdict' });
    await expect(verdict).toContainText(/^(ready|degraded|not ready)/, { timeout: 60_000 });
    expectNoKey(await app.content(), 'the agent verdict');
    for (const format of ['Markdown', 'HTML']) {
      const download = app.waitForEvent('download');
      await app.getByRole('button', { name: `Export report (${format})` }).click();
      expectNoKey(readFileSync((await (await download).path())!, 'utf8'), `the ${format} report`);
    }

    // Load's CSV: the gateway's formula is written inert, the key nowhere.
    await app.getByRole('tab', { name: 'Load' }).click();
    await app.getByLabel('Model', { exact: true }).fill('hostile-load');
    await app.getByLabel('Requests', { exact: true }).fill('2');
    await app.getByLabel('Concurrency', { exact: true }).fill('1');
    await app.getByRole('button', { name: 'Start' }).click();
    await expect(app.getByRole('status', { name: 'Load status' })).toContainText('Finished', { timeout: 30_000 });
    const csvDownload = app.waitForEvent('download');
    await app.getByRole('region', { name: 'Load summary' }).getByRole('button', { name: 'Export CSV' }).click();
    const csv = readFileSync((await (await csvDownload).path())!, 'utf8');
    expect(csv).toContain(`"'=HYPERLINK(""https://evil.example"",""Re-auth"")"`);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
    expectNoKey(csv, 'the load CSV');

    const files = readdirSync(host.dataDir, { recursive: true })
      .map((f) => path.join(host.dataDir, String(f)))
      .filter((f) => statSync(f).isFile())
      .map((f) => `${f}\n${readFileSync(f, 'utf8')}`);
    expect(received.join('\n')).toContain('[redacted]');
    expectNoKey(received.join('\n'), 'the WebSocket frames');
    expectNoKey(files.join('\n'), 'the data folder');
    expectNoKey(host.output(), "the host's output");
    expectNoKey(await app.content(), 'the page');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
