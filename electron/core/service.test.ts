/**
 * Integration: the core against real simulated gateways over loopback HTTP, driven through `dispatch` exactly
 * as both hosts drive it (raw, untrusted payloads in; Result envelopes and pushes out).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, promises as fs, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { CapabilityList, GuardReport, ModelList, ProfilesState, Result, RunResult, RunUpdate, TokenCount } from '../../shared/contract';
import { rowsOf } from '../../shared/protocols/event-columns';
import { createCore, type Core, type Receiver } from './service';
import { LayeredVault } from './vault';
import { startSimulator, type RunningSimulator } from './simulator';

const SECOND_KEY = 'sk-second-gateway-0123456789abcdef';

class Capture implements Receiver {
  readonly batches: RunUpdate[][] = [];
  readonly raw: string[] = [];
  send(name: string, payload: unknown): void {
    this.raw.push(JSON.stringify(payload));
    if (name === 'runs:update') this.batches.push(payload as RunUpdate[]);
  }
  updates(runId: string): RunUpdate[] {
    return this.batches.flat().filter((u) => u.runId === runId);
  }
  async end(runId: string, timeoutMs = 15_000): Promise<RunResult> {
    const start = Date.now();
    for (;;) {
      const end = this.updates(runId).find((u) => u.kind === 'end');
      if (end && end.kind === 'end') return end.result;
      if (Date.now() - start > timeoutMs) throw new Error(`run ${runId} did not end`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  text(runId: string): string {
    return this.updates(runId)
      .flatMap((u) => (u.kind === 'events' ? rowsOf(u.events) : []))
      .map((e) => e.data)
      .join('\n');
  }
}

function value<T>(r: Result<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'gp-core-'));
  dirs.push(d);
  return d;
}

let second: RunningSimulator;
let third: RunningSimulator;
/** The second gateway's key → models map, read on every request: a test may change what it serves. */
const secondKeys: Record<string, string[]> = { [SECOND_KEY]: ['gpt-sim-mini', 'sim-chat-only'] };

beforeAll(async () => {
  second = await startSimulator({ port: 0, keys: secondKeys });
  third = await startSimulator({ port: 0, keys: { [SECOND_KEY]: ['gpt-sim-mini', 'claude-sim-haiku'] } });
});
afterAll(async () => {
  await second.close();
  await third.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function newCore(dataDir = tempDir(), extra: Partial<Parameters<typeof createCore>[0]> = {}) {
  const core = await createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
    ...extra,
  });
  return { core, dataDir };
}

describe('core: connection profiles and models', () => {
  let core: Core;
  let dataDir: string;
  const r = new Capture();
  beforeAll(async () => ({ core, dataDir } = await newCore()));
  afterAll(() => core.close());

  it('starts on the built-in Demo gateway, whose models load with no key typed', async () => {
    const state = value<ProfilesState>(await core.dispatch('profiles:list', {}, r));
    expect(state.activeId).toBe('demo');
    expect(state.profiles[0]).toMatchObject({ name: 'Demo gateway', builtin: 'demo', key: { hasKey: true } });
    const list = value<ModelList>(await core.dispatch('models:list', { profileId: 'demo' }, r));
    expect(list.error).toBeUndefined();
    expect(list.models.map((m) => m.id)).toEqual(expect.arrayContaining(['claude-sim-sonnet', 'gpt-sim-4o', 'sim-firehose']));
    expect(list.models.find((m) => m.id === 'claude-sim-sonnet')?.family).toBe('anthropic');
    expect(list.fetchedAt).toBeTruthy();
  });

  it('adds a profile with a key; the key is only ever hinted, never returned or written in clear', async () => {
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Second', baseUrl: `${second.url}/v1`, key: SECOND_KEY, keyStorage: 'persist' }, r),
    );
    const p = saved.profiles.find((x) => x.name === 'Second')!;
    expect(saved.activeId).toBe(p.id);
    expect(p.key).toEqual({ hasKey: true, hint: '…cdef', storage: 'file' });
    expect(JSON.stringify(saved)).not.toContain(SECOND_KEY);
    const list = value<ModelList>(await core.dispatch('models:list', { profileId: p.id, refresh: true }, r));
    expect(list.models.map((m) => m.id).sort()).toEqual(['gpt-sim-mini', 'sim-chat-only']);
    expect(JSON.stringify(list)).not.toContain(SECOND_KEY);
    expect(readFileSync(path.join(dataDir, 'profiles.json'), 'utf8')).not.toContain(SECOND_KEY);
    const keysFile = path.join(dataDir, 'keys.json');
    expect(readFileSync(keysFile, 'utf8')).not.toContain(SECOND_KEY);
    expect(statSync(keysFile).mode & 0o777).toBe(0o600);
  });

  it('a secret extra header is sent with every request, but never listed, written in clear, exported or recorded', async () => {
    const HELICONE = 'Bearer sk-helicone-core-SECRET-9876';
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Behind Helicone', baseUrl: second.url, key: SECOND_KEY, extraHeaders: { 'x-team': 'blue', 'helicone-auth': HELICONE } }, r),
    );
    const id = saved.profiles.find((x) => x.name === 'Behind Helicone')!.id;
    const listed = JSON.stringify(value<ProfilesState>(await core.dispatch('profiles:list', {}, r)));
    for (const text of [JSON.stringify(saved), listed, readFileSync(path.join(dataDir, 'profiles.json'), 'utf8'), readFileSync(path.join(dataDir, 'keys.json'), 'utf8')]) {
      expect(text).not.toContain('SECRET');
    }

    const before = second.requests.length;
    expect(value<ModelList>(await core.dispatch('models:list', { profileId: id, refresh: true }, r)).error).toBeUndefined();
    const body = { model: 'gpt-sim-mini', messages: [{ role: 'user', content: 'hi' }] };
    const { runId } = value<{ runId: string }>(await core.dispatch('runs:start', { profileId: id, protocol: 'chat', body }, r));
    expect((await r.end(runId)).verdict).toBe('complete');
    const sent = second.requests.slice(before);
    expect(sent.map((q) => [q.path, q.headers['helicone-auth'], q.headers['x-team']])).toEqual([
      ['/v1/models', HELICONE, 'blue'],
      ['/v1/chat/completions', HELICONE, 'blue'],
    ]);

    await core.runs.settled();
    expect(JSON.stringify(r.updates(runId))).not.toContain('SECRET');
    expect(JSON.stringify(value(await core.dispatch('history:get', { runId }, r)))).not.toContain('SECRET');
    const code = value<{ code: string }>(await core.dispatch('export:code', { profileId: id, protocol: 'chat', body, language: 'curl' }, r)).code;
    expect(code).toContain('helicone-auth: <HELICONE_AUTH>');
    expect(code).not.toContain('SECRET-9876');
  });

  it('says which models appeared and disappeared after a refresh', async () => {
    const state = value<ProfilesState>(await core.dispatch('profiles:list', {}, r));
    const p = state.profiles.find((x) => x.name === 'Second')!;
    const served = secondKeys[SECOND_KEY];
    secondKeys[SECOND_KEY] = ['gpt-sim-mini', 'claude-sim-haiku'];
    try {
      const cached = value<ModelList>(await core.dispatch('models:list', { profileId: p.id }, r));
      expect(cached.models.map((m) => m.id)).toContain('sim-chat-only');
      const list = value<ModelList>(await core.dispatch('models:list', { profileId: p.id, refresh: true }, r));
      expect(list.added).toEqual(['claude-sim-haiku']);
      expect(list.removed).toEqual(['sim-chat-only']);
    } finally {
      secondKeys[SECOND_KEY] = served;
    }
  });

  it('shows status, the gateway message and request id for a 401, keeping the last good list', async () => {
    const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Bad key', baseUrl: second.url, key: 'sk-wrong-key-9999' }, r));
    const p = saved.profiles.find((x) => x.name === 'Bad key')!;
    const list = value<ModelList>(await core.dispatch('models:list', { profileId: p.id, refresh: true }, r));
    expect(list.error).toMatchObject({ status: 401 });
    expect(list.error!.message.length).toBeGreaterThan(5);
    expect(list.error!.requestId).toBeTruthy();
    expect(list.models).toEqual([]);
  });

  it('names a refused connection instead of saying "failed"', async () => {
    const server = http.createServer();
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((res) => server.close(() => res()));
    const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Nobody home', baseUrl: `http://127.0.0.1:${port}` }, r));
    const p = saved.profiles.find((x) => x.name === 'Nobody home')!;
    const list = value<ModelList>(await core.dispatch('models:list', { profileId: p.id, refresh: true }, r));
    expect(list.error?.type).toBe('network:refused');
  });

  it('follows first-family pagination to the last page', async () => {
    const pages: Record<string, unknown> = {
      '': { data: [{ type: 'model', id: 'm1' }, { type: 'model', id: 'm2' }], has_more: true, first_id: 'm1', last_id: 'm2' },
      m2: { data: [{ type: 'model', id: 'm3' }], has_more: true, first_id: 'm3', last_id: 'm3' },
      m3: { data: [{ type: 'model', id: 'm4' }], has_more: false, first_id: 'm4', last_id: 'm4' },
    };
    const server = http.createServer((req, res) => {
      const after = new URL(req.url!, 'http://x').searchParams.get('after_id') ?? '';
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(pages[after]));
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Paged', baseUrl: url, key: 'k-paged-1234', authScheme: 'x-api-key' }, r));
      const p = saved.profiles.find((x) => x.name === 'Paged')!;
      const list = value<ModelList>(await core.dispatch('models:list', { profileId: p.id, refresh: true }, r));
      expect(list.models.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
      expect(list.pages).toBe(3);
    } finally {
      server.close();
    }
  });
});

