/**
 * Ways a stored key or secret header could leave for somewhere the user never chose, without a save that moves
 * the profile's origin (docs/security.md §3): a Host header, a secret moved between the proxy and the gateway.
 * Driven through `dispatch` against a recording listener on loopback, with real files in a temp data dir.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ProfilesState, ProfileTestResult, Result } from '../../shared/contract';
import { createCore, type Receiver } from './service';
import { LayeredVault } from './vault';
import { sameOrigin } from './profile-headers';
import { tempDirs } from './testing/temp-dirs';

const KEY = 'sk-route-key-0123456789abcdef';
const temp = tempDirs('gp-route-');
const r: Receiver = { send: () => {} };

/** Records every request's headers and answers 401: a host that must never see the key. */
let listener: http.Server;
let ownUrl: string;
const seen: http.IncomingHttpHeaders[] = [];
beforeAll(async () => {
  listener = http.createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"who?"}}');
  });
  await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
  ownUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => listener.close(done));
});
afterEach(() => {
  seen.length = 0;
});

async function newCore(dataDir = temp()) {
  const core = await createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
    confirmer: { confirm: async () => true },
  });
  return { core, dataDir };
}

function value<T>(res: Result<unknown>): T {
  if (!res.ok) throw new Error(`${res.error.code}: ${res.error.message}`);
  return res.value as T;
}

const idOf = (state: ProfilesState, name: string) => state.profiles.find((p) => p.name === name)!.id;
const keysSeen = () => seen.filter((h) => h.authorization !== undefined || h['x-api-key'] !== undefined);

describe('a Host header never steers the key', () => {
  it('a draft test or a save with another Host is refused with a sentence, and nothing carries the key there', async () => {
    const { core } = await newCore();
    try {
      const id = idOf(
        value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Work', baseUrl: ownUrl, key: KEY }, r)),
        'Work',
      );
      seen.length = 0;
      const draft = { id, name: 'Work', baseUrl: ownUrl, extraHeaders: { Host: 'attacker.example' } };
      for (const res of [
        await core.dispatch('profiles:test', { draft }, r),
        await core.dispatch('profiles:save', draft, r),
        await core.dispatch('profiles:save', { ...draft, extraHeaders: { hOsT: 'attacker.example' } }, r),
      ]) {
        expect(res.ok).toBe(false);
        expect(JSON.stringify(res)).toMatch(/another Host would send the key to another site/);
      }
      await core.dispatch('profiles:test', { id }, r);
      expect(seen.length).toBeGreaterThan(0);
      for (const h of seen) expect(h.host).toBe(new URL(ownUrl).host);
    } finally {
      await core.close();
    }
  });

  it('a Host saved in profiles.json before it was refused is not sent: the base URL names the server', async () => {
    const dataDir = temp();
    const first = await newCore(dataDir);
    value(await first.core.dispatch('profiles:save', { name: 'Work', baseUrl: ownUrl, key: KEY }, r));
    await first.core.close();
    const file = path.join(dataDir, 'profiles.json');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    saved.profiles[0].extraHeaders = { Host: 'attacker.example' };
    writeFileSync(file, JSON.stringify(saved));

    const { core } = await newCore(dataDir);
    try {
      const id = idOf(value<ProfilesState>(await core.dispatch('profiles:list', {}, r)), 'Work');
      seen.length = 0;
      await core.dispatch('profiles:test', { id }, r);
      expect(keysSeen().length).toBeGreaterThan(0);
      for (const h of seen) expect(h.host).toBe(new URL(ownUrl).host);
    } finally {
      await core.close();
    }
  });
});

