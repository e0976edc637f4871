import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CALL_NAMES, type Result, type RunUpdate } from '../../shared/contract';
import { createCore, type Core } from '../core/service';
import { LayeredVault } from '../core/vault';
import { tempDirs } from '../core/testing/temp-dirs';
import { FakeWebContents, ipcMain, resetFakeElectron } from './testing/fake-electron';
import { registerIpc } from './ipc';

vi.mock('electron', () => import('./testing/fake-electron'));

const dirs = tempDirs('gp-ipc-');
let core: Core;
let dataDir: string;

beforeAll(async () => {
  resetFakeElectron();
  dataDir = dirs();
  core = await createCore({
    dataDir,
    host: 'electron',
    version: '1.2.3',
    vault: new LayeredVault(undefined, undefined),
  });
  registerIpc(core);
});
afterAll(() => core.close());

type Frame = { url: string; parent: unknown } | null;
const appFrame: Frame = { url: 'app://gateway/index.html', parent: null };

function call(name: string, input: unknown, frame: Frame = appFrame, sender = new FakeWebContents()) {
  const handler = ipcMain.handlers.get(name);
  if (!handler) throw new Error(`no handler for ${name}`);
  return handler({ senderFrame: frame, sender }, input) as Promise<Result<unknown>>;
}

describe('the Electron IPC host', () => {
  it('registers one handler per contract call, each answered by the core', async () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...CALL_NAMES].sort());
    for (const name of CALL_NAMES) {
      // A payload that is not plain data reaches the core's parser and comes back as an error, not a throw.
      const result = await call(name, { unexpected: () => 0 });
      expect(result, name).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    const info = await call('app:info', {});
    expect(info).toMatchObject({ ok: true, value: { host: 'electron', version: '1.2.3', dataDir } });
  });

  it('lists the Demo gateway and its models, and streams a run to the window that started it', async () => {
    const profiles = await call('profiles:list', {});
    expect(profiles).toMatchObject({ ok: true, value: { activeId: 'demo', keyStorages: ['session'] } });
    const models = (await call('models:list', { profileId: 'demo' })) as Result<{ models: { id: string }[] }>;
    expect(models.ok && models.value.models.map((m) => m.id)).toContain('claude-sim-sonnet');

    const window = new FakeWebContents();
    const body = {
      model: 'claude-sim-sonnet',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    };
    const started = (await call(
      'runs:start',
      { profileId: 'demo', protocol: 'messages', body },
      appFrame,
      window,
    )) as Result<{
      runId: string;
    }>;
    expect(started.ok).toBe(true);
    const runId = started.ok ? started.value.runId : '';
    await vi.waitFor(() => {
      const updates = window.sent.filter(([name]) => name === 'runs:update').flatMap(([, p]) => p as RunUpdate[]);
      expect(updates.find((u) => u.kind === 'end' && u.runId === runId)).toMatchObject({
        result: { verdict: 'complete' },
      });
    }, 10_000);
  });

  it('refuses calls from sub-frames, other origins and unknown frames, and the core never sees them', async () => {
    const save = { name: 'Foreign', baseUrl: 'https://gw.example.com' };
    const foreign: Frame[] = [
      { url: 'app://gateway/index.html', parent: { url: 'app://gateway/index.html' } },
      { url: 'https://evil.example/', parent: null },
      { url: 'app://gateway.evil.example/index.html', parent: null },
      { url: 'file:///etc/passwd', parent: null },
      null,
    ];
    for (const frame of foreign) {
      expect(await call('profiles:save', save, frame)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    const list = (await call('profiles:list', {})) as Result<{ profiles: { name: string }[] }>;
    expect(list.ok && list.value.profiles.map((p) => p.name)).not.toContain('Foreign');
  });

  it('cancels the runs of a window that is closed', async () => {
    const window = new FakeWebContents();
    const body = {
      model: 'claude-sim-sonnet',
      max_tokens: 4000,
      stream: true,
      messages: [{ role: 'user', content: 'Long story' }],
    };
    const started = (await call(
      'runs:start',
      { profileId: 'demo', protocol: 'messages', body },
      appFrame,
      window,
    )) as Result<{
      runId: string;
    }>;
    expect(started.ok).toBe(true);
    window.destroyed = true;
    window.emit('destroyed');
    const runId = started.ok ? started.value.runId : '';
    await vi.waitFor(async () => {
      const recorded = (await call('runs:get', { runId })) as Result<{ result: { verdict: string } }>;
      expect(recorded).toMatchObject({ ok: true, value: { result: { verdict: 'cancelled' } } });
    }, 10_000);
  });
});