describe('core: a secret extra header the gateway echoes back is scrubbed like the key', () => {
  const TOKEN = 'sk-hel-ECHOED-7f3a9c2e5b41d806';
  const HELICONE = `Bearer ${TOKEN}`;
  let core: Core;
  let dataDir: string;
  let server: http.Server;
  let profileId: string;
  /** What the gateway does with the next request; it is handed the helicone-auth value it received. */
  let answer: (req: http.IncomingMessage, res: http.ServerResponse, echoed: string) => void = (_q, res) => res.writeHead(500).end();
  const r = new Capture();

  beforeAll(async () => {
    ({ core, dataDir } = await newCore());
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(req, res, String(req.headers['helicone-auth'])));
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Echoing relay', baseUrl, key: 'sk-relay-key-0123456789', extraHeaders: { 'helicone-auth': HELICONE } }, r),
    );
    profileId = saved.profiles.find((p) => p.name === 'Echoing relay')!.id;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((res) => server.close(() => res()));
    await core.close();
  });

  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const unauthorized = (echoed: string) => ({ type: 'error', error: { type: 'authentication_error', message: `invalid helicone-auth: ${echoed}` } });
  const chatBody = (stream: boolean) => ({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] });

  const run = async (protocol: string, body: Record<string, unknown>) => {
    const { runId } = value<{ runId: string }>(await core.dispatch('runs:start', { profileId, protocol, body }, r));
    const result = await r.end(runId);
    await core.runs.settled();
    return { runId, result };
  };

  /** Neither the value nor its token alone in any push, any answer given here, or any file of the data folder. */
  const expectNowhere = async (...answers: unknown[]) => {
    const out = [...r.raw, ...answers.map((a) => JSON.stringify(a))].join('\n');
    expect(out).not.toContain(TOKEN);
    for (const f of await fs.readdir(dataDir, { recursive: true })) {
      const file = path.join(dataDir, f);
      if (statSync(file).isFile()) expect(readFileSync(file, 'utf8'), file).not.toContain(TOKEN);
    }
  };

  it('in a 401 JSON error body', async () => {
    answer = (_req, res, echoed) => json(res, 401, unauthorized(echoed));
    const { runId, result } = await run('chat', chatBody(false));
    expect(result.verdict).toBe('http-error');
    expect(result.error?.message).toBe('invalid helicone-auth: [redacted]');
    expect(result.rawBody).toContain('invalid helicone-auth: [redacted]');
    await expectNowhere(result, await core.dispatch('history:get', { runId }, r), await core.dispatch('runs:get', { runId }, r));
  });

  it('in a response header and the status text', async () => {
    answer = (_req, res, echoed) => {
      res.statusMessage = `OK for ${echoed.slice('Bearer '.length)}`;
      json(res, 200, { id: 'c', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] }, { 'x-debug': `helicone-auth=${echoed}`, 'x-echo-helicone-auth': echoed });
    };
    const { runId, result } = await run('chat', chatBody(false));
    expect(result.verdict).toBe('complete');
    expect(result.response?.statusText).toBe('OK for [redacted]');
    expect(result.response?.headers).toMatchObject({ 'x-debug': 'helicone-auth=[redacted]', 'x-echo-helicone-auth': '[redacted]' });
    await expectNowhere(result, await core.dispatch('history:get', { runId }, r));
  });

  it("inside a streamed event's data, split across two network chunks", async () => {
    answer = (_req, res, echoed) => {
      const frames = [
        'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n',
        `data: {"error":{"type":"authentication_error","message":"invalid helicone-auth: ${echoed}"}}\n\n`,
      ].join('');
      const cut = frames.indexOf(TOKEN) + 6;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frames.slice(0, cut));
      setTimeout(() => res.end(frames.slice(cut)), 40);
    };
    const { runId, result } = await run('chat', chatBody(true));
    expect(result.verdict).toBe('error-event');
    expect(result.reason).toContain('invalid helicone-auth: [redacted]');
    expect(r.text(runId)).toContain('invalid helicone-auth: [redacted]');
    await expectNowhere(result, await core.dispatch('history:get', { runId }, r));
  });

  it('in the models list error', async () => {
    answer = (_req, res, echoed) => json(res, 401, unauthorized(echoed));
    const list = value<ModelList>(await core.dispatch('models:list', { profileId, refresh: true }, r));
    expect(list.error?.message).toBe('invalid helicone-auth: [redacted]');
    await expectNowhere(list);
  });

  it('in the token count error, for the composer and for the token-counting probe', async () => {
    answer = (req, res, echoed) => {
      if (req.url?.endsWith('/count_tokens')) json(res, 401, unauthorized(echoed));
      else json(res, 200, { id: 'msg', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'max_tokens', usage: { input_tokens: 300, output_tokens: 1 } });
    };
    const body = { model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
    const count = value<TokenCount>(await core.dispatch('tokens:count', { profileId, protocol: 'messages', body, useGateway: 'always' }, r));
    expect(count.source).toBe('estimate');
    expect(count.fallbackReason).toContain('invalid helicone-auth: [redacted]');

    const { jobId } = value<{ jobId: string }>(
      await core.dispatch('capabilities:probe', { profileId, models: ['m'], protocols: ['messages'], capabilities: ['token-counting'] }, r),
    );
    for (let waited = 0; value<CapabilityList>(await core.dispatch('capabilities:list', { profileId }, r)).jobs.some((j) => j.jobId === jobId); waited += 20) {
      if (waited > 20_000) throw new Error(`probe job ${jobId} did not finish`);
      await new Promise((res) => setTimeout(res, 20));
    }
    const probed = value<CapabilityList>(await core.dispatch('capabilities:list', { profileId }, r));
    const cell = probed.results.find((x) => x.capability === 'token-counting');
    expect(cell?.message).toContain('invalid helicone-auth: [redacted]');
    expect(readFileSync(path.join(dataDir, 'capabilities.json'), 'utf8')).toContain('[redacted]');
    await expectNowhere(count, probed);
  });

  it('a credential-named header holding an ordinary word is no secret to scrub: the answer it appears in stays whole', async () => {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Auth mode', baseUrl, key: 'sk-relay-key-0123456789', extraHeaders: { 'x-auth-mode': 'null' } }, r));
    const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, logprobs: null, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
    answer = (_req, res) => json(res, 200, completion);
    const { runId } = value<{ runId: string }>(await core.dispatch('runs:start', { profileId: saved.profiles.find((p) => p.name === 'Auth mode')!.id, protocol: 'chat', body: chatBody(false) }, r));
    const result = await r.end(runId);
    expect(result.verdict).toBe('complete');
    expect(result.rawBody).toContain('"logprobs":null');
  });
});

