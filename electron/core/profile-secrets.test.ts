/**
 * Issue 25 for profiles, against real simulated gateways on loopback and real files in a temp data dir, driven
 * through `dispatch` as both hosts drive it: credential headers by name or by the form's switch live in the
 * vault and show redacted everywhere; a key never follows a host change unasked; proxy and URL credentials are
 * secrets too; Test connection says which auth header works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { AppInfo, ProfilesState, ProfileTestResult, Result, RunResult, RunUpdate } from '../../shared/contract';
import { createCore, type Receiver } from './service';
import { LayeredVault } from './vault';
import { ProfileStore } from './profiles';
import { startSimulator, type RunningSimulator } from './simulator';
import { tempDirs } from './testing/temp-dirs';
import type { Confirmer, Question } from './confirmer';

const KEY = 'sk-secret-profile-key-0123456789';
/** Credential headers gateways invent, which the earlier name list let through in clear. */
const INVENTED: Record<string, string> = {
  'x-portkey-virtual-key': 'vk-portkey-SECRET-0001',
  'x-functions-key': 'fn-azure-SECRET-0002',
  'x-gateway-key': 'gw-SECRET-0003-value',
  'x-llm-key': 'llm-SECRET-0004-value',
  'x-jwt': 'eyJhbGciOi.SECRET-0005.sig',
};
const temp = tempDirs('gp-psec-');

class Capture implements Receiver {
  readonly updates: RunUpdate[] = [];
  send(name: string, payload: unknown): void {
    if (name === 'runs:update') this.updates.push(...(payload as RunUpdate[]));
  }
  async end(runId: string): Promise<RunResult> {
    for (let i = 0; i < 750; i++) {
      const end = this.updates.find((u) => u.runId === runId && u.kind === 'end');
      if (end?.kind === 'end') return end.result;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`run ${runId} did not end`);
  }
}

function value<T>(r: Result<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

let gwA: RunningSimulator;
let gwB: RunningSimulator;
let xOnly: RunningSimulator;
beforeAll(async () => {
  gwA = await startSimulator({ port: 0, keys: { [KEY]: ['gpt-sim-mini', 'claude-sim-haiku'] } });
  gwB = await startSimulator({ port: 0, keys: { [KEY]: ['gpt-sim-mini'] } });
  xOnly = await startSimulator({ port: 0, keys: { [KEY]: ['gpt-sim-mini'] }, authHeaders: ['x-api-key'] });
});
afterAll(async () => {
  await Promise.all([gwA.close(), gwB.close(), xOnly.close()]);
});

/** `confirmer`: how the host answers the core's questions outside the page; none, as in the browser host. */
async function newCore(dataDir = temp(), confirmer?: Confirmer) {
  const core = await createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
    confirmer,
  });
  return { core, dataDir };
}

const idOf = (state: ProfilesState, name: string) => state.profiles.find((p) => p.name === name)!.id;

