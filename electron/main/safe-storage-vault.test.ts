import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProfilesState, Result } from '../../shared/contract';
import { createCore } from '../core/service';
import { tempDirs } from '../core/testing/temp-dirs';
import { resetFakeElectron, safeStorage } from './testing/fake-electron';
import { createSafeStorageVault } from './safe-storage-vault';

vi.mock('electron', () => import('./testing/fake-electron'));

const dirs = tempDirs('gp-safe-storage-');
const KEY = 'sk-live-0123456789abcdef';
const receiver = { send: () => {} };

beforeEach(resetFakeElectron);

/** Starts the real core on `dataDir` with the safeStorage vault, as the desktop host does, and runs `fn`. */
async function withCore<T>(
  dataDir: string,
  fn: (call: (name: string, input: unknown) => Promise<Result<unknown>>) => Promise<T>,
) {
  const core = await createCore({ dataDir, host: 'electron', version: 't', vault: createSafeStorageVault(dataDir) });
  try {
    return await fn((name, input) => core.dispatch(name, input, receiver));
  } finally {
    await core.close();
  }
}

const saveProfile = { name: 'Work', baseUrl: 'https://gw.example.com', key: KEY, keyStorage: 'persist' };
const work = (r: Result<unknown>) =>
  r.ok ? (r.value as ProfilesState).profiles.find((p) => p.name === 'Work') : undefined;

describe('keys at rest with safeStorage', () => {
  it('keeps a key encrypted by the keychain in a 0600 file, and reads it back on the next start', async () => {
    const dataDir = dirs();
    await withCore(dataDir, async (call) => {
      const saved = await call('profiles:save', saveProfile);
      expect(work(saved)?.key).toEqual({ hasKey: true, hint: '…cdef', storage: 'keychain' });
      expect(saved.ok && (saved.value as ProfilesState).keyStorages).toEqual(['keychain', 'session']);
    });
    const file = path.join(dataDir, 'keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    expect(readFileSync(file, 'utf8')).not.toContain(Buffer.from(KEY).toString('base64'));
    await withCore(dataDir, async (call) => {
      expect(work(await call('profiles:list', {}))?.key).toEqual({ hasKey: true, hint: '…cdef', storage: 'keychain' });
    });
  });

  for (const [why, setUp] of [
    ['no keychain at all', () => (safeStorage.available = false)],
    ["only Chromium's plain-text fallback on Linux", () => (safeStorage.backend = 'basic_text')],
  ] as const) {
    it.skipIf(why.includes('Linux') && process.platform !== 'linux')(
      `with ${why}, keeps keys for the session only and says so`,
      async () => {
        setUp();
        const dataDir = dirs();
        await withCore(dataDir, async (call) => {
          const saved = await call('profiles:save', saveProfile);
          expect(saved.ok && (saved.value as ProfilesState).keyStorages).toEqual(['session']);
          expect(work(saved)?.key).toEqual({ hasKey: true, hint: '…cdef', storage: 'session' });
        });
        expect(existsSync(path.join(dataDir, 'keys.json'))).toBe(false);
        expect(readFileSync(path.join(dataDir, 'profiles.json'), 'utf8')).not.toContain(KEY);
        await withCore(dataDir, async (call) => {
          expect(work(await call('profiles:list', {}))?.key).toMatchObject({ hasKey: false });
        });
      },
    );
  }
});