describe('core: what was learnt through a connection is forgotten when the connection changes', () => {
  let core: Core;
  const r = new Capture();
  beforeAll(async () => ({ core } = await newCore()));
  afterAll(() => core.close());

  const toolBody = (model: string) => ({
    model,
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
  });
  const toolsState = async (profileId: string, model: string) =>
    value<GuardReport>(await core.dispatch('capabilities:guard', { profileId, model, protocol: 'chat', body: toolBody(model) }, r)).items.find(
      (i) => i.capability === 'tools',
    )?.state;
  const stored = async (profileId: string) => value<CapabilityList>(await core.dispatch('capabilities:list', { profileId }, r)).results;
  const proveTools = async (profileId: string, model: string) => {
    const { jobId } = value<{ jobId: string }>(
      await core.dispatch('capabilities:probe', { profileId, models: [model], protocols: ['chat'], capabilities: ['tools'] }, r),
    );
    for (let waited = 0; value<CapabilityList>(await core.dispatch('capabilities:list', { profileId }, r)).jobs.some((j) => j.jobId === jobId); waited += 20) {
      if (waited > 20_000) throw new Error(`probe job ${jobId} did not finish`);
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(await toolsState(profileId, model)).toBe('proven');
  };
  const modelsRequests = (sim: RunningSimulator) => sim.requests.filter((q) => q.path === '/v1/models').length;
  const cachedModels = async (profileId: string) => value<ModelList>(await core.dispatch('models:list', { profileId }, r));

  it('a save that only renames (same URL in another spelling, same key typed again) keeps probe results and the model list', async () => {
    const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Renamed later', baseUrl: second.url, key: SECOND_KEY }, r));
    const id = saved.profiles.find((p) => p.name === 'Renamed later')!.id;
    expect((await cachedModels(id)).models.map((m) => m.id).sort()).toEqual(['gpt-sim-mini', 'sim-chat-only']);
    await proveTools(id, 'sim-chat-only');
    const listed = modelsRequests(second);

    value(await core.dispatch('profiles:save', { id, name: 'Now renamed', baseUrl: `${second.url}/v1/`, key: SECOND_KEY }, r));
    expect(await toolsState(id, 'sim-chat-only')).toBe('proven');
    expect(await stored(id)).toHaveLength(1);
    expect((await cachedModels(id)).models.map((m) => m.id).sort()).toEqual(['gpt-sim-mini', 'sim-chat-only']);
    expect(modelsRequests(second)).toBe(listed);
  });

  it('a new base URL, auth scheme, extra header or key forgets the probe results and the cached model list', async () => {
    const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Moves around', baseUrl: second.url, key: SECOND_KEY }, r));
    const id = saved.profiles.find((p) => p.name === 'Moves around')!.id;
    await cachedModels(id);
    await proveTools(id, 'sim-chat-only');

    // The third gateway does not serve sim-chat-only: nothing proven on the second may still be claimed.
    // The user keeps the key for the third gateway (it takes the same key): without that, the key is dropped.
    const keepSecretsForOrigin = new URL(third.url).origin;
    const form = { id, name: 'Moves around', baseUrl: third.url, keepSecretsForOrigin, authScheme: 'native', extraHeaders: {} as Record<string, string> };
    value(await core.dispatch('profiles:save', form, r));
    expect(await toolsState(id, 'sim-chat-only')).toBe('unknown');
    expect(await stored(id)).toEqual([]);
    const listed = modelsRequests(third);
    expect((await cachedModels(id)).models.map((m) => m.id).sort()).toEqual(['claude-sim-haiku', 'gpt-sim-mini']);
    expect(modelsRequests(third)).toBe(listed + 1);

    const edits: Record<string, unknown>[] = [
      { ...form, authScheme: 'bearer' },
      { ...form, authScheme: 'bearer', extraHeaders: { 'x-tenant': 'blue' } },
      { ...form, authScheme: 'bearer', extraHeaders: { 'x-tenant': 'blue' }, key: 'sk-another-key-for-the-same-gateway' },
    ];
    for (const edit of edits) {
      await proveTools(id, 'gpt-sim-mini');
      await cachedModels(id);
      const before = modelsRequests(third);
      value(await core.dispatch('profiles:save', edit, r));
      expect(await toolsState(id, 'gpt-sim-mini'), JSON.stringify(edit)).toBe('unknown');
      expect(await stored(id)).toEqual([]);
      await cachedModels(id);
      expect(modelsRequests(third), `models list after ${JSON.stringify(edit)}`).toBe(before + 1);
    }
  });

  it('a new secret header value forgets what was learnt; a save that keeps the stored one does not', async () => {
    const form = { name: 'Behind a relay', baseUrl: second.url, key: SECOND_KEY };
    const saved = value<ProfilesState>(await core.dispatch('profiles:save', { ...form, extraHeaders: { 'x-relay-token': 'relay-token-one-1111' } }, r));
    const id = saved.profiles.find((p) => p.name === 'Behind a relay')!.id;
    await cachedModels(id);
    await proveTools(id, 'sim-chat-only');
    const listed = modelsRequests(second);

    const keep = { ...form, id, extraHeaders: { 'x-relay-token': '' }, keepSecretHeaders: { 'x-relay-token': 'x-relay-token' } };
    value(await core.dispatch('profiles:save', keep, r));
    expect(await toolsState(id, 'sim-chat-only')).toBe('proven');
    await cachedModels(id);
    expect(modelsRequests(second)).toBe(listed);

    value(await core.dispatch('profiles:save', { ...form, id, extraHeaders: { 'x-relay-token': 'relay-token-two-2222' } }, r));
    expect(await toolsState(id, 'sim-chat-only')).toBe('unknown');
    expect(await stored(id)).toEqual([]);
  });

  it('a probe job still running against the old connection is stopped and records nothing afterwards', async () => {
    const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Edited mid-probe', baseUrl: second.url, key: SECOND_KEY }, r));
    const id = saved.profiles.find((p) => p.name === 'Edited mid-probe')!.id;
    const { jobId, total } = value<{ jobId: string; total: number }>(
      await core.dispatch('capabilities:probe', { profileId: id, models: ['gpt-sim-mini', 'sim-chat-only'], protocols: ['chat'] }, r),
    );
    expect(total).toBeGreaterThan(4);
    value(await core.dispatch('profiles:save', { id, name: 'Edited mid-probe', baseUrl: third.url }, r));
    const ended = Date.now();
    while (r.raw.every((p) => !(p.includes(jobId) && /"state":"(cancelled|finished)"/.test(p)))) {
      if (Date.now() - ended > 20_000) throw new Error(`probe job ${jobId} did not end`);
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(r.raw.some((p) => p.includes(jobId) && p.includes('"state":"cancelled"'))).toBe(true);
    expect(await stored(id)).toEqual([]);
  });
});

describe('core: untrusted payloads get a Result error, never a crash', () => {
  let core: Core;
  const r = new Capture();
  beforeAll(async () => ({ core } = await newCore()));
  afterAll(() => core.close());

  it('rejects unknown calls, bad shapes, non-http URLs, oversized and non-plain payloads', async () => {
    expect(await core.dispatch('shell:exec', {}, r)).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    expect(await core.dispatch('__proto__', {}, r)).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    expect(await core.dispatch('profiles:save', 'nonsense', r)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const bad = await core.dispatch('profiles:save', { name: 'x', baseUrl: 'ftp://files.example' }, r);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { baseUrl: 'must be an http:// or https:// URL' } } });
    expect(await core.dispatch('runs:start', { profileId: 'demo', protocol: 'smoke-signals', body: {} }, r)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', fields: { protocol: expect.any(String) } },
    });
    const huge = { profileId: 'demo', protocol: 'messages', body: { blob: 'x'.repeat(33 * 1024 * 1024) } };
    expect(await core.dispatch('runs:start', huge, r)).toMatchObject({ ok: false, error: { code: 'too_large' } });
    // Counted in bytes, as the host's frame limit counts them: 12 M CJK characters are 36 MB.
    const wide = { profileId: 'demo', protocol: 'messages', body: { blob: '漢'.repeat(12 * 1024 * 1024) } };
    expect(await core.dispatch('runs:start', wide, r)).toMatchObject({ ok: false, error: { code: 'too_large' } });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(await core.dispatch('runs:start', circular, r)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await core.dispatch('profiles:delete', { id: 'demo' }, r)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await core.dispatch('runs:start', { profileId: 'ghost', protocol: 'chat', body: {} }, r)).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(value<ProfilesState>(await core.dispatch('profiles:list', {}, r)).activeId).toBe('demo');
  });
});

