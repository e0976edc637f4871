import Module, { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { build } from 'esbuild';
import type { Result, RunUpdate } from '../../shared/contract';
import { hostBundles } from '../../scripts/build.mjs';
import { tempDirs } from '../core/testing/temp-dirs';
import * as fake from './testing/fake-electron';

const dirs = tempDirs('gp-main-bundle-');
type Load = (request: string, ...rest: unknown[]) => unknown;
const loader = Module as unknown as { _load: Load };
const originalLoad = loader._load;
afterAll(() => {
  loader._load = originalLoad;
  vi.unstubAllEnvs();
});

/**
 * The main process as it ships: bundled by npm run build's own options with its dependencies inside, then
 * loaded by Node's require with only `electron` swapped for the fake. A dependency that cannot be bundled
 * (a dynamic require, a native module) fails here rather than on a user's machine.
 */
describe('the bundled main process', () => {
  it('starts, registers the contract, serves the renderer and streams a run through the embedded core', async () => {
    const root = dirs();
    const bundleDir = path.join(root, 'electron');
    await build({ ...hostBundles().main, outfile: path.join(bundleDir, 'main.cjs'), sourcemap: false });
    mkdirSync(path.join(root, 'renderer'));
    writeFileSync(path.join(root, 'renderer', 'index.html'), '<!doctype html><title>Gateway Playground</title>');
    const dataDir = dirs();
    vi.stubEnv('GATEWAY_PLAYGROUND_DATA', dataDir);
    vi.stubEnv('GATEWAY_BASE_URL', '');
    fake.resetFakeElectron();
    fake.safeStorage.available = false;
    loader._load = function (request, ...rest) {
      return request === 'electron' ? fake : originalLoad.call(this, request, ...rest);
    };
    createRequire(import.meta.url)(path.join(bundleDir, 'main.cjs'));

    await vi.waitFor(() => expect(fake.BrowserWindow.windows).toHaveLength(1), 15_000);
    expect(fake.BrowserWindow.windows[0].loadedUrl).toBe('app://gateway/index.html');
    const page = await fake.protocol.handlers.get('app')!(new Request('app://gateway/index.html'));
    expect(await page.text()).toContain('<title>Gateway Playground</title>');

    const sender = new fake.FakeWebContents();
    const event = { senderFrame: { url: 'app://gateway/index.html', parent: null }, sender };
    const call = (name: string, input: unknown) =>
      fake.ipcMain.handlers.get(name)!(event, input) as Promise<Result<unknown>>;
    expect(await call('app:info', {})).toMatchObject({ ok: true, value: { host: 'electron', dataDir } });
    const body = { model: 'gpt-sim-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] };
    expect(await call('runs:start', { profileId: 'demo', protocol: 'chat', body })).toMatchObject({ ok: true });
    await vi.waitFor(() => {
      const updates = sender.sent.flatMap(([, payload]) => payload as RunUpdate[]);
      expect(updates.find((u) => u.kind === 'end')).toMatchObject({ result: { verdict: 'complete' } });
    }, 10_000);

    const quit = new Promise<void>((resolve) => fake.app.once('quit-called', () => resolve()));
    fake.app.emit('will-quit', { preventDefault: () => {} });
    await quit;
  });
});
