/**
 * The key vault and the profiles that use it, against real files in a temp data dir: a key that cannot be
 * decrypted this launch is kept on disk and reported, and changes made together leave the latest state on disk.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ProfileStore } from './profiles';
import { LayeredVault } from './vault';
import { tempDirs } from './testing/temp-dirs';

const temp = tempDirs('gp-vault-');

/** A keychain that cannot decrypt one blob this launch (locked, or access denied). */
const lockedCodec = (locked: string) => ({
  encode: (k: string) => `enc:${k}`,
  decode: (b: string) => {
    if (b === locked) throw new Error('decrypt failed');
    return b.slice(4);
  },
});
const builtins = { demo: { baseUrl: 'http://127.0.0.1:1', key: 'demo-key-0000' } };
const keysOnDisk = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { keys: Record<string, string> }).keys;

describe('key vault', () => {
  it('keeps a key that cannot be decrypted at start-up through later saves, reports it by profile name, and a later launch reads it', async () => {
    const dir = temp();
    const keysFile = path.join(dir, 'keys.json');
    writeFileSync(
      path.join(dir, 'profiles.json'),
      JSON.stringify({
        version: 1,
        profiles: [
          { id: 'B', name: 'Work gateway', baseUrl: 'http://127.0.0.1:2', authScheme: 'native', extraHeaders: {} },
        ],
      }),
    );
    writeFileSync(
      keysFile,
      JSON.stringify({ version: 1, encoding: 'keychain', keys: { A: 'enc:key-A-1234', B: 'enc:key-B-locked' } }),
    );
    const vault = new LayeredVault('keychain', keysFile, lockedCodec('enc:key-B-locked'));
    const profiles = new ProfileStore(dir, vault, builtins);
    const problems = await profiles.load();
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/saved key for "Work gateway" could not be decrypted.*kept/),
    ]);
    expect(vault.get('B')).toBeUndefined();

    await vault.set('C', 'key-C-5678', true);
    expect(keysOnDisk(keysFile)).toEqual({ A: 'enc:key-A-1234', B: 'enc:key-B-locked', C: 'enc:key-C-5678' });

    const unlocked = new LayeredVault('keychain', keysFile, lockedCodec('none'));
    expect(await unlocked.load()).toEqual([]);
    expect(unlocked.get('B')).toBe('key-B-locked');
    expect(unlocked.undecryptable()).toEqual([]);
  });

  it('leaves keys saved by the other host (desktop keychain blobs) untouched, and keeps keys entered here for the session', async () => {
    const dir = temp();
    const keysFile = path.join(dir, 'keys.json');
    const desktop = JSON.stringify({ version: 1, encoding: 'keychain', keys: { A: 'djExj6P/EADEnoH+InqR0AvuMw==' } });
    writeFileSync(keysFile, desktop);
    const vault = new LayeredVault('file', keysFile);
    const problems = await vault.load();
    expect(problems.map((p) => p.message)).toEqual([expect.stringContaining('holds keys saved by another host')]);
    expect(vault.get('A')).toBeUndefined();
    expect(vault.persistentKind).toBeUndefined();
    await vault.set('B', 'sk-typed-here-1234', true);
    expect(vault.get('B')).toBe('sk-typed-here-1234');
    expect(vault.storageOf('B')).toBe('session');
    await vault.delete('A');
    expect(readFileSync(keysFile, 'utf8')).toBe(desktop);
  });

  it('reports a saved key that no request can carry (a line break from a wrapped paste), by profile name', async () => {
    const dir = temp();
    const keysFile = path.join(dir, 'keys.json');
    writeFileSync(
      path.join(dir, 'profiles.json'),
      JSON.stringify({
        version: 1,
        profiles: [
          { id: 'W', name: 'Wrapped', baseUrl: 'http://127.0.0.1:2', authScheme: 'native', extraHeaders: {} },
          { id: 'F', name: 'Fine', baseUrl: 'http://127.0.0.1:3', authScheme: 'native', extraHeaders: {} },
        ],
      }),
    );
    writeFileSync(
      keysFile,
      JSON.stringify({
        version: 1,
        encoding: 'keychain',
        keys: { W: 'enc:sk-live-AAAA\nBBBB-1234', F: 'enc:sk-live-CCCC-5678' },
      }),
    );
    const profiles = new ProfileStore(dir, new LayeredVault('keychain', keysFile, lockedCodec('none')), builtins);
    const problems = await profiles.load();
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/saved key for "Wrapped" contains a line break.*Enter the key again/),
    ]);
    expect(JSON.stringify(problems)).not.toContain('AAAA');
  });

  it('replaces or deletes an undecryptable key when the user sets or deletes that profile key', async () => {
    const keysFile = path.join(temp(), 'keys.json');
    writeFileSync(
      keysFile,
      JSON.stringify({ version: 1, encoding: 'keychain', keys: { B: 'enc:old', D: 'enc:gone' } }),
    );
    const vault = new LayeredVault('keychain', keysFile, {
      encode: (k) => `enc:${k}`,
      decode: () => {
        throw new Error('locked');
      },
    });
    await vault.load();
    expect(vault.undecryptable().sort()).toEqual(['B', 'D']);
    await vault.set('B', 'new-key-B', true);
    await vault.delete('D');
    expect(keysOnDisk(keysFile)).toEqual({ B: 'enc:new-key-B' });
  });

  it('a key change that cannot be written leaves the vault as it was, and the next write holds only what was saved', async () => {
    // A regular file where the folder should be fails the write whoever runs the test, root included.
    const dir = path.join(temp(), 'data');
    mkdirSync(dir);
    const keysFile = path.join(dir, 'keys.json');
    const vault = new LayeredVault('file', keysFile);
    await vault.load();
    await vault.set('A', 'key-A-1234', true);
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'not a folder');

    await expect(vault.set('B', 'key-B-5678', true)).rejects.toThrow();
    expect([vault.get('B'), vault.storageOf('B')]).toEqual([undefined, 'none']);
    await expect(vault.set('A', 'key-A-replaced', true)).rejects.toThrow();
    await expect(vault.set('A', 'key-A-session', false)).rejects.toThrow();
    await expect(vault.delete('A')).rejects.toThrow();
    expect([vault.get('A'), vault.storageOf('A')]).toEqual(['key-A-1234', 'file']);

    rmSync(dir);
    mkdirSync(dir);
    await vault.set('C', 'key-C-9012', true);
    const reread = new LayeredVault('file', keysFile);
    await reread.load();
    expect(['A', 'B', 'C'].map((id) => reread.get(id))).toEqual(['key-A-1234', undefined, 'key-C-9012']);
  });

  it('keys saved together all end up on disk', async () => {
    const lost: string[] = [];
    for (let trial = 0; trial < 20; trial++) {
      const keysFile = path.join(temp(), 'keys.json');
      const vault = new LayeredVault('file', keysFile);
      await vault.load();
      // The first write carries a big key and only its own; unqueued, it tends to land last and drop the second.
      await Promise.all([
        vault.set('A', 'a'.repeat(1_000_000 * (1 + (trial % 3))), true),
        vault.set('B', 'key-B-1234', true),
      ]);
      const ids = Object.keys(keysOnDisk(keysFile)).sort().join(',');
      if (ids !== 'A,B') lost.push(`trial ${trial}: ${ids}`);
    }
    expect(lost).toEqual([]);
  });
});

describe('profiles', () => {
  it('profiles saved together all end up in profiles.json', async () => {
    const lost: string[] = [];
    for (let trial = 0; trial < 20; trial++) {
      const dir = temp();
      const store = new ProfileStore(dir, new LayeredVault(undefined, undefined), builtins);
      await store.load();
      const headers = Object.fromEntries(
        Array.from({ length: 2000 * (1 + (trial % 3)) }, (_, i) => [`x-h-${i}`, 'v'.repeat(100)]),
      );
      await Promise.all([
        store.save({ name: 'Big', baseUrl: 'http://127.0.0.1:3', authScheme: 'native', extraHeaders: headers }),
        store.save({ name: 'Small', baseUrl: 'http://127.0.0.1:4', authScheme: 'native', extraHeaders: {} }),
      ]);
      const stored = JSON.parse(readFileSync(path.join(dir, 'profiles.json'), 'utf8')) as {
        activeId: string;
        profiles: { name: string }[];
      };
      const names = stored.profiles.map((p) => p.name).join(',');
      if (names !== 'Big,Small') lost.push(`trial ${trial}: ${names}`);
    }
    expect(lost).toEqual([]);
  });
});