describe('secret headers', () => {
  it('credential-named and marked headers are sent, but never in profiles.json, the ledger, history or an export', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    try {
      const extraHeaders = { ...INVENTED, 'x-tenant': 'tnt-42', 'x-team': 'blue' };
      const state = value<ProfilesState>(
        await core.dispatch(
          'profiles:save',
          { name: 'Relay', baseUrl: gwA.url, key: KEY, extraHeaders, secretHeaders: ['x-tenant'] },
          r,
        ),
      );
      const id = idOf(state, 'Relay');
      const view = state.profiles.find((p) => p.id === id)!;
      expect(Object.keys(view.secretHeaders).sort()).toEqual([...Object.keys(INVENTED), 'x-tenant'].sort());
      expect(view.extraHeaders['x-team']).toBe('blue');

      const body = { model: 'gpt-sim-mini', messages: [{ role: 'user', content: 'hi' }] };
      const { runId } = value<{ runId: string }>(
        await core.dispatch('runs:start', { profileId: id, protocol: 'chat', body }, r),
      );
      expect((await r.end(runId)).verdict).toBe('complete');
      const sent = gwA.requests.at(-1)!.headers;
      for (const [name, v] of Object.entries(extraHeaders)) expect(sent[name]).toBe(v);

      await core.runs.settled();
      const started = r.updates.find((u) => u.runId === runId && u.kind === 'started');
      const ledger = started?.kind === 'started' ? started.ledger : undefined;
      for (const name of [...Object.keys(INVENTED), 'x-tenant']) expect(ledger?.headers[name]).toBe('[redacted]');
      expect(ledger?.headers['x-team']).toBe('blue');

      const code = value<{ code: string }>(await core.dispatch('history:code', { runId, language: 'curl' }, r)).code;
      const live = value<{ code: string }>(
        await core.dispatch('export:code', { profileId: id, protocol: 'chat', body, language: 'curl' }, r),
      ).code;
      for (const text of [code, live]) {
        expect(text).toContain("-H 'x-portkey-virtual-key: <X_PORTKEY_VIRTUAL_KEY>'");
        expect(text).toContain("-H 'x-jwt: <X_JWT>'");
        expect(text).toContain("-H 'x-tenant: <X_TENANT>'");
      }
      const history = JSON.stringify(value(await core.dispatch('history:get', { runId }, r)));
      const everything = [
        history,
        code,
        live,
        JSON.stringify(r.updates),
        JSON.stringify(state),
        readFileSync(path.join(dataDir, 'profiles.json'), 'utf8'),
      ].join('\n');
      for (const secret of [...Object.values(INVENTED), 'tnt-42', KEY]) expect(everything).not.toContain(secret);
    } finally {
      await core.close();
    }
  });

  it('moves credential header values saved in clear in profiles.json to the vault at start-up', async () => {
    const dataDir = temp();
    const file = path.join(dataDir, 'profiles.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        profiles: [
          {
            id: 'old',
            name: 'Old',
            baseUrl: gwA.url,
            authScheme: 'native',
            extraHeaders: { ...INVENTED, 'x-team': 'blue' },
          },
        ],
      }),
    );
    const { core } = await newCore(dataDir);
    try {
      const onDisk = readFileSync(file, 'utf8');
      for (const secret of Object.values(INVENTED)) expect(onDisk).not.toContain(secret);
      expect(JSON.parse(onDisk).profiles[0].secretHeaders.sort()).toEqual(Object.keys(INVENTED).sort());
      const r = new Capture();
      await core.dispatch('models:list', { profileId: 'old', refresh: true }, r);
      expect(gwA.requests.at(-1)!.headers['x-portkey-virtual-key']).toBe(INVENTED['x-portkey-virtual-key']);
    } finally {
      await core.close();
    }
  });
});

