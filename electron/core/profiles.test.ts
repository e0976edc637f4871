/**
 * Secret extra headers (a name that carries a credential, such as helicone-auth): their values live in the
 * vault where the key does, never in profiles.json or anything the renderer gets, while requests still carry
 * them. Against real files in a temp data dir.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ProfileInput } from '../../shared/contract';
import { ProfileStore, secretHeaderId } from './profiles';
import { LayeredVault } from './vault';
import { tempDirs } from './testing/temp-dirs';

const temp = tempDirs('gp-profiles-');

const SECRET = 'Bearer sk-helicone-SECRET-0123-abcd';
const OTHER = 'Bearer sk-helicone-OTHER-4567-wxyz';
const builtins = { demo: { baseUrl: 'http://127.0.0.1:1', key: 'demo-key-0000' } };
const form = { name: 'Helicone', baseUrl: 'https://gw.example.com', authScheme: 'native' } as const;

async function open(dir: string, vault = new LayeredVault('file', path.join(dir, 'keys.json'))) {
  const store = new ProfileStore(dir, vault, builtins);
  const problems = await store.load();
  return { store, vault, problems };
}
const fileText = (dir: string, name: string) =>
  existsSync(path.join(dir, name)) ? readFileSync(path.join(dir, name), 'utf8') : '';
const storedKeys = (dir: string) =>
  Object.keys((JSON.parse(fileText(dir, 'keys.json') || '{"keys":{}}') as { keys: Record<string, string> }).keys);

async function saveNew(store: ProfileStore, input: Partial<ProfileInput> = {}) {
  const state = await store.save({ ...form, extraHeaders: { 'x-team': 'blue', 'helicone-auth': SECRET }, ...input });
  return state.profiles.find((p) => p.name === (input.name ?? form.name))!.id;
}

describe('secret extra headers', () => {
  it('a helicone-auth value goes to the vault: profiles.json keeps its name, the list only a hint, requests the value', async () => {
    const dir = temp();
    const { store } = await open(dir);
    const id = await saveNew(store);

    const onDisk = fileText(dir, 'profiles.json');
    expect(onDisk).not.toContain('SECRET');
    expect(JSON.parse(onDisk).profiles[0]).toMatchObject({
      extraHeaders: { 'x-team': 'blue', 'helicone-auth': '' },
      secretHeaders: ['helicone-auth'],
    });
    expect(storedKeys(dir)).toEqual([secretHeaderId(id, 'helicone-auth')]);

    const state = store.state();
    expect(JSON.stringify(state)).not.toContain('SECRET');
    const view = state.profiles.find((p) => p.id === id)!;
    expect(Object.keys(view.extraHeaders)).toEqual(['x-team', 'helicone-auth']);
    expect(view.extraHeaders['x-team']).toBe('blue');
    expect(view.secretHeaders).toEqual({ 'helicone-auth': { hasValue: true, hint: '…abcd', storage: 'file' } });

    expect(store.get(id)!.extraHeaders).toEqual({ 'x-team': 'blue', 'helicone-auth': SECRET });
    expect(store.allKeys()).toContain(SECRET);
    const { store: reopened } = await open(dir);
    expect(reopened.get(id)!.extraHeaders['helicone-auth']).toBe(SECRET);
  });

  it("secretsFor lists one profile's key and secret header values, with a Bearer value's token alone too", async () => {
    const dir = temp();
    const { store } = await open(dir);
    const id = await saveNew(store, {
      key: 'sk-profile-key-0123',
      extraHeaders: { 'x-team': 'blue', 'helicone-auth': SECRET, 'x-relay-token': 'abc' },
    });
    await saveNew(store, { name: 'Other', extraHeaders: { 'helicone-auth': OTHER } });
    // A short value (`abc`) is a secret too: the scrubber matches it only as a whole word (electron/core/scrubber.ts).
    expect(store.secretsFor(id).sort()).toEqual(
      ['sk-profile-key-0123', SECRET, 'sk-helicone-SECRET-0123-abcd', 'abc'].sort(),
    );
    expect(store.secretsFor('demo')).toEqual(['demo-key-0000']);
    expect(store.secretsFor('gone')).toEqual([]);
  });

  it('keeps the stored value on a save that does not retype it, takes a new one, follows a rename, and leaves keys.json when removed', async () => {
    const dir = temp();
    const { store } = await open(dir);
    const id = await saveNew(store);
    const fingerprint = store.connectionFingerprint(id);

    await store.save({
      ...form,
      id,
      name: 'Renamed',
      extraHeaders: { 'x-team': 'blue', 'helicone-auth': '' },
      keepSecretHeaders: { 'helicone-auth': 'helicone-auth' },
    });
    expect(store.get(id)!.extraHeaders['helicone-auth']).toBe(SECRET);
    expect(store.connectionFingerprint(id)).toBe(fingerprint);

    await store.save({ ...form, id, extraHeaders: { 'x-team': 'blue', 'helicone-auth': OTHER } });
    expect(store.get(id)!.extraHeaders['helicone-auth']).toBe(OTHER);
    expect(store.connectionFingerprint(id)).not.toBe(fingerprint);
    expect(fileText(dir, 'profiles.json')).not.toContain('OTHER');

    await store.save({
      ...form,
      id,
      extraHeaders: { 'x-relay-token': '' },
      keepSecretHeaders: { 'x-relay-token': 'helicone-auth' },
    });
    expect(store.get(id)!.extraHeaders).toEqual({ 'x-relay-token': OTHER });
    expect(storedKeys(dir)).toEqual([secretHeaderId(id, 'x-relay-token')]);

    await store.save({ ...form, id, extraHeaders: { 'x-team': 'blue' } });
    expect(store.get(id)!.extraHeaders).toEqual({ 'x-team': 'blue' });
    expect(storedKeys(dir)).toEqual([]);
    expect(store.allKeys()).not.toContain(OTHER);
  });

  it('saveComparing tells each save whether the connection changed, also for saves that overlap', async () => {
    const { store } = await open(temp());
    const first = await store.saveComparing({ ...form, extraHeaders: { 'x-team': 'blue' } });
    expect(first.connectionChanged).toBe(false);
    const id = first.state.profiles.find((p) => p.name === form.name)!.id;
    expect(
      (await store.saveComparing({ ...form, id, name: 'Renamed', extraHeaders: { 'X-Team': 'blue' } }))
        .connectionChanged,
    ).toBe(false);
    // Sent together: the second undoes the first. Compared around the queue, both would see the URL they began
    // with and neither would report the change in between.
    const [away, back] = await Promise.all([
      store.saveComparing({
        ...form,
        id,
        baseUrl: 'https://elsewhere.example.com',
        extraHeaders: { 'x-team': 'blue' },
      }),
      store.saveComparing({ ...form, id, extraHeaders: { 'x-team': 'blue' } }),
    ]);
    expect([away.connectionChanged, back.connectionChanged]).toEqual([true, true]);
    expect(
      (await store.saveComparing({ ...form, id, key: 'sk-new-key-0123456789', extraHeaders: { 'x-team': 'blue' } }))
        .connectionChanged,
    ).toBe(true);
  });

  it('refuses to keep a value that is not stored, with a field error on that header', async () => {
    const { store } = await open(temp());
    const id = await saveNew(store, { extraHeaders: { 'x-team': 'blue' } });
    await expect(
      store.save({
        ...form,
        id,
        extraHeaders: { 'helicone-auth': '' },
        keepSecretHeaders: { 'helicone-auth': 'helicone-auth' },
      }),
    ).rejects.toMatchObject({
      fields: { 'extraHeaders.helicone-auth': expect.stringContaining('No value is stored for helicone-auth') },
    });
  });

  it('a value kept for this session only never reaches keys.json, and is gone (not sent) after a restart', async () => {
    const dir = temp();
    const { store } = await open(dir);
    const id = await saveNew(store, { keyStorage: 'session' });
    expect(store.get(id)!.extraHeaders['helicone-auth']).toBe(SECRET);
    expect(store.state().profiles.find((p) => p.id === id)!.secretHeaders['helicone-auth']).toMatchObject({
      hasValue: true,
      storage: 'session',
    });
    expect(storedKeys(dir)).toEqual([]);
    expect(fileText(dir, 'profiles.json')).not.toContain('SECRET');

    const { store: reopened } = await open(dir);
    expect(reopened.get(id)!.extraHeaders).toEqual({ 'x-team': 'blue' });
    expect(reopened.state().profiles.find((p) => p.id === id)!.secretHeaders['helicone-auth']).toEqual({
      hasValue: false,
      storage: 'none',
    });
  });

  it('deleting the profile deletes its secret header values from keys.json', async () => {
    const dir = temp();
    const { store } = await open(dir);
    const id = await saveNew(store, { key: 'sk-profile-key-5678' });
    expect(storedKeys(dir).sort()).toEqual([id, secretHeaderId(id, 'helicone-auth')].sort());
    await store.delete(id);
    expect(storedKeys(dir)).toEqual([]);
  });
});

describe('secret extra headers saved in plain text by an earlier version', () => {
  const oldFile = (dir: string) =>
    writeFileSync(
      path.join(dir, 'profiles.json'),
      JSON.stringify({
        version: 1,
        activeId: 'P',
        profiles: [
          {
            id: 'P',
            name: 'Old relay',
            baseUrl: 'https://gw.example.com',
            authScheme: 'native',
            extraHeaders: { 'x-team': 'blue', 'helicone-auth': SECRET },
          },
        ],
      }),
    );

  it('move to the vault at start-up, and profiles.json is rewritten without them; nothing is lost', async () => {
    const dir = temp();
    oldFile(dir);
    const { store, problems } = await open(dir);
    expect(problems).toEqual([]);
    expect(fileText(dir, 'profiles.json')).not.toContain('SECRET');
    expect(JSON.parse(fileText(dir, 'profiles.json')).profiles[0]).toMatchObject({
      extraHeaders: { 'x-team': 'blue', 'helicone-auth': '' },
      secretHeaders: ['helicone-auth'],
    });
    expect(storedKeys(dir)).toEqual([secretHeaderId('P', 'helicone-auth')]);
    expect(store.get('P')!.extraHeaders).toEqual({ 'x-team': 'blue', 'helicone-auth': SECRET });
    expect(JSON.stringify(store.state())).not.toContain('SECRET');

    const { store: reopened, problems: again } = await open(dir);
    expect(again).toEqual([]);
    expect(reopened.get('P')!.extraHeaders['helicone-auth']).toBe(SECRET);
  });

  it('stay in profiles.json where there is no persistent vault, still sent and kept on save, never listed, and reported', async () => {
    const dir = temp();
    oldFile(dir);
    const { store, problems } = await open(dir, new LayeredVault(undefined, undefined));
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/helicone-auth of "Old relay" is kept in plain text in profiles\.json/),
    ]);
    expect(JSON.stringify(problems)).not.toContain('SECRET');
    expect(fileText(dir, 'profiles.json')).toContain(SECRET);
    expect(store.get('P')!.extraHeaders['helicone-auth']).toBe(SECRET);
    expect(store.allKeys()).toContain(SECRET);
    const view = store.state().profiles.find((p) => p.id === 'P')!;
    expect(JSON.stringify(view)).not.toContain('SECRET');
    expect(view.secretHeaders['helicone-auth']).toEqual({ hasValue: true, hint: '…abcd', storage: 'profiles-file' });

    await store.save({
      ...form,
      id: 'P',
      name: 'Old relay',
      extraHeaders: { 'x-team': 'green', 'helicone-auth': '' },
      keepSecretHeaders: { 'helicone-auth': 'helicone-auth' },
    });
    expect(store.get('P')!.extraHeaders).toEqual({ 'x-team': 'green', 'helicone-auth': SECRET });
    expect(fileText(dir, 'profiles.json')).toContain(SECRET);
  });

  it('stay in profiles.json when the vault cannot be written, and are reported', async () => {
    const dir = temp();
    oldFile(dir);
    const blocker = path.join(dir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const { store, problems } = await open(dir, new LayeredVault('file', path.join(blocker, 'keys.json')));
    expect(problems.map((p) => p.message)).toContainEqual(
      expect.stringMatching(
        /helicone-auth of "Old relay" is still in plain text in profiles\.json: it could not be moved/,
      ),
    );
    expect(fileText(dir, 'profiles.json')).toContain(SECRET);
    expect(store.get('P')!.extraHeaders['helicone-auth']).toBe(SECRET);
  });
});

describe('a saved value that does not decrypt this launch', () => {
  // The keychain is locked this launch: blobs starting "LOCKED" do not decode.
  const codec = {
    encode: (k: string) => `ENC:${k}`,
    decode: (b: string) =>
      b.startsWith('LOCKED')
        ? (() => {
            throw new Error('locked');
          })()
        : b.slice(4),
  };
  const HID = secretHeaderId('P', 'helicone-auth');

  async function lockedProfile(keys: Record<string, string>) {
    const dir = temp();
    writeFileSync(
      path.join(dir, 'profiles.json'),
      JSON.stringify({
        version: 1,
        activeId: 'P',
        profiles: [
          {
            id: 'P',
            name: 'Relay',
            baseUrl: 'https://gw.example.com',
            authScheme: 'native',
            extraHeaders: { 'helicone-auth': '' },
            secretHeaders: ['helicone-auth'],
          },
        ],
      }),
    );
    const keysFile = path.join(temp(), 'keys.json');
    writeFileSync(keysFile, JSON.stringify({ version: 1, encoding: 'keychain', keys }));
    const { store, vault } = await open(dir, new LayeredVault('keychain', keysFile, codec));
    // profiles.json can no longer be written: a folder stands where the file is.
    rmSync(path.join(dir, 'profiles.json'));
    mkdirSync(path.join(dir, 'profiles.json', 'x'), { recursive: true });
    return { store, vault, onDisk: () => JSON.parse(readFileSync(keysFile, 'utf8')).keys as Record<string, string> };
  }

  it('is put back as it was when a save that replaced or removed it fails', async () => {
    const kept = { id: 'P', ...form, name: 'Relay' };
    const inputs: ProfileInput[] = [
      { ...kept, extraHeaders: {} },
      { ...kept, extraHeaders: { 'helicone-auth': 'Bearer sk-new-value-1234' } },
      {
        ...kept,
        extraHeaders: { 'helicone-auth': '' },
        keepSecretHeaders: { 'helicone-auth': 'helicone-auth' },
        key: 'sk-new-key-99999',
      },
    ];
    for (const input of inputs) {
      const { store, vault, onDisk } = await lockedProfile({ [HID]: 'LOCKED-header', P: 'LOCKED-key' });
      await expect(store.save(input)).rejects.toThrow(/could not be written/);
      expect(onDisk(), JSON.stringify(input)).toEqual({ [HID]: 'LOCKED-header', P: 'LOCKED-key' });
      expect(vault.undecryptable().sort()).toEqual([HID, 'P'].sort());
    }
  });
});
