/**
 * The desktop host asks in its own native dialog, which the page cannot draw or answer, before a saved key
 * follows a profile to another host (docs/security.md §3). Driven through the real host and core against two
 * simulated gateways on loopback, with only the `electron` module faked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProfilesState, Result } from '../../shared/contract';
import { startSimulator, type RunningSimulator } from '../core/simulator';
import { tempDirs } from '../core/testing/temp-dirs';
import { BrowserWindow, dialog, resetFakeElectron } from './testing/fake-electron';
import { launch, type DesktopHost } from './app-host';

vi.mock('electron', () => import('./testing/fake-electron'));

const KEY = 'sk-desktop-follow-key-0123456789';
const dirs = tempDirs('gp-confirm-');
const window = { send: () => {} };
let host: DesktopHost | undefined;
let gwA: RunningSimulator;
/** Another host: records every header it is sent and answers 401. */
let listener: http.Server;
let listenerUrl: string;
const seen: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  gwA = await startSimulator({ port: 0, keys: { [KEY]: ['gpt-sim-mini'] } });
  listener = http.createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"no"}}');
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  listenerUrl = `http://localhost:${(listener.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await gwA.close();
  await new Promise((r) => listener.close(r));
});
beforeEach(() => {
  resetFakeElectron();
  seen.length = 0;
  vi.stubEnv('GATEWAY_BASE_URL', '');
  vi.stubEnv('GATEWAY_API_KEY', '');
});
afterEach(async () => {
  await host?.core()?.close();
  host = undefined;
  vi.unstubAllEnvs();
});

function value<T>(r: Result<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

async function started() {
  vi.stubEnv('GATEWAY_PLAYGROUND_DATA', dirs());
  host = launch(dirs());
  await host.ready;
  const core = host.core()!;
  const saved = value<ProfilesState>(
    await core.dispatch('profiles:save', { name: 'Work', baseUrl: gwA.url, key: KEY }, window),
  );
  const id = saved.profiles.find((p) => p.name === 'Work')!.id;
  const move = { id, name: 'Work', baseUrl: listenerUrl, keepSecretsForOrigin: new URL(listenerUrl).origin };
  return { core, id, move };
}

const keyHeaders = () => seen.flatMap((h) => [h['x-api-key'], h.authorization]).filter((v) => v !== undefined);

describe('the desktop host confirms a key that would follow a host change', () => {
  it('asks in a native dialog on the app window naming the new host, No by default; No saves nothing and sends nothing', async () => {
    const { core, id, move } = await started();
    dialog.answer = 0;
    const refused = await core.dispatch('profiles:save', move, window);
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_confirmed' } });
    expect(dialog.boxes).toHaveLength(1);
    const [box] = dialog.boxes;
    expect(box.window).toBe(BrowserWindow.windows[0]);
    expect(box.options.message).toBe(
      `Send the saved key for ${new URL(gwA.url).origin} to ${new URL(listenerUrl).origin}? (profile “Work”)`,
    );
    expect(box.options.buttons![box.options.defaultId!]).toBe('No');
    expect(box.options.buttons![box.options.cancelId!]).toBe('No');

    const state = value<ProfilesState>(await core.dispatch('profiles:list', {}, window));
    expect(state.profiles.find((p) => p.id === id)).toMatchObject({ baseUrl: gwA.url, key: { hasKey: true } });
    expect(state.asksOutsidePage).toBe(true);
    await core.dispatch('profiles:test', { id }, window);
    expect(seen).toHaveLength(0);
  });

  it('Yes in the dialog is what lets the key follow', async () => {
    const { core, id, move } = await started();
    dialog.answer = 1;
    const state = value<ProfilesState>(await core.dispatch('profiles:save', move, window));
    expect(state.profiles.find((p) => p.id === id)!.key.hasKey).toBe(true);
    await core.dispatch('profiles:test', { id }, window);
    expect(keyHeaders().join(' ')).toContain(KEY);
  });

  it('asks before more than 100 load requests to a gateway that is not the Demo gateway; No starts nothing', async () => {
    const { core, id } = await started();
    const before = gwA.requests.length;
    dialog.answer = 0;
    const input = {
      profileId: id,
      protocol: 'messages',
      body: { model: 'gpt-sim-mini' },
      requests: 101,
      concurrency: 1,
    };
    const refused = await core.dispatch('load:start', input, window);
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_confirmed' } });
    expect(dialog.boxes.at(-1)?.options.message).toBe(
      `Send 101 requests to ${new URL(gwA.url).origin}? (profile “Work”)`,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(gwA.requests.length).toBe(before);
  });
});
