/**
 * tokens:count through the real core against a real loopback gateway: whatever the gateway says about a failed
 * count reaches the renderer as the estimate's reason, and a gateway that echoes the key must not show it there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { ProfilesState, Result } from '../../shared/contract';
import { createCore, type Core, type Receiver } from './service';
import { LayeredVault } from './vault';

const KEY = 'sk-live-SECRET-1234567890abcdef';
const rx: Receiver = { send() {} };
let gateway: http.Server;
let core: Core;
let dataDir: string;
/** How the gateway answers the next count: a 401 echoing the key, or a 200 whose body is an error echoing it. */
let mode: '401' | 'body-error' = '401';

beforeAll(async () => {
  gateway = http.createServer((req, res) => {
    const sent = String(req.headers['x-api-key'] ?? req.headers.authorization ?? '');
    const error = { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key: ${sent}` } };
    res.writeHead(mode === '401' ? 401 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(error));
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', () => resolve()));
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-tokens-'));
  core = await createCore({ dataDir, host: 'web', version: 'test', vault: new LayeredVault(undefined, undefined) });
});
afterAll(async () => {
  await core.close();
  await new Promise((resolve) => gateway.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('tokens:count', () => {
  it.each(['401', 'body-error'] as const)(
    'a gateway echoing the key in a failed count (%s) shows the reason with the key redacted',
    async (m) => {
      mode = m;
      const port = (gateway.address() as AddressInfo).port;
      const saved = (await core.dispatch(
        'profiles:save',
        { name: `echo ${m}`, baseUrl: `http://127.0.0.1:${port}`, key: KEY, keyStorage: 'session' },
        rx,
      )) as Result<ProfilesState>;
      if (!saved.ok) throw new Error(saved.error.message);
      const count = await core.dispatch(
        'tokens:count',
        {
          profileId: saved.value.profiles.find((p) => p.name === `echo ${m}`)!.id,
          protocol: 'messages',
          body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
        },
        rx,
      );
      expect(count).toMatchObject({
        ok: true,
        value: { source: 'estimate', fallbackReason: expect.stringMatching(/invalid x-api-key: \[redacted\]/) },
      });
      expect(JSON.stringify(count)).not.toContain(KEY);
    },
  );
});
