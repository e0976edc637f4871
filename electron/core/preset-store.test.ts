/**
 * The preset store against real files in a temp data dir: a presets.json it cannot use is moved aside (never
 * overwritten), imports obey the limits the store reads back with and replace only what was there before, and
 * saves made together leave the latest list on disk.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRESET_FORMAT } from '../../shared/contract';
import { PresetStore } from './preset-store';
import { tempDirs } from './testing/temp-dirs';

const temp = tempDirs('gp-presets-');

async function open(dir: string): Promise<{ store: PresetStore; problems: { message: string; movedTo?: string }[] }> {
  const store = new PresetStore(dir, () => []);
  const problems = await store.load();
  return { store, problems };
}
const onDisk = (dir: string): string[] =>
  (JSON.parse(readFileSync(path.join(dir, 'presets.json'), 'utf8')) as { presets: { name: string }[] }).presets
    .map((p) => p.name)
    .sort();
const preset = (name: string, extra: Record<string, unknown> = {}) => ({
  id: name,
  name,
  tags: [],
  protocol: 'chat',
  body: {},
  stream: false,
  createdAt: 't',
  updatedAt: 't',
  ...extra,
});

describe('preset store', () => {
  it('moves a presets.json that fails its schema aside and reports it, so the next save cannot overwrite it', async () => {
    const dir = temp();
    const original = JSON.stringify({
      format: PRESET_FORMAT,
      version: 2,
      presets: [preset('Important A'), preset('Important B', { tags: ['x'.repeat(51)] })],
    });
    writeFileSync(path.join(dir, 'presets.json'), original);
    const { store, problems } = await open(dir);
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(
      /presets\.json could not be used \(Version 2 presets file, but presets\.1\.tags\.0: .*\)\. It was moved aside to presets\.json\.corrupt-/,
    );
    expect(store.list()).toEqual([]);
    await store.save({ name: 'New', tags: [], protocol: 'chat', body: {}, stream: false });
    const aside = readdirSync(dir).filter((f) => f.startsWith('presets.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(dir, aside[0]), 'utf8')).toBe(original);
    expect(onDisk(dir)).toEqual(['New']);
  });

  it('refuses a version 1 import whose notes are past the limit, naming the preset; nothing changes and a restart reads every preset', async () => {
    const dir = temp();
    const { store } = await open(dir);
    await store.save({
      name: 'My precious preset',
      tags: ['x'],
      protocol: 'messages',
      body: { model: 'm' },
      stream: false,
    });
    const v1 = (notes: string) =>
      JSON.stringify({
        format: PRESET_FORMAT,
        version: 1,
        presets: [
          {
            id: 'old1',
            name: 'Legacy',
            protocol: 'chat',
            request: { model: 'gpt' },
            notes,
            created: '2024-01-01T00:00:00Z',
          },
        ],
      });
    await expect(store.importText(v1('n'.repeat(6000)), 'ask')).rejects.toThrow(
      /preset "Legacy" cannot be kept as it is \(notes: .*5000.*\)\. Nothing was imported\./,
    );
    expect(store.list().map((p) => p.name)).toEqual(['My precious preset']);
    expect(await store.importText(v1('n'.repeat(5000)), 'ask')).toEqual({
      imported: 1,
      replaced: 0,
      conflicts: [],
      folders: [],
    });
    const again = await open(dir);
    expect(again.problems).toEqual([]);
    expect(again.store.list().map((p) => p.name)).toEqual(['My precious preset', 'Legacy']);
  });

  it('replace: two presets of one name in the file are both kept; only the preset that was already here is replaced', async () => {
    const dir = temp();
    const { store } = await open(dir);
    await store.save({ name: 'Shared', tags: [], protocol: 'messages', body: { v: 0 }, stream: false });
    const file = JSON.stringify({
      format: PRESET_FORMAT,
      version: 2,
      presets: [
        preset('Draft', { body: { v: 'first draft' } }),
        preset('Draft', { body: { v: 'second draft' } }),
        preset('Shared', { body: { v: 1 } }),
        preset('shared', { body: { v: 2 } }),
      ],
    });
    expect(await store.importText(file, 'replace')).toEqual({
      imported: 3,
      replaced: 1,
      conflicts: ['Shared', 'shared'],
      folders: [],
    });
    expect(store.list().map((p) => `${p.name}:${JSON.stringify(p.body.v)}`)).toEqual([
      'Shared:1',
      'Draft:"first draft"',
      'Draft (2):"second draft"',
      'shared (2):2',
    ]);
  });

  it('saves made together leave the latest list on disk, every time', async () => {
    const wrong: string[] = [];
    for (let trial = 0; trial < 20; trial++) {
      const dir = temp();
      const { store } = await open(dir);
      // A big first body makes the first write the slow one: unqueued, it lands last and drops "second".
      const big = { text: 'y'.repeat(200_000 * (1 + (trial % 3))) };
      await Promise.all([
        store.save({ name: 'first', tags: [], protocol: 'chat', body: big, stream: false }),
        store.save({ name: 'second', tags: [], protocol: 'chat', body: {}, stream: false }),
      ]);
      const names = onDisk(dir).join(',');
      if (names !== 'first,second') wrong.push(`trial ${trial}: ${names}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a change that cannot be written is refused as "unwritable" and leaves the list as it was; the same change works afterwards', async () => {
    const dir = temp();
    const { store } = await open(dir);
    const kept = await store.save({ name: 'Kept', tags: [], protocol: 'chat', body: {}, stream: false });
    const before = store.list();
    // A file where the data folder should be fails the write even for root.
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'not a folder');
    const doc = JSON.stringify({ format: PRESET_FORMAT, version: 2, presets: [preset('Kept'), preset('Other')] });
    const attempts: [string, () => Promise<unknown>][] = [
      ['save', () => store.save({ name: 'New', tags: [], protocol: 'chat', body: {}, stream: false })],
      ['rename', () => store.rename(kept.id, 'Renamed')],
      ['duplicate', () => store.duplicate(kept.id)],
      ['delete', () => store.delete(kept.id)],
      ['restore', () => store.restore(preset('Restored') as never)],
      ['import', () => store.importText(doc, 'keep-both')],
    ];
    for (const [what, attempt] of attempts) {
      await expect(attempt(), what).rejects.toMatchObject({
        code: 'unwritable',
        message: expect.stringContaining(path.join(dir, 'presets.json')),
      });
      expect(store.list(), what).toEqual(before);
    }
    rmSync(dir);
    mkdirSync(dir);
    expect(await store.importText(doc, 'keep-both')).toEqual({
      imported: 2,
      replaced: 0,
      conflicts: ['Kept'],
      folders: [],
    });
    expect(onDisk(dir)).toEqual(['Kept', 'Kept (2)', 'Other']);
  });
});