describe('a key never follows a host change', () => {
  it('Test connection on the unsaved form sends the stored key only to the origin it was saved for', async () => {
    const { core } = await newCore(undefined, { confirm: async () => true });
    const r = new Capture();
    try {
      const id = idOf(
        value<ProfilesState>(await core.dispatch('profiles:save', { name: 'P', baseUrl: gwA.url, key: KEY }, r)),
        'P',
      );
      const draft = { id, name: 'P', baseUrl: `${gwA.url}/v1` };
      const same = value<ProfileTestResult>(await core.dispatch('profiles:test', { draft }, r));
      expect(same.ok).toBe(true);
      expect([...same.models].sort()).toEqual(['claude-sim-haiku', 'gpt-sim-mini']);

      const before = gwB.requests.length;
      const elsewhere = value<ProfileTestResult>(
        await core.dispatch(
          'profiles:test',
          { draft: { ...draft, baseUrl: gwB.url, keepSecretsForOrigin: gwB.url } },
          r,
        ),
      );
      expect(elsewhere.ok).toBe(false);
      expect(elsewhere.attempts).toEqual([expect.objectContaining({ header: 'none', status: 401 })]);
      expect(JSON.stringify(gwB.requests.slice(before))).not.toContain(KEY);

      const typed = value<ProfileTestResult>(
        await core.dispatch('profiles:test', { draft: { name: 'New', baseUrl: gwB.url, key: KEY } }, r),
      );
      expect(typed).toMatchObject({ ok: true, models: ['gpt-sim-mini'] });
      expect(JSON.stringify(typed)).not.toContain(KEY);
      // Nothing was saved by testing.
      const state = value<ProfilesState>(await core.dispatch('profiles:list', {}, r));
      expect(state.profiles.map((p) => p.name)).toEqual(['Demo gateway', 'P']);
      expect(state.profiles[1].baseUrl).toBe(gwA.url);
    } finally {
      await core.close();
    }
  });

  it("a caller's keepSecretsForOrigin is only a wish: with no host to ask, nothing is saved and the new host gets no key", async () => {
    const { core } = await newCore();
    const r = new Capture();
    const seen: http.IncomingHttpHeaders[] = [];
    const listener = http.createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"who?"}}');
    });
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const elsewhere = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    try {
      const helicone = 'Bearer sk-helicone-wish-0987654321';
      const id = idOf(
        value<ProfilesState>(
          await core.dispatch(
            'profiles:save',
            { name: 'P', baseUrl: gwA.url, key: KEY, extraHeaders: { 'helicone-auth': helicone } },
            r,
          ),
        ),
        'P',
      );
      // What a token holder driving the socket would send: the form's "keep" for the new origin, and more.
      const forged = {
        id,
        name: 'P',
        baseUrl: elsewhere,
        extraHeaders: { 'helicone-auth': '' },
        keepSecretHeaders: { 'helicone-auth': 'helicone-auth' },
        keepSecretsForOrigin: elsewhere,
        confirmed: true,
      };
      expect(await core.dispatch('profiles:save', forged, r)).toMatchObject({ ok: false });
      const { confirmed: _c, ...wish } = forged;
      const refused = await core.dispatch('profiles:save', wish, r);
      expect(refused).toMatchObject({ ok: false, error: { code: 'not_confirmed' } });
      await core.dispatch('profiles:test', { id }, r);
      await core.dispatch('models:list', { profileId: id, refresh: true }, r);
      // Saved without the wish, it moves, and the stored secrets stay behind.
      const moved = value<ProfilesState>(
        await core.dispatch('profiles:save', { ...wish, keepSecretsForOrigin: undefined }, r),
      );
      expect(moved.profiles.find((p) => p.id === id)!.key.hasKey).toBe(false);
      await core.dispatch('profiles:test', { id }, r);
      expect(seen.length).toBeGreaterThan(0);
      for (const h of seen) {
        expect(h['x-api-key']).toBeUndefined();
        expect(h.authorization).toBeUndefined();
        expect(h['helicone-auth']).toBeUndefined();
      }
      expect(JSON.stringify(seen)).not.toContain('0123456789');
    } finally {
      await core.close();
      await new Promise((done) => listener.close(done));
    }
  });

  it('a new origin without the confirmation clears the stored key and secret headers: the new host gets neither', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    try {
      const helicone = 'Bearer sk-helicone-follow-0987654321';
      const id = idOf(
        value<ProfilesState>(
          await core.dispatch(
            'profiles:save',
            { name: 'P', baseUrl: gwA.url, key: KEY, extraHeaders: { 'helicone-auth': helicone } },
            r,
          ),
        ),
        'P',
      );
      // The form sends a kept secret header as '' with its stored name.
      const moved = {
        id,
        name: 'P',
        baseUrl: `${gwB.url}/v1`,
        extraHeaders: { 'helicone-auth': '' },
        keepSecretHeaders: { 'helicone-auth': 'helicone-auth' },
      };
      const state = value<ProfilesState>(await core.dispatch('profiles:save', moved, r));
      const view = state.profiles.find((p) => p.id === id)!;
      expect(view.key.hasKey).toBe(false);
      expect(view.secretHeaders['helicone-auth']).toEqual({ hasValue: false, storage: 'none' });

      const before = gwB.requests.length;
      const list = value<{ error?: { status?: number } }>(
        await core.dispatch('models:list', { profileId: id, refresh: true }, r),
      );
      expect(list.error?.status).toBe(401);
      const got = JSON.stringify(gwB.requests.slice(before));
      expect(got).not.toContain(KEY);
      expect(got).not.toContain('follow-0987654321');
      const keys = readFileSync(path.join(dataDir, 'keys.json'), 'utf8');
      expect(JSON.parse(keys).keys).toEqual({});
    } finally {
      await core.close();
    }
  });

  it("keeps them when the user said yes in the host's own dialog, and on a new path of the same origin", async () => {
    const asked: Question[] = [];
    const { core } = await newCore(undefined, { confirm: async (q) => (asked.push(q), true) });
    const r = new Capture();
    try {
      const id = idOf(
        value<ProfilesState>(await core.dispatch('profiles:save', { name: 'P', baseUrl: gwA.url, key: KEY }, r)),
        'P',
      );
      const samePath = value<ProfilesState>(
        await core.dispatch('profiles:save', { id, name: 'P', baseUrl: `${gwA.url}/v1` }, r),
      );
      expect(samePath.profiles.find((p) => p.id === id)!.key.hasKey).toBe(true);
      // A confirmation for another origin than the one saved is no confirmation.
      const wrong = { id, name: 'P', baseUrl: gwB.url, keepSecretsForOrigin: gwA.url };
      const confirmedElsewhere = value<ProfilesState>(
        await core.dispatch('profiles:save', { ...wrong, baseUrl: gwA.url.replace('127.0.0.1', 'localhost') }, r),
      );
      expect(confirmedElsewhere.profiles.find((p) => p.id === id)!.key.hasKey).toBe(false);
      await core.dispatch('profiles:save', { id, name: 'P', baseUrl: gwA.url, key: KEY }, r);
      const kept = value<ProfilesState>(
        await core.dispatch(
          'profiles:save',
          { id, name: 'P', baseUrl: gwB.url, keepSecretsForOrigin: new URL(gwB.url).origin },
          r,
        ),
      );
      expect(kept.profiles.find((p) => p.id === id)!.key.hasKey).toBe(true);
      expect(asked.map((q) => q.message)).toEqual([
        `Send the saved key for ${new URL(gwA.url).origin} to ${new URL(gwB.url).origin}? (profile “P”)`,
      ]);
      const list = value<{ models: { id: string }[] }>(
        await core.dispatch('models:list', { profileId: id, refresh: true }, r),
      );
      expect(list.models.map((m) => m.id)).toEqual(['gpt-sim-mini']);
    } finally {
      await core.close();
    }
  });
});

