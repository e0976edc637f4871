/**
 * Integration: the core against real simulated gateways over loopback HTTP (connection profiles and models, and what is forgotten when a connection changes), driven through
 * `dispatch` exactly as both hosts drive it (see testing/core-harness.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { CapabilityList, GuardReport, ModelList, ProfilesState } from '../../shared/contract';
import type { Core } from './service';
import type { RunningSimulator } from './simulator';
import { Capture, newCore, SECOND_KEY, useSecondGateways, value } from './testing/core-harness';

const gw = useSecondGateways();

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
    expect(list.models.map((m) => m.id)).toEqual(
      expect.arrayContaining(['claude-sim-sonnet', 'gpt-sim-4o', 'sim-firehose']),
    );
    expect(list.models.find((m) => m.id === 'claude-sim-sonnet')?.family).toBe('anthropic');
    expect(list.fetchedAt).toBeTruthy();
    // The core names the simulator's fault models and its everyday model; the window names none.
    expect(list.suggested).toBe('claude-sim-sonnet');
    const faults = list.models.filter((m) => m.fault).map((m) => m.id);
    expect(faults).toEqual(expect.arrayContaining(['sim-firehose', 'sim-fault-cut', 'sim-fault-429']));
    expect(faults.every((id) => id.startsWith('sim-'))).toBe(true);
    expect(list.models.find((m) => m.id === 'claude-sim-sonnet')?.fault).toBeUndefined();
  });

  it('adds a profile with a key; the key is only ever hinted, never returned or written in clear', async () => {
    const saved = value<ProfilesState>(
      await core.dispatch(
        'profiles:save',
        { name: 'Second', baseUrl: `${gw.second.url}/v1`, key: SECOND_KEY, keyStorage: 'persist' },
        r,
      ),
    );
    const p = saved.profiles.find((x) => x.name === 'Second')!;
    // A new profile does not take over from the one in use unless the user asks for it.
    expect(saved.activeId).toBe('demo');
    const used = value<ProfilesState>(
      await core.dispatch('profiles:save', { id: p.id, name: 'Second', baseUrl: `${gw.second.url}/v1`, use: true }, r),
    );
    expect(used.activeId).toBe(p.id);
    const edited = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Third', baseUrl: `${gw.second.url}/v1` }, r),
    );
    expect(edited.activeId).toBe(p.id);
    await core.dispatch('profiles:delete', { id: edited.profiles.find((x) => x.name === 'Third')!.id }, r);
    expect(p.key).toEqual({ hasKey: true, hint: '…cdef', storage: 'file' });
    expect(JSON.stringify(saved)).not.toContain(SECOND_KEY);
    const list = value<ModelList>(await core.dispatch('models:list', { profileId: p.id, refresh: true }, r));
    expect(list.models.map((m) => m.id).sort()).toEqual(['gpt-sim-mini', 'sim-chat-only']);
    // Another gateway has no fault models: its first model is the one to start with.
    expect(list.models.some((m) => m.fault)).toBe(false);
    expect(list.suggested).toBe(list.models[0].id);
    expect(JSON.stringify(list)).not.toContain(SECOND_KEY);
    expect(readFileSync(path.join(dataDir, 'profiles.json'), 'utf8')).not.toContain(SECOND_KEY);
    const keysFile = path.join(dataDir, 'keys.json');
    expect(readFileSync(keysFile, 'utf8')).not.toContain(SECOND_KEY);
    expect(statSync(keysFile).mode & 0o777).toBe(0o600);
  });

  it('refuses a base URL that already ends in an endpoint path, and says which base was meant', async () => {
    for (const [baseUrl, meant] of [
      [`${gw.second.url}/v1/v1`, `${gw.second.url}/v1`],
      [`${gw.second.url}/v1/chat/completions`, `${gw.second.url}/v1`],
    ]) {
      const refused = await core.dispatch('profiles:save', { name: 'Doubled', baseUrl }, r);
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(!refused.ok && refused.error.fields?.baseUrl).toContain(`did you mean ${meant}?`);
    }
    const state = value<ProfilesState>(await core.dispatch('profiles:list', {}, r));
    expect(state.profiles.some((p) => p.name === 'Doubled')).toBe(false);
  });

  it('a secret extra header is sent with every request, but never listed, written in clear, exported or recorded', async () => {
    const HELICONE = 'Bearer sk-helicone-core-SECRET-9876';
    const saved = value<ProfilesState>(
      await core.dispatch(
        'profiles:save',
        {
          name: 'Behind Helicone',
          baseUrl: gw.second.url,
          key: SECOND_KEY,
          extraHeaders: { 'x-team': 'blue', 'helicone-auth': HELICONE },
        },
        r,
      ),
    );
    const id = saved.profiles.find((x) => x.name === 'Behind Helicone')!.id;
    const listed = JSON.stringify(value<ProfilesState>(await core.dispatch('profiles:list', {}, r)));
    for (const text of [
      JSON.stringify(saved),
      listed,
      readFileSync(path.join(dataDir, 'profiles.json'), 'utf8'),
      readFileSync(path.join(dataDir, 'keys.json'), 'utf8'),
    ]) {
      expect(text).not.toContain('SECRET');
    }

    const before = gw.second.requests.length;
    expect(
      value<ModelList>(await core.dispatch('models:list', { profileId: id, refresh: true }, r)).error,
    ).toBeUndefined();
    const body = { model: 'gpt-sim-mini', messages: [{ role: 'user', content: 'hi' }] };
    const { runId } = value<{ runId: string }>(
      await core.dispatch('runs:start', { profileId: id, protocol: 'chat', body }, r),
    );
    expect((await r.end(runId)).verdict).toBe('complete');
    const sent = gw.second.requests.slice(before);
    expect(sent.map((q) => [q.path, q.headers['helicone-auth'], q.headers['x-team']])).toEqual([
      ['/v1/models', HELICONE, 'blue'],
      ['/v1/chat/completions', HELICONE, 'blue'],
    ]);

    await core.runs.settled();
    expect(JSON.stringify(r.updates(runId))).not.toContain('SECRET');
    expect(JSON.stringify(value(await core.dispatch('history:get', { runId }, r)))).not.toContain('SECRET');
    const code = value<{ code: string }>(
      await core.dispatch('export:code', { profileId: id, protocol: 'chat', body, language: 'curl' }, r),
    ).code;
    expect(code).toContain('helicone-auth: <HELICONE_AUTH>');
    expect(code).not.toContain('SECRET-9876');
  });

  it('says which models appeared and disappeared after a refresh', async () => {
    const state = value<ProfilesState>(await core.dispatch('profiles:list', {}, r));
    const p = state.profiles.find((x) => x.name === 'Second')!;
    const served = gw.secondKeys[SECOND_KEY];
    gw.secondKeys[SECOND_KEY] = ['gpt-sim-mini', 'claude-sim-haiku'];
    try {
      const cached = value<ModelList>(await core.dispatch('models:list', { profileId: p.id }, r));
      expect(cached.models.map((m) => m.id)).toContain('sim-chat-only');
      const list = value<ModelList>(await core.dispatch('models:list', { profileId: p.id, refresh: true }, r));
      expect(list.added).toEqual(['claude-sim-haiku']);
      expect(list.removed).toEqual(['sim-chat-only']);
    } finally {
      gw.secondKeys[SECOND_KEY] = served;
    }
  });

  it('shows status, the gateway message and request id for a 401, keeping the last good list', async () => {
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Bad key', baseUrl: gw.second.url, key: 'sk-wrong-key-9999' }, r),
    );
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
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Nobody home', baseUrl: `http://127.0.0.1:${port}` }, r),
    );
    const p = saved.profiles.find((x) => x.name === 'Nobody home')!;
    const list = value<ModelList>(await core.dispatch('models:list', { profileId: p.id, refresh: true }, r));
    expect(list.error?.type).toBe('network:refused');
  });

  it('follows first-family pagination to the last page', async () => {
    const pages: Record<string, unknown> = {
      '': {
        data: [
          { type: 'model', id: 'm1' },
          { type: 'model', id: 'm2' },
        ],
        has_more: true,
        first_id: 'm1',
        last_id: 'm2',
      },
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
      const saved = value<ProfilesState>(
        await core.dispatch(
          'profiles:save',
          { name: 'Paged', baseUrl: url, key: 'k-paged-1234', authScheme: 'x-api-key' },
          r,
        ),
      );
      const p = saved.profiles.find((x) => x.name === 'Paged')!;
      const list = value<ModelList>(await core.dispatch('models:list', { profileId: p.id, refresh: true }, r));
      expect(list.models.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
      expect(list.pages).toBe(3);
    } finally {
      server.close();
    }
  });
});

describe('core: what was learnt through a connection is forgotten when the connection changes', () => {
  let core: Core;
  const r = new Capture();
  // The user says yes in the host's own dialog whenever a key would follow a host change.
  beforeAll(async () => ({ core } = await newCore(undefined, { confirmer: { confirm: async () => true } })));
  afterAll(() => core.close());

  const toolBody = (model: string) => ({
    model,
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    tools: [
      {
        type: 'function',
        function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    ],
  });
  const toolsState = async (profileId: string, model: string) =>
    value<GuardReport>(
      await core.dispatch('capabilities:guard', { profileId, model, protocol: 'chat', body: toolBody(model) }, r),
    ).items.find((i) => i.capability === 'tools')?.state;
  const stored = async (profileId: string) =>
    value<CapabilityList>(await core.dispatch('capabilities:list', { profileId }, r)).results;
  const proveTools = async (profileId: string, model: string) => {
    const { jobId } = value<{ jobId: string }>(
      await core.dispatch(
        'capabilities:probe',
        { profileId, models: [model], protocols: ['chat'], capabilities: ['tools'] },
        r,
      ),
    );
    for (
      let waited = 0;
      value<CapabilityList>(await core.dispatch('capabilities:list', { profileId }, r)).jobs.some(
        (j) => j.jobId === jobId,
      );
      waited += 20
    ) {
      if (waited > 20_000) throw new Error(`probe job ${jobId} did not finish`);
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(await toolsState(profileId, model)).toBe('proven');
  };
  const modelsRequests = (sim: RunningSimulator) => sim.requests.filter((q) => q.path === '/v1/models').length;
  const cachedModels = async (profileId: string) =>
    value<ModelList>(await core.dispatch('models:list', { profileId }, r));

  it('a save that only renames (same URL in another spelling, same key typed again) keeps probe results and the model list', async () => {
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Renamed later', baseUrl: gw.second.url, key: SECOND_KEY }, r),
    );
    const id = saved.profiles.find((p) => p.name === 'Renamed later')!.id;
    expect((await cachedModels(id)).models.map((m) => m.id).sort()).toEqual(['gpt-sim-mini', 'sim-chat-only']);
    await proveTools(id, 'sim-chat-only');
    const listed = modelsRequests(gw.second);

    value(
      await core.dispatch(
        'profiles:save',
        { id, name: 'Now renamed', baseUrl: `${gw.second.url}/v1/`, key: SECOND_KEY },
        r,
      ),
    );
    expect(await toolsState(id, 'sim-chat-only')).toBe('proven');
    expect(await stored(id)).toHaveLength(1);
    expect((await cachedModels(id)).models.map((m) => m.id).sort()).toEqual(['gpt-sim-mini', 'sim-chat-only']);
    expect(modelsRequests(gw.second)).toBe(listed);
  });

  it('a new base URL, auth scheme, extra header or key forgets the probe results and the cached model list', async () => {
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Moves around', baseUrl: gw.second.url, key: SECOND_KEY }, r),
    );
    const id = saved.profiles.find((p) => p.name === 'Moves around')!.id;
    await cachedModels(id);
    await proveTools(id, 'sim-chat-only');

    // The third gateway does not serve sim-chat-only: nothing proven on the second may still be claimed.
    // The user keeps the key for the third gateway (it takes the same key) and confirms it outside the page:
    // without that, the key is dropped.
    const keepSecretsForOrigin = new URL(gw.third.url).origin;
    const form = {
      id,
      name: 'Moves around',
      baseUrl: gw.third.url,
      keepSecretsForOrigin,
      authScheme: 'native',
      extraHeaders: {} as Record<string, string>,
    };
    value(await core.dispatch('profiles:save', form, r));
    expect(await toolsState(id, 'sim-chat-only')).toBe('unknown');
    expect(await stored(id)).toEqual([]);
    const listed = modelsRequests(gw.third);
    expect((await cachedModels(id)).models.map((m) => m.id).sort()).toEqual(['claude-sim-haiku', 'gpt-sim-mini']);
    expect(modelsRequests(gw.third)).toBe(listed + 1);

    const edits: Record<string, unknown>[] = [
      { ...form, authScheme: 'bearer' },
      { ...form, authScheme: 'bearer', extraHeaders: { 'x-tenant': 'blue' } },
      {
        ...form,
        authScheme: 'bearer',
        extraHeaders: { 'x-tenant': 'blue' },
        key: 'sk-another-key-for-the-same-gateway',
      },
    ];
    for (const edit of edits) {
      await proveTools(id, 'gpt-sim-mini');
      await cachedModels(id);
      const before = modelsRequests(gw.third);
      value(await core.dispatch('profiles:save', edit, r));
      expect(await toolsState(id, 'gpt-sim-mini'), JSON.stringify(edit)).toBe('unknown');
      expect(await stored(id)).toEqual([]);
      await cachedModels(id);
      expect(modelsRequests(gw.third), `models list after ${JSON.stringify(edit)}`).toBe(before + 1);
    }
  });

  it('a new secret header value forgets what was learnt; a save that keeps the stored one does not', async () => {
    const form = { name: 'Behind a relay', baseUrl: gw.second.url, key: SECOND_KEY };
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { ...form, extraHeaders: { 'x-relay-token': 'relay-token-one-1111' } }, r),
    );
    const id = saved.profiles.find((p) => p.name === 'Behind a relay')!.id;
    await cachedModels(id);
    await proveTools(id, 'sim-chat-only');
    const listed = modelsRequests(gw.second);

    const keep = {
      ...form,
      id,
      extraHeaders: { 'x-relay-token': '' },
      keepSecretHeaders: { 'x-relay-token': 'x-relay-token' },
    };
    value(await core.dispatch('profiles:save', keep, r));
    expect(await toolsState(id, 'sim-chat-only')).toBe('proven');
    await cachedModels(id);
    expect(modelsRequests(gw.second)).toBe(listed);

    value(
      await core.dispatch(
        'profiles:save',
        { ...form, id, extraHeaders: { 'x-relay-token': 'relay-token-two-2222' } },
        r,
      ),
    );
    expect(await toolsState(id, 'sim-chat-only')).toBe('unknown');
    expect(await stored(id)).toEqual([]);
  });

  it('a probe job still running against the old connection is stopped and records nothing afterwards', async () => {
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Edited mid-probe', baseUrl: gw.second.url, key: SECOND_KEY }, r),
    );
    const id = saved.profiles.find((p) => p.name === 'Edited mid-probe')!.id;
    const { jobId, total } = value<{ jobId: string; total: number }>(
      await core.dispatch(
        'capabilities:probe',
        { profileId: id, models: ['gpt-sim-mini', 'sim-chat-only'], protocols: ['chat'] },
        r,
      ),
    );
    expect(total).toBeGreaterThan(4);
    value(await core.dispatch('profiles:save', { id, name: 'Edited mid-probe', baseUrl: gw.third.url }, r));
    const ended = Date.now();
    while (r.raw.every((p) => !(p.includes(jobId) && /"state":"(cancelled|finished)"/.test(p)))) {
      if (Date.now() - ended > 20_000) throw new Error(`probe job ${jobId} did not end`);
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(r.raw.some((p) => p.includes(jobId) && p.includes('"state":"cancelled"'))).toBe(true);
    expect(await stored(id)).toEqual([]);
  });
});
