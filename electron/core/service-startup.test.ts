/**
 * Integration: the core against real simulated gateways over loopback HTTP (untrusted payloads, damaged files, and a data folder that cannot be written), driven through
 * `dispatch` exactly as both hosts drive it (see testing/core-harness.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, promises as fs, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelList, ProfilesState, RunResult } from '../../shared/contract';
import type { Core } from './service';
import { Capture, newCore, SECOND_KEY, tempDir, useSecondGateways, value } from './testing/core-harness';

const gw = useSecondGateways();

describe('core: untrusted payloads get a Result error, never a crash', () => {
  let core: Core;
  const r = new Capture();
  beforeAll(async () => ({ core } = await newCore()));
  afterAll(() => core.close());

  it('rejects unknown calls, bad shapes, non-http URLs, oversized and non-plain payloads', async () => {
    expect(await core.dispatch('shell:exec', {}, r)).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    expect(await core.dispatch('__proto__', {}, r)).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    expect(await core.dispatch('profiles:save', 'nonsense', r)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    const bad = await core.dispatch('profiles:save', { name: 'x', baseUrl: 'ftp://files.example' }, r);
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', fields: { baseUrl: 'must be an http:// or https:// URL' } },
    });
    expect(
      await core.dispatch('runs:start', { profileId: 'demo', protocol: 'smoke-signals', body: {} }, r),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', fields: { protocol: expect.any(String) } },
    });
    const huge = { profileId: 'demo', protocol: 'messages', body: { blob: 'x'.repeat(33 * 1024 * 1024) } };
    expect(await core.dispatch('runs:start', huge, r)).toMatchObject({ ok: false, error: { code: 'too_large' } });
    // Counted in bytes, as the host's frame limit counts them: 12 M CJK characters are 36 MB.
    const wide = { profileId: 'demo', protocol: 'messages', body: { blob: '漢'.repeat(12 * 1024 * 1024) } };
    expect(await core.dispatch('runs:start', wide, r)).toMatchObject({ ok: false, error: { code: 'too_large' } });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(await core.dispatch('runs:start', circular, r)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await core.dispatch('profiles:delete', { id: 'demo' }, r)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await core.dispatch('runs:start', { profileId: 'ghost', protocol: 'chat', body: {} }, r)).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(value<ProfilesState>(await core.dispatch('profiles:list', {}, r)).activeId).toBe('demo');
  });
});

describe('core: start-up with damaged files', () => {
  it('moves a corrupt profile file aside, reports it, and starts on the Demo gateway', async () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'profiles.json'), '{"version":1,"profiles":[{"id":');
    const { core } = await newCore(dataDir);
    try {
      const info = value<{ problems: { file: string; message: string; movedTo?: string }[] }>(
        await core.dispatch('app:info', {}, new Capture()),
      );
      expect(info.problems).toHaveLength(1);
      expect(info.problems[0].message).toMatch(/profiles\.json is not valid JSON.*moved aside/);
      const files = await fs.readdir(dataDir);
      expect(files.some((f) => f.startsWith('profiles.json.corrupt-'))).toBe(true);
      expect(value<ProfilesState>(await core.dispatch('profiles:list', {}, new Capture())).activeId).toBe('demo');
    } finally {
      await core.close();
    }
  });

  it('adds an Environment profile whose key is never written to disk', async () => {
    const dataDir = tempDir();
    const { core } = await newCore(dataDir, { env: { baseUrl: gw.second.url, apiKey: SECOND_KEY } });
    try {
      const r = new Capture();
      const state = value<ProfilesState>(await core.dispatch('profiles:list', {}, r));
      expect(state.activeId).toBe('env');
      expect(state.profiles.find((p) => p.id === 'env')).toMatchObject({
        name: 'Environment',
        key: { hasKey: true, storage: 'env' },
      });
      const list = value<ModelList>(await core.dispatch('models:list', { profileId: 'env', refresh: true }, r));
      expect(list.models.map((m) => m.id).sort()).toEqual(['gpt-sim-mini', 'sim-chat-only']);
      value(await core.dispatch('profiles:select', { id: 'demo' }, r));
      for (const f of await fs.readdir(dataDir, { recursive: true })) {
        const file = path.join(dataDir, f);
        if (statSync(file).isFile()) expect(readFileSync(file, 'utf8')).not.toContain(SECOND_KEY);
      }
    } finally {
      await core.close();
    }
  });
});

/**
 * A data folder that cannot be written, made so even for root: a regular file where the folder should be
 * fails mkdir (EEXIST, ENOTDIR) whoever runs the test, as permissions would for a user.
 */