describe('Test connection', () => {
  it('lists the models and says status, latency and which auth header worked', async () => {
    const { core } = await newCore();
    const r = new Capture();
    try {
      const state = value<ProfilesState>(
        await core.dispatch(
          'profiles:save',
          { name: 'X only', baseUrl: xOnly.url, key: KEY, authScheme: 'x-api-key' },
          r,
        ),
      );
      const result = value<ProfileTestResult>(await core.dispatch('profiles:test', { id: idOf(state, 'X only') }, r));
      expect(result).toMatchObject({ ok: true, status: 200, modelCount: 1, models: ['gpt-sim-mini'] });
      expect(result.latencyMs).toBeGreaterThanOrEqual(0);
      expect(result.attempts.map((a) => [a.header, a.status, a.ok])).toEqual([
        ['x-api-key', 200, true],
        ['authorization', 401, false],
      ]);
      expect(result.summary).toMatch(
        /^Connected: HTTP 200 in \d+ ms, 1 model listed\. The key works as x-api-key; Authorization: Bearer got HTTP 401\.$/,
      );

      // Saved with the default scheme, the list goes out with Bearer, which this gateway refuses: the test says what to change.
      const native = value<ProfilesState>(
        await core.dispatch('profiles:save', { name: 'Native', baseUrl: xOnly.url, key: KEY }, r),
      );
      const advised = value<ProfileTestResult>(await core.dispatch('profiles:test', { id: idOf(native, 'Native') }, r));
      expect(advised).toMatchObject({ ok: false, status: 401, modelCount: 0 });
      expect(advised.summary).toContain(
        "The key works as x-api-key; Authorization: Bearer got HTTP 401. Set the profile's auth scheme to x-api-key everywhere.",
      );

      const wrong = value<ProfilesState>(
        await core.dispatch('profiles:save', { name: 'Wrong', baseUrl: gwA.url, key: 'sk-wrong-key-000000000' }, r),
      );
      const failed = value<ProfileTestResult>(await core.dispatch('profiles:test', { id: idOf(wrong, 'Wrong') }, r));
      expect(failed).toMatchObject({ ok: false, status: 401, modelCount: 0 });
      expect(failed.summary).toContain('Neither x-api-key nor Authorization: Bearer was accepted');
      expect(JSON.stringify(failed)).not.toContain('sk-wrong-key-000000000');
    } finally {
      await core.close();
    }
  });
});