describe('core: start-up with damaged files', () => {
  it('moves a corrupt profile file aside, reports it, and starts on the Demo gateway', async () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'profiles.json'), '{"version":1,"profiles":[{"id":');
    const { core } = await newCore(dataDir);
    try {
      const info = value<{ problems: { file: string; message: string; movedTo?: string }[] }>(await core.dispatch('app:info', {}, new Capture()));
      expect(info.problems).toHaveLength(1);
      expect(info.problems[0].message).toMatch(/profiles\.json is not valid JSON.*moved aside/);
      const files = await fs.readdir(dataDir);
      expect(files.some((f) => f.startsWith('profiles.json.corrupt-'))).toBe(true);
      expect(value<ProfilesState>(await core.dispatch('profiles:list', {}, new Capture())).activeId).toBe('demo');
    } finally {
      await core.close();
    }
  });

  it('adds an Environment profile whose key is never written to disk', async () => {
    const dataDir = tempDir();
    const { core } = await newCore(dataDir, { env: { baseUrl: second.url, apiKey: SECOND_KEY } });
    try {
      const r = new Capture();
      const state = value<ProfilesState>(await core.dispatch('profiles:list', {}, r));
      expect(state.activeId).toBe('env');
      expect(state.profiles.find((p) => p.id === 'env')).toMatchObject({ name: 'Environment', key: { hasKey: true, storage: 'env' } });
      const list = value<ModelList>(await core.dispatch('models:list', { profileId: 'env', refresh: true }, r));
      expect(list.models.map((m) => m.id).sort()).toEqual(['gpt-sim-mini', 'sim-chat-only']);
      value(await core.dispatch('profiles:select', { id: 'demo' }, r));
      for (const f of await fs.readdir(dataDir, { recursive: true })) {
        const file = path.join(dataDir, f);
        if (statSync(file).isFile()) expect(readFileSync(file, 'utf8')).not.toContain(SECOND_KEY);
      }
    } finally {
      await core.close();
    }
  });
});

/**
 * A data folder that cannot be written, made so even for root: a regular file where the folder should be
 * fails mkdir (EEXIST, ENOTDIR) whoever runs the test, as permissions would for a user.
 */
