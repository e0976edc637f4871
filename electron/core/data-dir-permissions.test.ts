/**
 * Integration: a data folder made the old way (0755 folders, 0644 files) on a real temp folder, and the core
 * started on it through the same harness the hosts' tests use (testing/core-harness.ts).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppInfo, HistorySummary, ProfilesState } from '../../shared/contract';
import { tightenDataDir } from './data-dir-permissions';
import { Capture, newCore, tempDir, value } from './testing/core-harness';

const KEY = 'sk-old-install-0123456789abcdef';

/** Every folder and file under `dir` (links not followed), with its permission bits. */
function modes(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    const st = lstatSync(path.join(dir, rel));
    if (!st.isSymbolicLink()) out[rel] = st.mode & 0o777;
  }
  return out;
}

/** What an older version left behind: everything readable by every user of the machine. */
function loosen(dir: string): void {
  chmodSync(dir, 0o755);
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    const st = lstatSync(path.join(dir, rel));
    if (!st.isSymbolicLink()) chmodSync(path.join(dir, rel), st.isDirectory() ? 0o755 : 0o644);
  }
}

/** A data folder with a saved profile, its key, a run in history and a load run's folder, made by a core. */
async function usedDataDir(): Promise<string> {
  const { core, dataDir } = await newCore();
  const r = new Capture();
  try {
    value(
      await core.dispatch('profiles:save', { name: 'Mine', baseUrl: core.demoUrl, key: KEY, keyStorage: 'persist' }, r),
    );
    const body = { model: 'claude-sim-sonnet', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] };
    const { runId } = value<{ runId: string }>(
      await core.dispatch('runs:start', { profileId: 'demo', protocol: 'messages', body }, r),
    );
    await r.end(runId);
  } finally {
    await core.close();
  }
  return dataDir;
}

/** chattr +i makes chmod fail with EPERM even for root, as a file owned by another user does for a user. */
function canMakeImmutable(): boolean {
  const probe = path.join(tempDir(), 'probe');
  writeFileSync(probe, '');
  const set = spawnSync('chattr', ['+i', probe]).status === 0;
  if (set) spawnSync('chattr', ['-i', probe]);
  return set;
}

describe('core: a data folder an older version left readable by others', () => {
  it('a new folder is private from the first start: folders 0700, files 0600', async () => {
    const dataDir = await usedDataDir();
    const found = modes(dataDir);
    expect(Object.keys(found)).toEqual(expect.arrayContaining(['history', 'load-runs', 'profiles.json', 'keys.json']));
    for (const [rel, mode] of Object.entries(found)) {
      const dir = lstatSync(path.join(dataDir, rel)).isDirectory();
      expect([rel, mode.toString(8)]).toEqual([rel, dir ? '700' : '600']);
    }
  });

  it('is made private on start, loses nothing, and leaves what its links point to alone', async () => {
    const dataDir = await usedDataDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, 'notes.txt'), 'not ours');
    mkdirSync(path.join(outside, 'shared'));
    symlinkSync(path.join(outside, 'notes.txt'), path.join(dataDir, 'notes-link'));
    symlinkSync(path.join(outside, 'shared'), path.join(dataDir, 'history', 'shared-link'));
    loosen(dataDir);
    chmodSync(path.join(outside, 'notes.txt'), 0o644);
    chmodSync(path.join(outside, 'shared'), 0o755);
    expect(modes(dataDir)['history/index.json']).toBe(0o644);

    const { core } = await newCore(dataDir);
    const r = new Capture();
    try {
      expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
      for (const [rel, mode] of Object.entries(modes(dataDir))) {
        const dir = lstatSync(path.join(dataDir, rel)).isDirectory();
        expect([rel, mode.toString(8)]).toEqual([rel, dir ? '700' : '600']);
      }
      expect(lstatSync(path.join(outside, 'notes.txt')).mode & 0o777).toBe(0o644);
      expect(lstatSync(path.join(outside, 'shared')).mode & 0o777).toBe(0o755);
      expect(lstatSync(path.join(dataDir, 'notes-link')).isSymbolicLink()).toBe(true);

      expect(value<AppInfo>(await core.dispatch('app:info', {}, r)).problems).toEqual([]);
      const mine = value<ProfilesState>(await core.dispatch('profiles:list', {}, r)).profiles.find(
        (p) => p.name === 'Mine',
      );
      expect(mine?.key).toMatchObject({ hasKey: true, hint: '…cdef' });
      const history = value<{ runs: HistorySummary[] }>(await core.dispatch('history:list', {}, r)).runs;
      expect(history.map((h) => h.verdict)).toEqual(['complete']);
    } finally {
      await core.close();
    }
  });

  it.runIf(canMakeImmutable())(
    'what cannot be changed is said once in the app, the rest is made private, and start-up goes on',
    async () => {
      const dataDir = await usedDataDir();
      loosen(dataDir);
      const stuck = ['profiles.json', 'keys.json'].map((f) => path.join(dataDir, f));
      for (const f of stuck) expect(spawnSync('chattr', ['+i', f]).status).toBe(0);
      try {
        const { core } = await newCore(dataDir);
        try {
          const { problems } = value<AppInfo>(await core.dispatch('app:info', {}, new Capture()));
          expect(problems).toHaveLength(1);
          expect(problems[0].message).toMatch(
            /^(profiles|keys)\.json and 1 more in the data folder could not be made private .*not permitted, EPERM/,
          );
          expect(modes(dataDir)).toMatchObject({ history: 0o700, 'history/index.json': 0o600, 'keys.json': 0o644 });
          expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
        } finally {
          await core.close();
        }
      } finally {
        for (const f of stuck) spawnSync('chattr', ['-i', f]);
      }
    },
  );

  it('changes nothing on Windows, which has no such modes', async () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'profiles.json'), '{}');
    loosen(dataDir);
    expect(await tightenDataDir(dataDir, 'win32')).toBeUndefined();
    expect(modes(dataDir)).toEqual({ 'profiles.json': 0o644 });
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o755);
  });
});