describe('core: a data folder that cannot be written', () => {
  const breakDir = (dir: string) => {
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, 'not a folder');
  };
  const mendDir = (dir: string) => {
    rmSync(dir, { force: true });
    mkdirSync(dir);
  };

  it('start-up stops with one sentence naming the folder, what failed and what to do, not a raw error', async () => {
    const blocker = path.join(tempDir(), 'a-file');
    writeFileSync(blocker, 'x');
    const under = path.join(blocker, 'data');
    const failed = newCore(under);
    await expect(failed).rejects.toMatchObject({ name: 'DataDirError', dataDir: under });
    await expect(failed).rejects.toThrow(
      `Gateway Playground cannot start: the data folder ${under} cannot be used (could not create ${under}: a file is where a folder should be, ENOTDIR); make it writable, or choose another data folder.`,
    );

    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'history'), 'x');
    await expect(newCore(dataDir)).rejects.toThrow(
      /^Gateway Playground cannot start: the data folder .* cannot be used \(could not create .*history: a file is where a folder should be, EEXIST\); make it writable/,
    );
  });

  it('a profile save that cannot be written fails "unwritable", changes nothing, and the same save works once the folder is fixed', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    try {
      const before = value<ProfilesState>(
        await core.dispatch('profiles:save', { name: 'Kept', baseUrl: gw.second.url }, r),
      );
      const kept = before.profiles.find((p) => p.name === 'Kept')!;
      breakDir(dataDir);

      for (const input of [
        { name: 'New', baseUrl: gw.second.url },
        { name: 'New', baseUrl: gw.second.url, key: SECOND_KEY, keyStorage: 'persist' },
      ]) {
        const failed = await core.dispatch('profiles:save', input, r);
        expect(failed).toMatchObject({ ok: false, error: { code: 'unwritable' } });
        expect(!failed.ok && failed.error.message).toMatch(
          /^Nothing was saved: .*(profiles\.json|key) could not be (written|stored) \(a file is where a folder should be, E[A-Z]+\)/,
        );
        expect(value<ProfilesState>(await core.dispatch('profiles:list', {}, r))).toEqual(before);
      }
      // A session key needs no write, so it is set before profiles.json fails, and must be taken back.
      const renamed = await core.dispatch(
        'profiles:save',
        { id: kept.id, name: 'Renamed', baseUrl: gw.second.url, key: SECOND_KEY, keyStorage: 'session' },
        r,
      );
      expect(renamed).toMatchObject({
        ok: false,
        error: { code: 'unwritable', message: expect.stringContaining(path.join(dataDir, 'profiles.json')) },
      });
      expect(await core.dispatch('profiles:select', { id: 'demo' }, r)).toMatchObject({
        ok: false,
        error: { code: 'unwritable' },
      });
      expect(await core.dispatch('profiles:delete', { id: kept.id }, r)).toMatchObject({
        ok: false,
        error: { code: 'unwritable' },
      });
      expect(value<ProfilesState>(await core.dispatch('profiles:list', {}, r))).toEqual(before);

      mendDir(dataDir);
      const saved = value<ProfilesState>(
        await core.dispatch('profiles:save', { name: 'New', baseUrl: gw.second.url }, r),
      );
      expect(saved.profiles.map((p) => p.name)).toEqual(['Demo gateway', 'Kept', 'New']);
      expect(saved.activeId).toBe(before.activeId);
      expect(
        JSON.parse(readFileSync(path.join(dataDir, 'profiles.json'), 'utf8')).profiles.map(
          (p: { name: string }) => p.name,
        ),
      ).toEqual(['Kept', 'New']);
    } finally {
      await core.close();
    }
  });

  it('an export too large for import is refused with a way out; a smaller one imports back', async () => {
    const { core } = await newCore();
    const r = new Capture();
    try {
      const image = 'A'.repeat(4 * 1024 * 1024);
      for (let i = 0; i < 9; i++) {
        const body = {
          model: 'claude-sim-sonnet',
          max_tokens: 16,
          messages: [
            {
              role: 'user',
              content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: image } }],
            },
          ],
        };
        value(await core.dispatch('presets:save', { name: `Vision ${i}`, protocol: 'messages', body }, r));
      }
      const all = await core.dispatch('presets:export', {}, r);
      expect(all).toMatchObject({
        ok: false,
        error: { code: 'too_large', message: expect.stringContaining('smaller groups') },
      });
      const presets = value<{ presets: { id: string }[] }>(await core.dispatch('presets:list', {}, r)).presets;
      const some = value<{ text: string; count: number }>(
        await core.dispatch('presets:export', { ids: presets.slice(0, 3).map((p) => p.id) }, r),
      );
      expect(some.count).toBe(3);
      expect(
        value<{ imported: number }>(
          await core.dispatch('presets:import', { text: some.text, onConflict: 'keep-both' }, r),
        ).imported,
      ).toBe(3);
    } finally {
      await core.close();
    }
  });

  it('closing the core (quitting a host) keeps a run it stopped in history, partial output included', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    const body = { model: 'sim-fault-slow', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] };
    const { runId } = value<{ runId: string }>(
      await core.dispatch('runs:start', { profileId: 'demo', protocol: 'messages', body }, r),
    );
    for (let i = 0; i < 200 && !r.text(runId).includes('text_delta'); i++)
      await new Promise((res) => setTimeout(res, 20));
    await core.close();
    const after = await newCore(dataDir);
    try {
      const recorded = value<{ result: RunResult }>(await after.core.dispatch('history:get', { runId }, r));
      expect(recorded.result.verdict).toBe('cancelled');
      expect(recorded.result.transcript.blocks.some((b) => b.kind === 'text' && b.text !== '')).toBe(true);
    } finally {
      await after.core.close();
    }
  });

  it('a models refresh in a folder that cannot be written still shows the list the gateway gave', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    try {
      breakDir(dataDir);
      const list = value<ModelList>(await core.dispatch('models:list', { profileId: 'demo', refresh: true }, r));
      expect(list.error).toBeUndefined();
      expect(list.models.map((m) => m.id)).toContain('claude-sim-sonnet');
    } finally {
      mendDir(dataDir);
      await core.close();
    }
  });

  it('a preset save that cannot be written fails "unwritable" and leaves no preset behind', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    try {
      breakDir(dataDir);
      const input = { name: 'P', protocol: 'messages', body: { model: 'claude-sim-sonnet' } };
      const failed = await core.dispatch('presets:save', input, r);
      expect(failed).toMatchObject({
        ok: false,
        error: { code: 'unwritable', message: expect.stringContaining(path.join(dataDir, 'presets.json')) },
      });
      expect(value<{ presets: unknown[] }>(await core.dispatch('presets:list', {}, r)).presets).toEqual([]);
      mendDir(dataDir);
      value(await core.dispatch('presets:save', input, r));
      const [saved] = value<{ presets: { id: string; name: string }[] }>(
        await core.dispatch('presets:list', {}, r),
      ).presets;
      expect(saved.name).toBe('P');
      // Rename, duplicate and delete report the same code, not "invalid input".
      breakDir(dataDir);
      expect(await core.dispatch('presets:rename', { id: saved.id, name: 'Q' }, r)).toMatchObject({
        ok: false,
        error: { code: 'unwritable' },
      });
      expect(await core.dispatch('presets:duplicate', { id: saved.id }, r)).toMatchObject({
        ok: false,
        error: { code: 'unwritable' },
      });
      expect(await core.dispatch('presets:delete', { id: saved.id }, r)).toMatchObject({
        ok: false,
        error: { code: 'unwritable' },
      });
      mendDir(dataDir);
      expect(
        value<{ presets: { name: string }[] }>(await core.dispatch('presets:list', {}, r)).presets.map((p) => p.name),
      ).toEqual(['P']);
    } finally {
      await core.close();
    }
  });

  it('a run whose history save fails still ends, and app:info reports it until a save works again', async () => {
    const { core, dataDir } = await newCore();
    const r = new Capture();
    const problems = async () =>
      value<{ problems: { file: string; message: string }[] }>(await core.dispatch('app:info', {}, r)).problems;
    const run = async () => {
      const body = {
        model: 'claude-sim-sonnet',
        max_tokens: 32,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      };
      const { runId } = value<{ runId: string }>(
        await core.dispatch('runs:start', { profileId: 'demo', protocol: 'messages', body }, r),
      );
      expect((await r.end(runId)).verdict).toBe('complete');
      return value<{ total: number }>(await core.dispatch('history:list', {}, r)).total;
    };
    try {
      breakDir(dataDir);
      expect(await run()).toBe(0);
      expect(await run()).toBe(0);
      expect(await problems()).toEqual([
        {
          file: path.join(dataDir, 'history'),
          message: expect.stringMatching(
            /^The last 2 runs were not saved to history: .*history could not be written \(a file is where a folder should be, E[A-Z]+\)/,
          ),
        },
      ]);
      mendDir(dataDir);
      expect(await run()).toBe(1);
      expect(await problems()).toEqual([]);
    } finally {
      await core.close();
    }
  });
});