describe('core: a data folder that cannot be written', () => {
  const breakDir = (dir: string) => {
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, 'not a folder');
  };
  const mendDir = (dir: string) => {
    rmSync(dir, { force: true });
    mkdirSync(dir);
  };

  it('start-up stops with one sentence naming the folder, what failed and what to do, not a raw error', async () => {
    const blocker = path.join(tempDir(), 'a-file');
    writeFileSync(blocker, 'x');
    const under = path.join(blocker, 'data');
    const failed = newCore(under);
    await expect(failed).rejects.toMatchObject({ name: 'DataDirError', dataDir: under });
    await expect(failed).rejects.toThrow(
      `Gateway Playground cannot start: the data folder ${under} cannot be used (could not create ${under}: a file is where a folder should be, ENOTDIR); make it writable, or choose another data folder.`,
    );

    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'history'), 'x');
    await expect(newCore(dataDir)).rejects.toThrow(/^Gateway Playground cannot start: the data folder .* cannot be used \(could not create .*history: a file is where a folder should be, EEXIST\); make it writable/);
  });

  it('a profile save that cannot be written fails "unwritable", changes nothing, and the same save works once the folder is fixed', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    try {
      const before = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Kept', baseUrl: second.url }, r));
      const kept = before.profiles.find((p) => p.name === 'Kept')!;
      breakDir(dataDir);

      for (const input of [{ name: 'New', baseUrl: second.url }, { name: 'New', baseUrl: second.url, key: SECOND_KEY, keyStorage: 'persist' }]) {
        const failed = await core.dispatch('profiles:save', input, r);
        expect(failed).toMatchObject({ ok: false, error: { code: 'unwritable' } });
        expect(!failed.ok && failed.error.message).toMatch(/^Nothing was saved: .*(profiles\.json|key) could not be (written|stored) \(a file is where a folder should be, E[A-Z]+\)/);
        expect(value<ProfilesState>(await core.dispatch('profiles:list', {}, r))).toEqual(before);
      }
      // A session key needs no write, so it is set before profiles.json fails, and must be taken back.
      const renamed = await core.dispatch('profiles:save', { id: kept.id, name: 'Renamed', baseUrl: second.url, key: SECOND_KEY, keyStorage: 'session' }, r);
      expect(renamed).toMatchObject({ ok: false, error: { code: 'unwritable', message: expect.stringContaining(path.join(dataDir, 'profiles.json')) } });
      expect(await core.dispatch('profiles:select', { id: 'demo' }, r)).toMatchObject({ ok: false, error: { code: 'unwritable' } });
      expect(await core.dispatch('profiles:delete', { id: kept.id }, r)).toMatchObject({ ok: false, error: { code: 'unwritable' } });
      expect(value<ProfilesState>(await core.dispatch('profiles:list', {}, r))).toEqual(before);

      mendDir(dataDir);
      const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'New', baseUrl: second.url }, r));
      expect(saved.profiles.map((p) => p.name)).toEqual(['Demo gateway', 'Kept', 'New']);
      expect(saved.activeId).toBe(saved.profiles[2].id);
      expect(JSON.parse(readFileSync(path.join(dataDir, 'profiles.json'), 'utf8')).profiles.map((p: { name: string }) => p.name)).toEqual(['Kept', 'New']);
    } finally {
      await core.close();
    }
  });

  it('an export too large for import is refused with a way out; a smaller one imports back', async () => {
    const { core } = await newCore();
    const r = new Capture();
    try {
      const image = 'A'.repeat(4 * 1024 * 1024);
      for (let i = 0; i < 9; i++) {
        const body = { model: 'claude-sim-sonnet', max_tokens: 16, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: image } }] }] };
        value(await core.dispatch('presets:save', { name: `Vision ${i}`, protocol: 'messages', body }, r));
      }
      const all = await core.dispatch('presets:export', {}, r);
      expect(all).toMatchObject({ ok: false, error: { code: 'too_large', message: expect.stringContaining('smaller groups') } });
      const presets = value<{ presets: { id: string }[] }>(await core.dispatch('presets:list', {}, r)).presets;
      const some = value<{ text: string; count: number }>(await core.dispatch('presets:export', { ids: presets.slice(0, 3).map((p) => p.id) }, r));
      expect(some.count).toBe(3);
      expect(value<{ imported: number }>(await core.dispatch('presets:import', { text: some.text, onConflict: 'keep-both' }, r)).imported).toBe(3);
    } finally {
      await core.close();
    }
  });

  it('closing the core (quitting a host) keeps a run it stopped in history, partial output included', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    const body = { model: 'sim-fault-slow', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] };
    const { runId } = value<{ runId: string }>(await core.dispatch('runs:start', { profileId: 'demo', protocol: 'messages', body }, r));
    for (let i = 0; i < 200 && !r.text(runId).includes('text_delta'); i++) await new Promise((res) => setTimeout(res, 20));
    await core.close();
    const after = await newCore(dataDir);
    try {
      const recorded = value<{ result: RunResult }>(await after.core.dispatch('history:get', { runId }, r));
      expect(recorded.result.verdict).toBe('cancelled');
      expect(recorded.result.transcript.blocks.some((b) => b.kind === 'text' && b.text !== '')).toBe(true);
    } finally {
      await after.core.close();
    }
  });

  it('a models refresh in a folder that cannot be written still shows the list the gateway gave', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    try {
      breakDir(dataDir);
      const list = value<ModelList>(await core.dispatch('models:list', { profileId: 'demo', refresh: true }, r));
      expect(list.error).toBeUndefined();
      expect(list.models.map((m) => m.id)).toContain('claude-sim-sonnet');
    } finally {
      mendDir(dataDir);
      await core.close();
    }
  });

  it('a preset save that cannot be written fails "unwritable" and leaves no preset behind', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    try {
      breakDir(dataDir);
      const input = { name: 'P', protocol: 'messages', body: { model: 'claude-sim-sonnet' } };
      const failed = await core.dispatch('presets:save', input, r);
      expect(failed).toMatchObject({ ok: false, error: { code: 'unwritable', message: expect.stringContaining(path.join(dataDir, 'presets.json')) } });
      expect(value<{ presets: unknown[] }>(await core.dispatch('presets:list', {}, r)).presets).toEqual([]);
      mendDir(dataDir);
      value(await core.dispatch('presets:save', input, r));
      const [saved] = value<{ presets: { id: string; name: string }[] }>(await core.dispatch('presets:list', {}, r)).presets;
      expect(saved.name).toBe('P');
      // Rename, duplicate and delete report the same code, not "invalid input".
      breakDir(dataDir);
      expect(await core.dispatch('presets:rename', { id: saved.id, name: 'Q' }, r)).toMatchObject({ ok: false, error: { code: 'unwritable' } });
      expect(await core.dispatch('presets:duplicate', { id: saved.id }, r)).toMatchObject({ ok: false, error: { code: 'unwritable' } });
      expect(await core.dispatch('presets:delete', { id: saved.id }, r)).toMatchObject({ ok: false, error: { code: 'unwritable' } });
      mendDir(dataDir);
      expect(value<{ presets: { name: string }[] }>(await core.dispatch('presets:list', {}, r)).presets.map((p) => p.name)).toEqual(['P']);
    } finally {
      await core.close();
    }
  });

  it('a run whose history save fails still ends, and app:info reports it until a save works again', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    const problems = async () => value<{ problems: { file: string; message: string }[] }>(await core.dispatch('app:info', {}, r)).problems;
    const run = async () => {
      const body = { model: 'claude-sim-sonnet', max_tokens: 32, stream: true, messages: [{ role: 'user', content: 'hi' }] };
      const { runId } = value<{ runId: string }>(await core.dispatch('runs:start', { profileId: 'demo', protocol: 'messages', body }, r));
      expect((await r.end(runId)).verdict).toBe('complete');
      return value<{ total: number }>(await core.dispatch('history:list', {}, r)).total;
    };
    try {
      breakDir(dataDir);
      expect(await run()).toBe(0);
      expect(await run()).toBe(0);
      expect(await problems()).toEqual([
        {
          file: path.join(dataDir, 'history'),
          message: expect.stringMatching(/^The last 2 runs were not saved to history: .*history could not be written \(a file is where a folder should be, E[A-Z]+\)/),
        },
      ]);
      mendDir(dataDir);
      expect(await run()).toBe(1);
      expect(await problems()).toEqual([]);
    } finally {
      await core.close();
    }
  });
});