describe('credentials in URLs and proxies', () => {
  it('GATEWAY_BASE_URL with a user and password is refused without showing them', async () => {
    const dataDir = temp();
    const core = await createCore({
      dataDir,
      host: 'web',
      version: 'test',
      vault: new LayeredVault(undefined, undefined),
      env: { baseUrl: 'https://alice:hunter2-pass@gw.example.com/v1', apiKey: KEY },
    });
    try {
      const info = value<AppInfo>(await core.dispatch('app:info', {}, new Capture()));
      const text = JSON.stringify(info.problems);
      expect(text).toContain('GATEWAY_BASE_URL (https://[redacted]@gw.example.com/v1)');
      expect(text).toContain('not in the URL');
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('alice');
    } finally {
      await core.close();
    }
  });

  it("secretsFor lists the proxy's user, password and Basic token from https_proxy, and a Basic header's parts", async () => {
    const saved = process.env.https_proxy;
    process.env.https_proxy = 'http://proxyuser:pr%40xy-pass-123@proxy.corp:3128';
    try {
      const store = new ProfileStore(temp(), new LayeredVault(undefined, undefined), {
        demo: { baseUrl: 'http://127.0.0.1:1', key: 'demo-key-0000' },
      });
      await store.load();
      const state = await store.save({ name: 'Corp', baseUrl: 'https://gw.example.com', key: KEY });
      const secrets = store.secretsFor(idOf(state, 'Corp'));
      const basic = Buffer.from('proxyuser:pr@xy-pass-123').toString('base64');
      expect(secrets).toEqual(
        expect.arrayContaining([
          KEY,
          'proxyuser',
          'pr@xy-pass-123',
          'proxyuser:pr@xy-pass-123',
          basic,
          `Basic ${basic}`,
        ]),
      );
      const basicHeader = `Basic ${Buffer.from('corp-user:corp-pass-999').toString('base64')}`;
      const withHeader = await store.save({
        name: 'Corp 2',
        baseUrl: 'https://gw.example.com',
        extraHeaders: { 'Proxy-Authorization': basicHeader },
      });
      expect(store.secretsFor(idOf(withHeader, 'Corp 2'))).toEqual(
        expect.arrayContaining([basicHeader, 'corp-user:corp-pass-999', 'corp-user', 'corp-pass-999']),
      );
      // Loopback goes direct: the demo's secrets carry no proxy credentials.
      expect(store.secretsFor('demo')).toEqual(['demo-key-0000']);
    } finally {
      if (saved === undefined) delete process.env.https_proxy;
      else process.env.https_proxy = saved;
    }
  });
});