describe('a secret never moves between the proxy and the gateway', () => {
  const proxyPass = 'Basic cHJveHk6cHJveHktcGFzcy0wMDc=';
  const relayToken = 'relay-token-SECRET-4242';

  it('keeping a stored value under Proxy-Authorization from a gateway header, or the reverse, is refused', async () => {
    const { core } = await newCore();
    try {
      const extraHeaders = { 'Proxy-Authorization': proxyPass, 'X-Relay-Token': relayToken };
      const id = idOf(
        value<ProfilesState>(
          await core.dispatch('profiles:save', { name: 'Work', baseUrl: ownUrl, key: KEY, extraHeaders }, r),
        ),
        'Work',
      );
      seen.length = 0;
      const both = { 'Proxy-Authorization': '', 'X-Relay-Token': '' };
      for (const keep of [
        { 'Proxy-Authorization': 'X-Relay-Token', 'X-Relay-Token': 'X-Relay-Token' },
        { 'Proxy-Authorization': 'Proxy-Authorization', 'X-Relay-Token': 'Proxy-Authorization' },
      ]) {
        const draft = { id, name: 'Work', baseUrl: ownUrl, extraHeaders: both, keepSecretHeaders: keep };
        for (const res of [
          await core.dispatch('profiles:test', { draft }, r),
          await core.dispatch('profiles:save', draft, r),
        ]) {
          expect(res.ok).toBe(false);
          expect(JSON.stringify(res)).toMatch(/cannot take the stored value of .*: type the value/);
        }
      }
      // Each under its own name is still kept.
      const draft = {
        id,
        name: 'Work',
        baseUrl: ownUrl,
        extraHeaders: both,
        keepSecretHeaders: { 'Proxy-Authorization': 'Proxy-Authorization', 'X-Relay-Token': 'X-Relay-Token' },
      };
      value(await core.dispatch('profiles:save', draft, r));
      await core.dispatch('profiles:test', { id }, r);
      expect(seen.length).toBeGreaterThan(0);
      for (const h of seen) expect(h['x-relay-token']).toBe(relayToken);
    } finally {
      await core.close();
    }
  });

  it('with no proxy on the way, Proxy-Authorization is not sent to the gateway', async () => {
    const { core } = await newCore();
    try {
      const extraHeaders = { 'Proxy-Authorization': proxyPass };
      const id = idOf(
        value<ProfilesState>(
          await core.dispatch('profiles:save', { name: 'Work', baseUrl: ownUrl, key: KEY, extraHeaders }, r),
        ),
        'Work',
      );
      seen.length = 0;
      await core.dispatch('profiles:test', { id }, r);
      await core.dispatch('profiles:test', { draft: { name: 'New', baseUrl: ownUrl, extraHeaders } }, r);
      expect(seen.length).toBeGreaterThan(0);
      for (const h of seen) expect(h['proxy-authorization']).toBeUndefined();
    } finally {
      await core.close();
    }
  });
});

describe('Test connection on a form not yet saved', () => {
  it('scrubs the model ids of the first page of the key it sent', async () => {
    const echo = http.createServer((req, res) => {
      req.resume();
      const sent = String(req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '') ?? 'none');
      const data = [
        { id: 'gpt-sim-mini', object: 'model' },
        { id: `echo-${sent}`, object: 'model' },
      ];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
    });
    await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
    const { core } = await newCore();
    try {
      const baseUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
      const result = value<ProfileTestResult>(
        await core.dispatch('profiles:test', { draft: { name: 'New', baseUrl, key: KEY } }, r),
      );
      expect(result.ok).toBe(true);
      expect(result.models).toEqual(['gpt-sim-mini', 'echo-[redacted]']);
      expect(JSON.stringify(result)).not.toContain(KEY);
    } finally {
      await core.close();
      await new Promise((done) => echo.close(done));
    }
  });

  it('two base URLs that cannot be read are not the same origin', () => {
    expect(sameOrigin('not a url', 'not a url')).toBe(false);
    expect(sameOrigin('https://a.example/v1', 'https://a.example')).toBe(true);
    expect(sameOrigin('https://a.example', 'http://a.example')).toBe(false);
  });
});