describe('core: runs end with exactly one verdict and keep partial output', () => {
  let core: Core;
  let coreDir: string;
  let r: Capture;
  beforeAll(async () => ({ core, dataDir: coreDir } = await newCore(undefined, { timeouts: { idleMs: 600 } })));
  afterAll(() => core.close());
  afterEach(() => undefined);

  const start = async (protocol: string, body: Record<string, unknown>, receiver = r) =>
    value<{ runId: string }>(await core.dispatch('runs:start', { profileId: 'demo', protocol, body }, receiver)).runId;

  const bodies: Record<string, (model: string) => Record<string, unknown>> = {
    messages: (model) => ({ model, max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'Say hello' }] }),
    chat: (model) => ({ model, max_completion_tokens: 256, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Say hello' }] }),
    responses: (model) => ({ model, max_output_tokens: 256, stream: true, input: 'Say hello' }),
  };

  for (const protocol of ['messages', 'chat', 'responses']) {
    it(`${protocol}: streams events in order and ends complete with usage and timings`, async () => {
      r = new Capture();
      const runId = await start(protocol, bodies[protocol]('claude-sim-sonnet'));
      const result = await r.end(runId);
      expect(result.verdict).toBe('complete');
      const updates = r.updates(runId);
      expect(updates[0].kind).toBe('started');
      expect(updates.filter((u) => u.kind === 'end')).toHaveLength(1);
      expect(updates.at(-1)!.kind).toBe('end');
      const seqs = updates.flatMap((u) => (u.kind === 'events' ? rowsOf(u.events).map((e) => e.seq) : []));
      expect(seqs).toEqual([...seqs.keys()]);
      expect(result.metrics.events).toBe(seqs.length);
      expect(result.metrics.ttftMs).toBeGreaterThan(0);
      expect(result.metrics.totalMs).toBeGreaterThanOrEqual(result.metrics.ttftMs!);
      expect(result.metrics.usage.output).toBeGreaterThan(0);
      const text = result.transcript.blocks.filter((b) => b.kind === 'text').map((b) => (b.kind === 'text' ? b.text : '')).join('');
      expect(text.split(' ').length).toBeGreaterThan(10);
      const ledger = updates[0].kind === 'started' ? updates[0].ledger : undefined;
      expect(ledger?.url).toMatch(/\/v1\/(messages|chat\/completions|responses)$/);
      expect(JSON.stringify(ledger?.headers)).toContain('[redacted');
      expect(r.raw.join('')).not.toContain('demo-key');
    });
  }

  it('non-streaming: one JSON body read into the same transcript', async () => {
    r = new Capture();
    const runId = await start('chat', { model: 'gpt-sim-4o', messages: [{ role: 'user', content: 'hi' }] });
    const result = await r.end(runId);
    expect(result.verdict).toBe('complete');
    expect(result.rawBody).toContain('chat.completion');
    expect(result.metrics.usage.inputTotal).toBeGreaterThan(0);
    const recorded = value<{ ledger: { runId: string }; result: RunResult }>(await core.dispatch('runs:get', { runId }, r));
    expect(recorded.ledger.runId).toBe(runId);
    expect(recorded.result.verdict).toBe('complete');
    expect(await core.dispatch('runs:get', { runId: 'run_gone' }, r)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('a cut stream is "truncated", names the missing terminal event and keeps the partial text', async () => {
    r = new Capture();
    const runId = await start('messages', bodies.messages('sim-fault-cut'));
    const result = await r.end(runId);
    expect(result.verdict).toBe('truncated');
    expect(result.reason).toMatch(/message_stop/);
    expect(result.transcript.blocks.some((b) => b.kind === 'text' && b.text.length > 0)).toBe(true);
  });

  it('an error event inside a 200 stream is "error-event" with its type', async () => {
    r = new Capture();
    const runId = await start('messages', bodies.messages('sim-fault-midstream-error'));
    const result = await r.end(runId);
    expect(result.verdict).toBe('error-event');
    expect(result.error?.type).toBe('overloaded_error');
    expect(result.transcript.blocks.length).toBeGreaterThan(0);
  });

  it('a 429 is "http-error" with the message and retry-after', async () => {
    r = new Capture();
    const runId = await start('chat', bodies.chat('sim-fault-429'));
    const result = await r.end(runId);
    expect(result.verdict).toBe('http-error');
    expect(result.error).toMatchObject({ status: 429, retryAfter: 30 });
    expect(result.error!.requestId).toBeTruthy();
  });

  it('an HTML 502 page is kept as text, not parsed', async () => {
    r = new Capture();
    const runId = await start('responses', bodies.responses('sim-fault-html-502'));
    const result = await r.end(runId);
    expect(result.verdict).toBe('http-error');
    expect(result.error).toMatchObject({ status: 502, type: 'gateway_error' });
    expect(result.rawBody).toMatch(/<html/i);
  });

  it('a stream that goes quiet ends "timeout" with what arrived', async () => {
    r = new Capture();
    const runId = await start('chat', bodies.chat('sim-fault-stall'));
    const result = await r.end(runId);
    expect(result.verdict).toBe('timeout');
    expect(result.reason).toMatch(/went quiet/);
    expect(result.metrics.events).toBeGreaterThan(0);
  });

  it('Stop mid-stream ends "cancelled" and keeps the partial text', async () => {
    r = new Capture();
    const runId = await start('responses', bodies.responses('sim-fault-slow'));
    for (let i = 0; i < 100 && !r.updates(runId).some((u) => u.kind === 'events' && u.events.type.includes('response.output_text.delta')); i++) {
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId }, r)).cancelled).toBe(true);
    const result = await r.end(runId);
    expect(result.verdict).toBe('cancelled');
    expect(result.transcript.blocks.some((b) => b.kind === 'text' && b.text.length > 0)).toBe(true);
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId }, r)).cancelled).toBe(false);
  });

  it('split UTF-8 and events split across TCP writes fold to the same text as a clean stream', async () => {
    r = new Capture();
    const a = await start('messages', bodies.messages('sim-fault-fragmented'));
    const result = await r.end(a);
    expect(result.verdict).toBe('complete');
    const text = result.transcript.blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('');
    expect(text).toMatch(/é/);
    expect(text).not.toContain('\uFFFD');
  });

  it("one window cannot stop another window's run, even knowing its id", async () => {
    r = new Capture();
    const other = new Capture();
    const runId = await start('chat', bodies.chat('sim-fault-slow'));
    // A window that never started a run, then one that has runs of its own.
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId }, other)).cancelled).toBe(false);
    const theirs = await start('chat', bodies.chat('sim-fault-slow'), other);
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId }, other)).cancelled).toBe(false);
    await new Promise((res) => setTimeout(res, 100));
    expect(r.updates(runId).some((u) => u.kind === 'end')).toBe(false);
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId: theirs }, other)).cancelled).toBe(true);
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId }, r)).cancelled).toBe(true);
    expect((await r.end(runId)).verdict).toBe('cancelled');
    expect((await other.end(theirs)).verdict).toBe('cancelled');
  });

  it('a closed window aborts its runs', async () => {
    const gone = new Capture();
    const runId = await start('chat', bodies.chat('sim-fault-slow'), gone);
    await new Promise((res) => setTimeout(res, 150));
    core.receiverClosed(gone);
    await new Promise((res) => setTimeout(res, 200));
    expect(core.runs.activeCount()).toBe(0);
    expect(gone.updates(runId).some((u) => u.kind === 'end')).toBe(false);
  });

  it('a key the gateway echoes mid-stream, even split across TCP writes, is redacted everywhere it would show', async () => {
    r = new Capture();
    const key = 'sk-echoed-key-5f3a9c2e7b41';
    const frames = [
      `event: message_start\ndata: {"type":"message_start","message":{"id":"msg_echo","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":0}}}\n\n`,
      `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n`,
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"you sent ${key}"}}\n\n`,
      `: relay saw ${key}\n\n`,
      `event: error\ndata: {"type":"error","error":{"type":"authentication_error","message":"key ${key} was revoked"}}\n\n`,
    ].join('');
    const cut = frames.indexOf(key) + 9;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frames.slice(0, cut));
      setTimeout(() => res.end(frames.slice(cut)), 40);
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    try {
      const saved = value<ProfilesState>(
        await core.dispatch('profiles:save', { name: 'Echo', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key, keyStorage: 'persist' }, r),
      );
      const p = saved.profiles.find((x) => x.name === 'Echo')!;
      const runId = value<{ runId: string }>(await core.dispatch('runs:start', { profileId: p.id, protocol: 'messages', body: bodies.messages('m') }, r)).runId;
      const result = await r.end(runId);
      expect(result.verdict).toBe('error-event');
      expect(result.reason).toContain('key [redacted] was revoked');
      expect(result.transcript.blocks[0]).toMatchObject({ kind: 'text', text: 'you sent [redacted]' });
      expect(r.text(runId)).toContain('[redacted]');
      expect(r.updates(runId).flatMap((u) => (u.kind === 'events' ? rowsOf(u.events) : [])).find((e) => e.type === 'comment')?.data).toBe('relay saw [redacted]');
      const recorded = await core.dispatch('runs:get', { runId }, r);
      expect(JSON.stringify(recorded)).toContain('[redacted]');
      value(await core.dispatch('history:list', {}, r));
      expect(r.raw.join('')).not.toContain(key);
      expect(JSON.stringify(recorded)).not.toContain(key);
      for (const f of await fs.readdir(coreDir, { recursive: true })) {
        const file = path.join(coreDir, f);
        if (statSync(file).isFile()) expect(readFileSync(file, 'utf8')).not.toContain(key);
      }
    } finally {
      await new Promise<void>((res) => server.close(() => res()));
    }
  });

  /** A one-off gateway on loopback, saved as a profile the core can run against. */
  async function gateway(name: string, handler: http.RequestListener) {
    const server = http.createServer(handler);
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, r));
    const profileId = saved.profiles.find((x) => x.name === name)!.id;
    return {
      run: async (protocol: string, body: Record<string, unknown>) =>
        value<{ runId: string }>(await core.dispatch('runs:start', { profileId, protocol, body }, r)).runId,
      close: () => {
        server.closeAllConnections();
        return new Promise<void>((res) => server.close(() => res()));
      },
    };
  }

  const MESSAGES_STREAM = [
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":0}}}\n\n',
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}\n\n',
    'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}\n\n',
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  ].join('');

  it('the terminal event ends the run even when a relay holds the connection open, silent or pinging', async () => {
    for (const pings of [false, true]) {
      r = new Capture();
      const timers: NodeJS.Timeout[] = [];
      const g = await gateway(`Held open ${pings}`, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(MESSAGES_STREAM);
        if (pings) timers.push(setInterval(() => res.write(': ping\n\n'), 100));
      });
      try {
        const runId = await g.run('messages', bodies.messages('m'));
        // The idle timeout here is 600 ms: waiting for the close would end "timeout", or never with pings.
        const result = await r.end(runId, 3000);
        expect(result.verdict).toBe('complete');
        expect(result.transcript.blocks[0]).toMatchObject({ kind: 'text', text: 'Hello' });
        expect(result.metrics.totalMs).toBeLessThan(500);
      } finally {
        timers.forEach(clearInterval);
        await g.close();
      }
    }
  });

  it('a non-streamed reply reports tokens per second over the whole request, not over reading a finished body', async () => {
    r = new Capture();
    const g = await gateway('Slow JSON', (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'msg_2', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'Hi there' }], stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 30 } }));
      }, 300);
    });
    try {
      const result = await r.end(await g.run('messages', { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }));
      expect(result.verdict).toBe('complete');
      expect(result.metrics.outputTokensPerSec).toBeGreaterThan(0);
      expect(result.metrics.outputTokensPerSec).toBeLessThanOrEqual(30 / 0.3);
    } finally {
      await g.close();
    }
  });

  const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
  /** A gateway that writes each piece of a stream after its delay, then closes. */
  const scripted = (name: string, steps: [delayMs: number, text: string][]) =>
    gateway(name, async (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const [ms, text] of steps) {
        if (ms) await sleep(ms);
        res.write(text);
      }
      res.end();
    });
  const chatChunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  it('tokens per second counts hidden reasoning time: from the response headers when the reasoning never streamed', async () => {
    const usage = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 10, completion_tokens: 1010, total_tokens: 1020, completion_tokens_details: { reasoning_tokens: 1000 } } })}\n\n`;
    const reply = (visibleThinking: boolean): [number, string][] => [
      [0, chatChunk({ role: 'assistant', content: '' })],
      ...(visibleThinking ? [[0, chatChunk({ reasoning_content: 'Let me think.' })] as [number, string]] : []),
      // The model reasons for 400 ms before its first visible word (the idle timeout here is 600 ms).
      [400, chatChunk({ content: 'Hello' })],
      ...Array.from({ length: 9 }, () => [10, chatChunk({ content: ' word' })] as [number, string]),
      [0, chatChunk({}, 'stop')],
      [0, usage],
      [0, 'data: [DONE]\n\n'],
    ];
    for (const visibleThinking of [false, true]) {
      r = new Capture();
      const g = await scripted(`Reasoning ${visibleThinking}`, reply(visibleThinking));
      try {
        const result = await r.end(await g.run('chat', bodies.chat('m')));
        const m = result.metrics;
        expect(result.verdict).toBe('complete');
        expect(m.usage).toMatchObject({ output: 1010, reasoning: 1000 });
        expect(m.ttftMs! - m.ttfbMs!).toBeLessThan(visibleThinking ? 300 : 1e9);
        // Hidden: 1,010 tokens over at least the 400 ms of reasoning, not over the 100 ms of visible words.
        const from = visibleThinking ? m.ttftMs! : m.ttfbMs!;
        expect(m.outputTokensPerSec).toBeCloseTo((1010 / (m.totalMs - from)) * 1000, 0);
        if (!visibleThinking) expect(m.outputTokensPerSec).toBeLessThan(1010 / 0.4);
      } finally {
        await g.close();
      }
    }
  });

  it('a Messages stream cut before message_delta reports output as not reported, and no tokens per second', async () => {
    r = new Capture();
    const named = (o: { type: string }) => `event: ${o.type}\ndata: ${JSON.stringify(o)}\n\n`;
    const g = await scripted('Cut Messages', [
      [0, named({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 20, output_tokens: 1 } } } as { type: string })],
      [0, named({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } as { type: string })],
      ...Array.from({ length: 20 }, () => [5, named({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'token ' } } as { type: string })] as [number, string]),
    ]);
    try {
      const result = await r.end(await g.run('messages', bodies.messages('m')));
      expect(result.verdict).toBe('truncated');
      expect(result.metrics.usage).toEqual({ inputTotal: 20 });
      expect(result.metrics.usage.output).toBeUndefined();
      expect(result.metrics.outputTokensPerSec).toBeUndefined();
    } finally {
      await g.close();
    }
  });

  it('event sizes are UTF-8 bytes: the live byte total of a CJK stream equals the final byte count', async () => {
    r = new Capture();
    const g = await scripted('CJK', [
      [0, chatChunk({ role: 'assistant', content: '' })],
      ...Array.from({ length: 10 }, () => [2, chatChunk({ content: '你好世界，这是一个测试。🚀' })] as [number, string]),
      [0, chatChunk({}, 'stop')],
      [0, 'data: [DONE]\n\n'],
    ]);
    try {
      const runId = await g.run('chat', bodies.chat('m'));
      const result = await r.end(runId);
      const events = r.updates(runId).flatMap((u) => (u.kind === 'events' ? rowsOf(u.events) : []));
      expect(events).toHaveLength(13);
      for (const e of events) expect(e.size).toBe(Buffer.byteLength(`data: ${e.data}\n\n`));
      expect(events.reduce((n, e) => n + e.size, 0)).toBe(result.metrics.bytes);
    } finally {
      await g.close();
    }
  });

  it('Responses text that arrives only in output_item.done still gives a time to first token', async () => {
    r = new Capture();
    const ev = (o: Record<string, unknown> & { type: string }) => `event: ${o.type}\ndata: ${JSON.stringify(o)}\n\n`;
    const item = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello there', annotations: [] }] };
    const g = await scripted('Done-only Responses', [
      [0, ev({ type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } })],
      [0, ev({ type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } })],
      [150, ev({ type: 'response.output_item.done', output_index: 0, item })],
      [0, ev({ type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [item], usage: { input_tokens: 5, output_tokens: 3 } } })],
    ]);
    try {
      const result = await r.end(await g.run('responses', bodies.responses('m')));
      expect(result.verdict).toBe('complete');
      expect(result.transcript.blocks).toEqual([{ kind: 'text', text: 'Hello there' }]);
      expect(result.metrics.ttftMs).toBeGreaterThanOrEqual(result.metrics.ttfbMs! + 100);
    } finally {
      await g.close();
    }
  });

  it('a 200 body that failed part way keeps the output and usage it carries', async () => {
    r = new Capture();
    const g = await gateway('Failed body', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        id: 'resp_1', object: 'response', status: 'failed', error: { code: 'server_error', message: 'upstream died' },
        output: [{ type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Partial answer so far' }] }],
        usage: { input_tokens: 300, output_tokens: 40 },
      }));
    });
    try {
      const result = await r.end(await g.run('responses', { model: 'm', input: 'hi' }));
      expect(result.verdict).toBe('error-event');
      expect(result.reason).toContain('upstream died');
      expect(result.transcript.blocks).toEqual([expect.objectContaining({ kind: 'text', text: 'Partial answer so far' })]);
      expect(result.metrics.usage).toMatchObject({ inputTotal: 300, output: 40 });
    } finally {
      await g.close();
    }
  });

  it('an HTML error page with an out-of-range character reference still ends the run, as text', async () => {
    r = new Capture();
    const g = await gateway('Odd HTML', (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><head><title>Bad gateway</title></head><body>Upstream &#99999999; failed &#233;</body></html>');
    });
    try {
      const result = await r.end(await g.run('chat', bodies.chat('m')), 3000);
      expect(result.verdict).toBe('http-error');
      expect(result.error?.message).toContain('&#99999999;');
      expect(result.error?.message).toContain('é');
    } finally {
      await g.close();
    }
  });

  it('a refused connection is "network-error" and names it', async () => {
    r = new Capture();
    const server = http.createServer();
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((res) => server.close(() => res()));
    const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Closed port', baseUrl: `http://127.0.0.1:${port}` }, r));
    const p = saved.profiles.find((x) => x.name === 'Closed port')!;
    const runId = value<{ runId: string }>(await core.dispatch('runs:start', { profileId: p.id, protocol: 'chat', body: bodies.chat('x') }, r)).runId;
    const result = await r.end(runId);
    expect(result.verdict).toBe('network-error');
    expect(result.error?.type).toBe('network:refused');
  });
});
