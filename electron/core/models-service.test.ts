/**
 * The model-list cache on disk: refreshes of several profiles that overlap must all end up in
 * models-cache.json, whichever of their writes would have finished first.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { ProfileStore } from './profiles';

/**
 * The first cache write is held until another write has landed (or a short while has passed), so an unqueued
 * write started later always lands first and the held one, carrying the older cache, lands last.
 */
const writes = vi.hoisted(() => ({ count: 0, landed: undefined as undefined | (() => void) }));
vi.mock('./atomic-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('./atomic-file')>();
  return {
    ...real,
    writeJsonAtomic: async (file: string, value: unknown, mode?: number) => {
      const text = JSON.stringify(value);
      if (writes.count++ === 0) {
        await new Promise<void>((resolve) => {
          writes.landed = resolve;
          setTimeout(resolve, 300);
        });
      }
      await real.writeFileAtomic(file, text, mode);
      writes.landed?.();
    },
  };
});

const { ModelsService } = await import('./models-service');

const dirs: string[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  // /a/v1/models and /b/v1/models: one gateway per profile, each with its own list.
  server = http.createServer((req, res) => {
    const which = req.url?.startsWith('/a/') ? 'a' : 'b';
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data: [{ id: `model-${which}`, object: 'model' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('models cache', () => {
  it('refreshes of two profiles at once keep both lists in models-cache.json', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-models-'));
    dirs.push(dataDir);
    const profiles = {
      get: (id: string) => ({ id, name: id, baseUrl: `${base}/${id}`, authScheme: 'native', extraHeaders: {} }),
      keyFor: () => 'sk-test-0123456789',
      secretsFor: () => ['sk-test-0123456789'],
    } as unknown as ProfileStore;
    const models = new ModelsService(dataDir, profiles);
    await models.load();

    const lists = await Promise.all([models.list('a', true), models.list('b', true)]);
    expect(lists.map((l) => l.models.map((m) => m.id))).toEqual([['model-a'], ['model-b']]);

    const onDisk = JSON.parse(readFileSync(path.join(dataDir, 'models-cache.json'), 'utf8')) as {
      byProfile: Record<string, { models: { id: string }[] }>;
    };
    expect(Object.keys(onDisk.byProfile).sort()).toEqual(['a', 'b']);
    const again = new ModelsService(dataDir, profiles);
    expect(await again.load()).toEqual([]);
    expect((await again.list('b', false)).models.map((m) => m.id)).toEqual(['model-b']);
  });
});
